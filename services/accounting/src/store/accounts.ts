import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { AccountRef } from '../domain/journal.ts';
import type { Account, AccountInput } from '../schemas/accounts.ts';
import type { Accounts, Db } from './db.ts';

type AccountRow = Omit<Selectable<Accounts>, 'created_by' | 'parent_id'> & { parent_code: string | null };

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  chart_code: r.chart_code,
  code: r.code,
  name: r.name,
  // The table's CHECK holds it to the schema's values.
  classification: r.classification as Account['classification'],
  is_postable: r.is_postable,
  parent_code: r.parent_code ?? null,
  created_at: isoOrThrow(r.created_at),
});

const withParent = (db: Db) =>
  db
    .selectFrom('accounts as a')
    .leftJoin('accounts as p', 'p.id', 'a.parent_id')
    .select([
      'a.id',
      'a.chart_code',
      'a.code',
      'a.name',
      'a.classification',
      'a.is_postable',
      'a.created_at',
      'p.code as parent_code',
    ]);

export async function findAccountByCode(db: Db, chartCode: string, code: string) {
  return db
    .selectFrom('accounts')
    .select(['id'])
    .where('chart_code', '=', chartCode)
    .where('code', '=', code)
    .executeTakeFirst();
}

/** Inserts unless the code exists in the chart; returns undefined on that conflict. */
export async function insertAccount(
  trx: Db,
  id: string,
  input: AccountInput,
  parentId: string | null,
  by: string,
  now: Date,
): Promise<Account | undefined> {
  const inserted = await trx
    .insertInto('accounts')
    .values({
      id,
      chart_code: input.chart_code,
      code: input.code,
      name: input.name,
      classification: input.classification,
      is_postable: input.is_postable,
      parent_id: parentId,
      created_by: by,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['chart_code', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? findAccount(trx, id) : undefined;
}

export async function findAccount(db: Db, id: string): Promise<Account | undefined> {
  const row = await withParent(db).where('a.id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function setPostable(trx: Db, id: string, isPostable: boolean) {
  await trx.updateTable('accounts').set({ is_postable: isPostable }).where('id', '=', id).execute();
}

/** Cursor list ordered by (chart_code, code, id). */
export async function listAccounts(
  db: Db,
  opts: { after?: [string, string, string]; limit: number; chartCode?: string },
) {
  let q = withParent(db)
    .orderBy('a.chart_code')
    .orderBy('a.code')
    .orderBy('a.id')
    .limit(opts.limit + 1);
  if (opts.chartCode) q = q.where('a.chart_code', '=', opts.chartCode);
  if (opts.after) {
    const [c, code, id] = opts.after;
    q = q.where(sql<boolean>`(a.chart_code, a.code, a.id) > (${c}, ${code}, ${id}::uuid)`);
  }
  const rows = (await q.execute()).map(toAccount);
  const more = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return { items: page, next: more && last ? ([last.chart_code, last.code, last.id] as const) : null };
}

export async function allAccounts(db: Db, chartCode?: string): Promise<Account[]> {
  let q = withParent(db).orderBy('a.chart_code').orderBy('a.code');
  if (chartCode) q = q.where('a.chart_code', '=', chartCode);
  return (await q.execute()).map(toAccount);
}

export async function accountRefs(db: Db, ids: readonly string[]): Promise<Map<string, AccountRef>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'chart_code', 'is_postable'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
