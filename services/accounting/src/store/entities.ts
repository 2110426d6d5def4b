import type { Db } from '@platform/kit';
import { isoOrThrow } from '@platform/kit';
import type { LegalEntity, LegalEntityInput } from '../schemas/entities.ts';

const toEntity = (r: Record<string, unknown>): LegalEntity => ({
  id: r.id as string,
  name: r.name as string,
  chart_code: r.chart_code as string,
  status: r.status as LegalEntity['status'],
  created_at: isoOrThrow(r.created_at as Date),
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
