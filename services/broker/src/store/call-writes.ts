import { sql } from 'kysely';
import type { Db } from './db.ts';
import type { DecisionRecord } from './routing-decisions.ts';
import { dailySums, type UsageRecord, utcDay } from './usage-writes.ts';

/**
 * Relayed calls in one statement: their usage rows, their rollup and their routing decision
 * rows, through record_relayed_calls (migration 0005), whose statements keep their plans for the
 * session. One statement is one round trip and, outside a transaction, its own transaction: the
 * cheapest commit for the callers waiting on it (the usage recorder's write).
 *
 * `syncCommit: false` makes the statement's transaction commit without waiting for the WAL
 * flush (set_config local to it, read when it commits): on PostgreSQL the rows are then
 * committed in the server, where a broker crash cannot undo them, without a flush per write.
 */
export async function insertCalls(
  db: Db,
  rows: readonly UsageRecord[],
  decisions: readonly DecisionRecord[],
  syncCommit: boolean,
): Promise<void> {
  if (rows.length === 0) return;
  const usage = JSON.stringify(rows.map((r) => ({ ...r, day: utcDay(r.occurred_at) })));
  const decided = JSON.stringify(decisions.map((d) => ({ ...d, day: utcDay(d.decided_at) })));
  const daily = JSON.stringify(dailySums(rows));
  const commit = syncCommit ? sql`` : sql`, set_config('synchronous_commit', 'off', true)`;
  await sql`SELECT record_relayed_calls(${usage}::jsonb, ${decided}::jsonb, ${daily}::jsonb)${commit}`.execute(db);
}

/** Which of `ids` have a usage row (the journal's replay skips those). */
export async function recordedIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('usage_events').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
