import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { LegalEntity, LegalEntityInput } from '../schemas/entities.ts';
import type { Db, LegalEntities } from './db.ts';

const toEntity = (r: Selectable<LegalEntities>): LegalEntity => ({
  id: r.id,
  name: r.name,
  chart_code: r.chart_code,
  // The table's CHECK holds it to the schema's values.
  status: r.status as LegalEntity['status'],
  created_at: isoOrThrow(r.created_at),
});

export async function insertEntity(trx: Db, id: string, input: LegalEntityInput, by: string, now: Date) {
  const row = await trx
    .insertInto('legal_entities')
    .values({ id, ...input, created_by: by, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEntity(row);
}

export async function findEntity(db: Db, id: string): Promise<LegalEntity | undefined> {
  const row = await db.selectFrom('legal_entities').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toEntity(row) : undefined;
}
