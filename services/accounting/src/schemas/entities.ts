import { type Static, Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from './common.ts';

export const EntityStatus = Type.Unsafe<'active' | 'inactive'>({ type: 'string', enum: ['active', 'inactive'] });

export const LegalEntityInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    chart_code: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
    status: EntityStatus,
  },
  { additionalProperties: false },
);
export type LegalEntityInput = Static<typeof LegalEntityInput>;

export const LegalEntity = Type.Object({
  id: Uuid,
  name: Type.String(),
  chart_code: Type.String(),
  status: EntityStatus,
  created_at: Timestamp,
});
export type LegalEntity = Static<typeof LegalEntity>;
