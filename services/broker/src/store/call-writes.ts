import { sql } from 'kysely';
import type { Db } from './db.ts';
import { type DecisionRecord, decisionsInsert } from './routing-decisions.ts';
import { dailyUpsert, type UsageRecord, usageEventsInsert } from './usage-writes.ts';

/**
 * Relayed calls in one statement: their usage rows, their rollup and their routing decision
 * rows, as data-modifying CTEs. One statement is one round trip and, outside a transaction, its
 * own transaction: the cheapest commit for the callers waiting on it (the usage recorder's write).
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
  const withRows = db.with('usage_rows', (c) => usageEventsInsert(c, rows));
  // The CTEs run whatever the main query reads; the main query says how the transaction commits.
  const commit = syncCommit
    ? sql<string>`'on'`.as('commit')
    : sql<string>`set_config('synchronous_commit', 'off', true)`.as('commit');
  if (decisions.length > 0) {
    await withRows
      .with('decision_rows', (c) => decisionsInsert(c, decisions))
      .with('daily_rows', (c) => dailyUpsert(c, rows))
      .selectNoFrom(commit)
      .execute();
  } else {
    await withRows
      .with('daily_rows', (c) => dailyUpsert(c, rows))
      .selectNoFrom(commit)
      .execute();
  }
}
