import { iso } from '@platform/kit';
import { type RawBuilder, sql } from 'kysely';
import type { BudgetFigures, Month } from '../domain/budgets.ts';
import type { IdentityKind, ReadScope } from '../domain/people.ts';
import { SERVICE_IDENTITY_DOMAIN } from '../tokens.ts';
import type { Db } from './db.ts';

/** The default limit when the settings row is missing (the migration writes it). */
const FALLBACK_DEFAULT_CENTS = 10_000;
/** Service credentials' identities: 0 until an admin sets one (issue 14.4). */
const FALLBACK_SERVICE_CENTS = 0;

/**
 * An identity's effective limit: its override, else the default of its kind. Service credentials'
 * identities (`<client_id>@service.broker`) take the service default, so minting never adds
 * budget without an admin (issue 14.4).
 */
const effectiveLimit = (override: RawBuilder<unknown>, service: RawBuilder<unknown>) => sql`coalesce(${override},
  (SELECT CASE WHEN ${service} THEN service_default_limit_cents ELSE default_limit_cents END FROM budget_settings),
  CASE WHEN ${service} THEN ${FALLBACK_SERVICE_CENTS}::bigint ELSE ${FALLBACK_DEFAULT_CENTS}::bigint END)`;

const serviceEmail = (email: RawBuilder<unknown>) => sql`${email} LIKE ${`%${SERVICE_IDENTITY_DOMAIN}`}`;

export interface DefaultBudget {
  limit: number;
  /** The default of service credentials' identities. */
  service_limit: number;
  updated_by: string | null;
  updated_at: string | null;
}

export async function readDefault(db: Db): Promise<DefaultBudget> {
  const row = await db
    .selectFrom('budget_settings')
    .select(['default_limit_cents', 'service_default_limit_cents', 'updated_by', 'updated_at'])
    .executeTakeFirst();
  return {
    limit: row ? Number(row.default_limit_cents) : FALLBACK_DEFAULT_CENTS,
    service_limit: row ? Number(row.service_default_limit_cents) : FALLBACK_SERVICE_CENTS,
    updated_by: (row?.updated_by as string | null) ?? null,
    updated_at: iso(row?.updated_at as Date | null),
  };
}

/** Sets the default, and the service default when `serviceCents` is given. */
export async function writeDefault(
  trx: Db,
  cents: number,
  by: string,
  now: Date,
  serviceCents?: number,
): Promise<DefaultBudget> {
  const set = {
    default_limit_cents: cents,
    ...(serviceCents === undefined ? {} : { service_default_limit_cents: serviceCents }),
    updated_by: by,
    updated_at: now,
  };
  await trx
    .insertInto('budget_settings')
    .values({ id: true, ...set })
    .onConflict((oc) => oc.column('id').doUpdateSet(set))
    .execute();
  return readDefault(trx);
}

export async function writeOverride(trx: Db, fid: string, cents: number, by: string, now: Date): Promise<void> {
  await trx
    .insertInto('budget_overrides')
    .values({ actor_fid: fid, limit_cents: cents, set_by: by, set_at: now })
    .onConflict((oc) => oc.column('actor_fid').doUpdateSet({ limit_cents: cents, set_by: by, set_at: now }))
    .execute();
}

export async function clearOverride(trx: Db, fid: string): Promise<void> {
  await trx.deleteFrom('budget_overrides').where('actor_fid', '=', fid).execute();
}

/** Which identities a budget read covers. */
export interface BudgetFilter {
  scope: ReadScope;
  /** One identity only. */
  only?: string;
  /** One identity and those it created. */
  tree?: string;
  kinds?: readonly IdentityKind[];
}

const toFigures = (r: Record<string, unknown>): BudgetFigures => ({
  fid: r.fid as string,
  email: r.email as string,
  name: r.name as string,
  kind: r.kind as IdentityKind,
  creator_fid: (r.creator_fid as string | null) ?? null,
  creator_email: (r.creator_email as string | null) ?? null,
  creator_name: (r.creator_name as string | null) ?? null,
  creator_kind: (r.creator_kind as IdentityKind | null) ?? null,
  spend_micros: Number(r.spend_micros),
  token_count: Number(r.token_count),
  override: r.override === null || r.override === undefined ? null : Number(r.override),
  limit: Number(r.limit_cents ?? FALLBACK_DEFAULT_CENTS),
});

/** Every identity in the filter with this month's spend and tokens and its effective limit, by email. */
export async function budgetFigures(
  db: Db,
  f: BudgetFilter,
  month: Month,
  page?: { limit: number; offset: number },
): Promise<{ items: BudgetFigures[]; total: number }> {
  const c: RawBuilder<unknown>[] = [sql`true`];
  if (!f.scope.everyone) c.push(sql`i.fid IN (${sql.join(f.scope.fids)})`);
  if (f.only !== undefined) c.push(sql`i.fid = ${f.only}`);
  if (f.tree !== undefined) c.push(sql`(i.fid = ${f.tree} OR i.creator_fid = ${f.tree})`);
  if (f.kinds !== undefined) c.push(sql`i.kind IN (${sql.join(f.kinds)})`);
  const where = sql.join(c, sql` AND `);
  const paging = page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``;
  const [list, count] = await Promise.all([
    sql<Record<string, unknown>>`
      SELECT i.fid, i.email, i.name, i.kind, i.creator_fid, i.creator_email,
        c.name AS creator_name, c.kind AS creator_kind,
        coalesce(s.spend_micros, 0) AS spend_micros, coalesce(s.token_count, 0) AS token_count,
        o.limit_cents AS override,
        ${effectiveLimit(sql`o.limit_cents`, serviceEmail(sql`i.email`))} AS limit_cents
      FROM identities i
      LEFT JOIN (
        SELECT actor_fid, sum(cost_micros)::bigint AS spend_micros,
          sum(input_tokens + output_tokens)::bigint AS token_count
        FROM usage_daily WHERE day >= ${month.start}::date AND day < ${month.next}::date
        GROUP BY actor_fid
      ) s ON s.actor_fid = i.fid
      LEFT JOIN budget_overrides o ON o.actor_fid = i.fid
      LEFT JOIN identities c ON c.fid = i.creator_fid
      WHERE ${where}
      ORDER BY i.email COLLATE "C", i.fid
      ${paging}`.execute(db),
    sql<{ n: string }>`SELECT count(*) AS n FROM identities i WHERE ${where}`.execute(db),
  ]);
  return { items: list.rows.map(toFigures), total: Number(count.rows[0]?.n ?? 0) };
}

/** What the budget gate needs about one actor this month: spend so far and the effective limit. */
export async function gateFigures(
  db: Db,
  fid: string,
  month: Month,
  service = false,
): Promise<{ spendMicros: number; limitCents: number }> {
  const { rows } = await sql<{ spend_micros: string | number; limit_cents: string | number | null }>`
    SELECT
      (SELECT coalesce(sum(cost_micros), 0)::bigint FROM usage_daily
        WHERE actor_fid = ${fid} AND day >= ${month.start}::date AND day < ${month.next}::date) AS spend_micros,
      ${effectiveLimit(sql`(SELECT limit_cents FROM budget_overrides WHERE actor_fid = ${fid})`, service ? sql`true` : sql`false`)} AS limit_cents`.execute(
    db,
  );
  const r = rows[0];
  return {
    spendMicros: Number(r?.spend_micros ?? 0),
    limitCents:
      r?.limit_cents === null || r?.limit_cents === undefined ? FALLBACK_DEFAULT_CENTS : Number(r.limit_cents),
  };
}
