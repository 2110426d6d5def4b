import { iso, type PageRequest } from '@platform/kit';
import { type RawBuilder, sql } from 'kysely';
import type { ReadScope } from '../domain/people.ts';
import type { Period } from '../domain/period.ts';
import type { UsageGroup } from '../domain/usage.ts';
import type { UsageCall, UsageGroupRow, UsageTotals } from '../schemas/usage.ts';
import type { Db } from './db.ts';

/** What a usage read covers. FIDs are resolved; the caller's scope is applied on top. */
export interface UsageFilter {
  period: Period;
  scope: ReadScope;
  /** One identity (with by_creator: everything counted under it). */
  actor?: string;
  /** A person and the identities they created. */
  person?: string;
  provider?: string;
  model?: string;
  /** Count agents' and services' rows under their creator. */
  byCreator: boolean;
}

/**
 * The WHERE of a usage read over `t` (usage_daily or usage_events, both with day, actor_fid,
 * provider and model), joined to the actor's identity as `i`.
 */
function conditions(f: UsageFilter, owner: RawBuilder<string>) {
  const c: RawBuilder<unknown>[] = [sql`t.day >= ${f.period.from}::date`, sql`t.day <= ${f.period.to}::date`];
  if (!f.scope.everyone) c.push(sql`t.actor_fid IN (${sql.join(f.scope.fids)})`);
  if (f.actor !== undefined) c.push(sql`${owner} = ${f.actor}`);
  if (f.person !== undefined) c.push(sql`(t.actor_fid = ${f.person} OR i.creator_fid = ${f.person})`);
  if (f.provider !== undefined) c.push(sql`t.provider = ${f.provider}`);
  if (f.model !== undefined) c.push(sql`t.model = ${f.model}`);
  return sql.join(c, sql` AND `);
}

/** Whom a row counts for: its actor, or with by_creator the actor's creator when there is one. */
const ownerOf = (f: UsageFilter) =>
  f.byCreator ? sql<string>`coalesce(i.creator_fid, t.actor_fid)` : sql<string>`t.actor_fid`;

const SUMS = sql`sum(t.calls)::bigint AS calls,
  sum(t.input_tokens)::bigint AS input_tokens,
  sum(t.output_tokens)::bigint AS output_tokens,
  sum(t.cache_read_tokens)::bigint AS cache_read_tokens,
  sum(t.cost_micros)::bigint AS cost_micros,
  sum(t.cache_savings_micros)::bigint AS cache_savings_micros,
  sum(t.routing_savings_micros)::bigint AS routing_savings_micros`;

const totals = (r: Record<string, unknown>): UsageTotals => ({
  calls: Number(r.calls ?? 0),
  input_tokens: Number(r.input_tokens ?? 0),
  output_tokens: Number(r.output_tokens ?? 0),
  cache_read_tokens: Number(r.cache_read_tokens ?? 0),
  cost_micros: Number(r.cost_micros ?? 0),
  cache_savings_micros: Number(r.cache_savings_micros ?? 0),
  routing_savings_micros: Number(r.routing_savings_micros ?? 0),
});

type Grouping = Exclude<UsageGroup, 'call'>;

/** Each grouping's key columns (over the rollup `t`, the actor `i` and the counted identity `o`). */
const KEYS: Record<Grouping, { select: RawBuilder<unknown>; group: RawBuilder<unknown>; order: RawBuilder<unknown> }> =
  {
    day: { select: sql`t.day::text AS day`, group: sql`t.day`, order: sql`t.day` },
    person: {
      select: sql`o_fid AS actor_fid, o.email AS actor_email, o.name AS actor_name, o.kind AS actor_kind`,
      group: sql`o_fid, o.email, o.name, o.kind`,
      order: sql`o.email COLLATE "C" NULLS LAST, o_fid`,
    },
    person_model: {
      select: sql`o_fid AS actor_fid, o.email AS actor_email, o.name AS actor_name, o.kind AS actor_kind,
      t.provider, t.model`,
      group: sql`o_fid, o.email, o.name, o.kind, t.provider, t.model`,
      order: sql`o.email COLLATE "C" NULLS LAST, o_fid, t.provider COLLATE "C", t.model COLLATE "C"`,
    },
    model: {
      select: sql`t.provider, max(t.provider_kind) AS provider_kind, t.model`,
      group: sql`t.provider, t.model`,
      order: sql`t.provider COLLATE "C", t.model COLLATE "C"`,
    },
    provider: {
      select: sql`t.provider, max(t.provider_kind) AS provider_kind`,
      group: sql`t.provider`,
      order: sql`t.provider COLLATE "C"`,
    },
  };

const KEY_FIELDS = [
  'day',
  'actor_fid',
  'actor_email',
  'actor_name',
  'actor_kind',
  'provider',
  'provider_kind',
  'model',
];

/** The daily rollup summed per group over the period. */
export async function usageGroups(db: Db, f: UsageFilter, group: Grouping): Promise<UsageGroupRow[]> {
  const owner = ownerOf(f);
  const k = KEYS[group];
  const { rows } = await sql<Record<string, unknown>>`
    SELECT ${k.select}, ${SUMS}
    FROM (SELECT t.*, ${owner} AS o_fid FROM usage_daily t LEFT JOIN identities i ON i.fid = t.actor_fid
          WHERE ${conditions(f, owner)}) t
    LEFT JOIN identities o ON o.fid = t.o_fid
    GROUP BY ${k.group}
    ORDER BY ${k.order}`.execute(db);
  return rows.map((r) => {
    const keys: Record<string, unknown> = {};
    for (const name of KEY_FIELDS) if (name in r) keys[name] = r[name];
    return { ...keys, ...totals(r) } as UsageGroupRow;
  });
}

/** The rollup summed over the whole period. */
export async function usageTotals(db: Db, f: UsageFilter): Promise<UsageTotals> {
  const owner = ownerOf(f);
  const { rows } = await sql<Record<string, unknown>>`
    SELECT ${SUMS} FROM usage_daily t LEFT JOIN identities i ON i.fid = t.actor_fid
    WHERE ${conditions(f, owner)}`.execute(db);
  return totals(rows[0] ?? {});
}

const toCall = (r: Record<string, unknown>): UsageCall => ({
  id: r.id as string,
  occurred_at: iso(r.occurred_at as Date) as string,
  day: r.day as string,
  actor_fid: r.actor_fid as string,
  provider: r.provider as string,
  provider_kind: r.provider_kind as string,
  model: r.model as string,
  ...(r.requested_model ? { requested_model: r.requested_model as string } : {}),
  request_kind: r.request_kind as string,
  input_tokens: Number(r.input_tokens),
  output_tokens: Number(r.output_tokens),
  cache_read_tokens: Number(r.cache_read_tokens),
  cost_micros: Number(r.cost_micros),
  cache_savings_micros: Number(r.cache_savings_micros),
  routing_savings_micros: Number(r.routing_savings_micros),
  source: r.source as UsageCall['source'],
  estimated: r.estimated === true,
});

/** The calls themselves, newest first. */
export async function usageCalls(
  db: Db,
  f: UsageFilter,
  page: PageRequest,
): Promise<{ items: UsageCall[]; total: number }> {
  const owner = ownerOf(f);
  const where = conditions(f, owner);
  const [list, count] = await Promise.all([
    sql<Record<string, unknown>>`
      SELECT t.*, t.day::text AS day FROM usage_events t LEFT JOIN identities i ON i.fid = t.actor_fid
      WHERE ${where}
      ORDER BY t.occurred_at DESC, t.id DESC
      LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`.execute(db),
    sql<{ n: string }>`
      SELECT count(*) AS n FROM usage_events t LEFT JOIN identities i ON i.fid = t.actor_fid
      WHERE ${where}`.execute(db),
  ]);
  return { items: list.rows.map(toCall), total: Number(count.rows[0]?.n ?? 0) };
}

/** One stored call. */
export async function usageCall(db: Db, id: string): Promise<UsageCall | undefined> {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT t.*, t.day::text AS day FROM usage_events t WHERE t.id = ${id}`.execute(db);
  return rows[0] ? toCall(rows[0]) : undefined;
}
