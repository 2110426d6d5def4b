import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { type FirmStatus, type Kind, nameKey } from '../domain/firms.ts';
import type { Firm } from '../schemas/firms.ts';
import type { Db, Firms } from './db.ts';

const COLUMNS = ['id', 'name', 'kind', 'kind_description', 'discipline', 'status', 'created_at', 'updated_at'] as const;

const toFirm = (r: Pick<Selectable<Firms>, (typeof COLUMNS)[number]>): Firm => ({
  id: r.id,
  name: r.name,
  // kind, discipline and status: the table's CHECKs hold them to the schema's values.
  kind: r.kind as Firm['kind'],
  kind_description: r.kind_description ?? null,
  discipline: r.discipline as Firm['discipline'],
  status: r.status as Firm['status'],
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** Inserts unless a firm of that name (ignoring case: nameKey) exists; undefined on that conflict. */
export async function insertFirm(
  trx: Db,
  f: Omit<Firm, 'created_at' | 'updated_at'>,
  by: string,
  now: Date,
): Promise<Firm | undefined> {
  const row = await trx
    .insertInto('firms')
    .values({ ...f, name_key: nameKey(f.name), created_by: by, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('name_key').doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toFirm(row) : undefined;
}

export async function findFirm(db: Db, id: string): Promise<Firm | undefined> {
  const row = await db.selectFrom('firms').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toFirm(row) : undefined;
}

/**
 * The firm, locked until the command's transaction ends: status changes and recorded
 * certificates of one firm run one at a time (both move its current certificates).
 */
export async function lockFirm(trx: Db, id: string): Promise<Firm | undefined> {
  const row = await trx.selectFrom('firms').select(COLUMNS).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
  return row ? toFirm(row) : undefined;
}

export async function setFirmStatus(trx: Db, id: string, status: FirmStatus, now: Date): Promise<Firm> {
  const row = await trx
    .updateTable('firms')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toFirm(row);
}

export interface FirmFilter {
  status?: FirmStatus;
  kind?: Kind;
  q?: string;
  ids?: string[];
}

/** One page of firms ordered by name (ignoring case: nameKey), and how many match in all. */
export async function listFirms(db: Db, filter: FirmFilter, page: PageRequest) {
  let q = db.selectFrom('firms');
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  if (filter.q) q = q.where(sql<boolean>`strpos(name_key, ${nameKey(filter.q)}) > 0`);
  if (filter.ids) q = q.where('id', '=', sql<string>`ANY(${filter.ids}::uuid[])`);
  const [rows, total] = await Promise.all([
    q
      .select(COLUMNS)
      .orderBy('name_key')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toFirm), total: total.n };
}
