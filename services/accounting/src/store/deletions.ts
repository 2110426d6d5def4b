import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { DeletedEntry, Entry } from '../schemas/journal.ts';
import type { Db, DeletedEntries } from './db.ts';

export async function insertSnapshots(
  trx: Db,
  entries: readonly Entry[],
  meta: { reason: string; why: unknown; deleted_by: string; deleted_at: Date },
) {
  await trx
    .insertInto('deleted_entries')
    .values(
      entries.map((e) => ({
        entry_id: e.id,
        legal_entity_id: e.legal_entity_id,
        payment_id: e.payment_id,
        snapshot: JSON.stringify(e),
        reason: meta.reason,
        why: meta.why === undefined ? null : JSON.stringify(meta.why),
        deleted_by: meta.deleted_by,
        deleted_at: meta.deleted_at,
      })),
    )
    .execute();
}

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

const toDeleted = (r: Selectable<DeletedEntries>): DeletedEntry => ({
  entry_id: r.entry_id,
  legal_entity_id: r.legal_entity_id,
  payment_id: r.payment_id ?? null,
  reason: r.reason,
  deleted_at: isoOrThrow(r.deleted_at),
  deleted_by: r.deleted_by,
  why: (parse(r.why) as DeletedEntry['why']) ?? null,
  snapshot: parse(r.snapshot) as Entry,
});

export async function findSnapshot(db: Db, entryId: string) {
  const r = await db.selectFrom('deleted_entries').selectAll().where('entry_id', '=', entryId).executeTakeFirst();
  return r ? toDeleted(r) : undefined;
}

export async function listSnapshots(db: Db, entityId: string | undefined, page: number, pageSize: number) {
  let q = db.selectFrom('deleted_entries').selectAll();
  if (entityId) q = q.where('legal_entity_id', '=', entityId);
  const [rows, count] = await Promise.all([
    q
      .orderBy('deleted_at', 'desc')
      .orderBy('entry_id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM deleted_entries
      WHERE ${entityId ? sql`legal_entity_id = ${entityId}` : sql`true`}`.execute(db),
  ]);
  return { items: rows.map(toDeleted), total: count.rows[0]?.n ?? 0 };
}
