import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * Reports read the balances table (entity x posting month x account), never journal lines:
 * their cost is accounts x months, however many lines were posted.
 */
export interface AccountTotals {
  account_id: string;
  code: string;
  name: string;
  classification: string;
  debit: number;
  credit: number;
}

const DEBIT_NORMAL = new Set(['asset', 'expense']);
export const normalBalance = (classification: string, debit: number, credit: number) =>
  DEBIT_NORMAL.has(classification) ? debit - credit : credit - debit;

/** Totals per account over entities and an inclusive month range (either bound optional). */
export async function accountTotals(
  db: Db,
  opts: {
    entityIds?: readonly string[];
    chartCode?: string;
    accountId?: string;
    fromMonth?: string | null;
    toMonth?: string | null;
  },
): Promise<AccountTotals[]> {
  const where = [sql`true`];
  if (opts.entityIds) where.push(sql`b.legal_entity_id = ANY(${[...opts.entityIds]}::uuid[])`);
  if (opts.chartCode) where.push(sql`a.chart_code = ${opts.chartCode}`);
  if (opts.accountId) where.push(sql`b.account_id = ${opts.accountId}`);
  if (opts.fromMonth) where.push(sql`b.month >= ${opts.fromMonth}::date`);
  if (opts.toMonth) where.push(sql`b.month <= ${opts.toMonth}::date`);
  const r = await sql<AccountTotals>`
    SELECT a.id AS account_id, a.code, a.name, a.classification,
           sum(b.debit)::int8 AS debit, sum(b.credit)::int8 AS credit
    FROM balances b JOIN accounts a ON a.id = b.account_id
    WHERE ${sql.join(where, sql` AND `)}
    GROUP BY a.id, a.code, a.name, a.classification
    HAVING sum(b.debit) <> 0 OR sum(b.credit) <> 0
    ORDER BY a.code`.execute(db);
  return r.rows.map((x) => ({ ...x, debit: Number(x.debit), credit: Number(x.credit) }));
}

export interface TrialTotals extends AccountTotals {
  opening_debit: number;
  opening_credit: number;
}

/**
 * One entity's totals per account: debit and credit from fromMonth to toMonth, and opening
 * debit and credit before fromMonth. An account with only opening figures is listed too, so the
 * rows cover every account the balance sheet as of toMonth does.
 */
export async function trialTotals(
  db: Db,
  entityId: string,
  fromMonth: string | null,
  toMonth: string | null,
): Promise<TrialTotals[]> {
  const before = fromMonth ? sql`b.month < ${fromMonth}::date` : sql`false`;
  const r = await sql<TrialTotals>`
    SELECT a.id AS account_id, a.code, a.name, a.classification,
           coalesce(sum(b.debit) FILTER (WHERE NOT (${before})), 0)::int8 AS debit,
           coalesce(sum(b.credit) FILTER (WHERE NOT (${before})), 0)::int8 AS credit,
           coalesce(sum(b.debit) FILTER (WHERE ${before}), 0)::int8 AS opening_debit,
           coalesce(sum(b.credit) FILTER (WHERE ${before}), 0)::int8 AS opening_credit
    FROM balances b JOIN accounts a ON a.id = b.account_id
    WHERE b.legal_entity_id = ${entityId}::uuid AND ${toMonth ? sql`b.month <= ${toMonth}::date` : sql`true`}
    GROUP BY a.id, a.code, a.name, a.classification
    HAVING sum(b.debit) <> 0 OR sum(b.credit) <> 0
    ORDER BY a.code`.execute(db);
  return r.rows.map((x) => ({
    ...x,
    debit: Number(x.debit),
    credit: Number(x.credit),
    opening_debit: Number(x.opening_debit),
    opening_credit: Number(x.opening_credit),
  }));
}

export async function entitiesOfChart(db: Db, chartCode: string): Promise<string[]> {
  const rows = await db
    .selectFrom('legal_entities')
    .select('id')
    .where('chart_code', '=', chartCode)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
