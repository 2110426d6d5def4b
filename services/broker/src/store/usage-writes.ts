import { sql } from 'kysely';
import type { UsageRecord } from '../domain/usage.ts';
import type { Db } from './db.ts';

// The row a completed call stores is the domain's (domain/usage.ts); named here too for the writers.
export type { UsageRecord };

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export const utcDay = (t: Date) => t.toISOString().slice(0, 10);

/** A daily rollup row: the sums of one (day, actor, provider, model). */
export type DailySum = Omit<
  UsageRecord,
  'id' | 'occurred_at' | 'requested_model' | 'request_kind' | 'source' | 'estimated'
> & {
  day: string;
  calls: number;
};

/**
 * The rollup's rows for `rows`: rows of one (day, actor, provider, model) summed, so the rollup
 * takes one upsert per key, in key order (two writers never wait on each other in opposite orders).
 */
export function dailySums(rows: readonly UsageRecord[]): DailySum[] {
  const sums = new Map<string, DailySum>();
  for (const r of rows) {
    const day = utcDay(r.occurred_at);
    const key = JSON.stringify([day, r.actor_fid, r.provider, r.model]);
    const s = sums.get(key) ?? {
      day,
      actor_fid: r.actor_fid,
      provider: r.provider,
      provider_kind: r.provider_kind,
      model: r.model,
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cost_micros: 0,
      cache_savings_micros: 0,
      routing_savings_micros: 0,
    };
    s.calls += 1;
    s.input_tokens += r.input_tokens;
    s.output_tokens += r.output_tokens;
    s.cache_read_tokens += r.cache_read_tokens;
    s.cost_micros += r.cost_micros;
    s.cache_savings_micros += r.cache_savings_micros;
    s.routing_savings_micros += r.routing_savings_micros;
    sums.set(key, s);
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

/** Stores usage rows and adds them to the daily rollup, in the given transaction (or connection). */
export async function insertUsage(db: Db, rows: readonly UsageRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('usage_events')
    .values(rows.map((r) => ({ ...r, day: utcDay(r.occurred_at) })))
    .execute();
  await db
    .insertInto('usage_daily')
    .values(dailySums(rows))
    .onConflict((oc) =>
      oc.columns(['day', 'actor_fid', 'provider', 'model']).doUpdateSet({
        calls: sql`usage_daily.calls + excluded.calls`,
        input_tokens: sql`usage_daily.input_tokens + excluded.input_tokens`,
        output_tokens: sql`usage_daily.output_tokens + excluded.output_tokens`,
        cache_read_tokens: sql`usage_daily.cache_read_tokens + excluded.cache_read_tokens`,
        cost_micros: sql`usage_daily.cost_micros + excluded.cost_micros`,
        cache_savings_micros: sql`usage_daily.cache_savings_micros + excluded.cache_savings_micros`,
        routing_savings_micros: sql`usage_daily.routing_savings_micros + excluded.routing_savings_micros`,
      }),
    )
    .execute();
}
