import { uuidv7 } from '@platform/kit';
import type { LegalEntityInput } from '../schemas/entities.ts';
import { insertEntity } from '../store/entities.ts';
import type { CommandCtx, WhyValue } from './context.ts';

export async function createLegalEntity(
  { trx, principal, now, emit }: CommandCtx,
  input: LegalEntityInput,
  why?: WhyValue,
) {
  const entity = await insertEntity(trx, uuidv7(now.getTime()), input, principal.id, now);
  await emit({ type: 'legal_entity.created', data: { legal_entity: entity, why: why ?? null } });
  return entity;
}
