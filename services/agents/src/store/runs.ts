import type { Insertable, Selectable } from 'kysely';
import type { AgentRuns, Db } from './db.ts';

export type RunRow = Selectable<AgentRuns>;

export async function insertRun(db: Db, row: Insertable<AgentRuns>): Promise<RunRow> {
  return db.insertInto('agent_runs').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A unique-index violation on the run's inbox item: that wake already has its run. */
export const isRunOfSameWake = (e: unknown) =>
  (e as { code?: string }).code === '23505' && String((e as Error).message).includes('agent_runs_inbox_item');

/**
 * One page of an agent's runs, newest first (started_at, then id), after the key of the last row
 * of the page before; one row more than asked tells whether another page follows.
 */
export async function listRuns(
  db: Db,
  agentId: string,
  limit: number,
  after: { startedAt: Date; id: string } | null,
): Promise<{ rows: RunRow[]; more: boolean }> {
  let q = db.selectFrom('agent_runs').selectAll().where('agent_id', '=', agentId);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('started_at', '<', after.startedAt),
        eb.and([eb('started_at', '=', after.startedAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** A run row as the routes show it. */
export const runView = (r: RunRow) => ({
  id: r.id,
  agent_id: r.agent_id,
  inbox_item_id: r.inbox_item_id,
  reason: r.reason as 'comms' | 'dream' | 'harvest' | 'manual' | 'on_demand',
  started_at: new Date(r.started_at).toISOString(),
  finished_at: new Date(r.finished_at).toISOString(),
  outcome: r.outcome as 'completed' | 'failed' | 'max_turns',
  turns: r.turns,
  model: r.model,
  summary: r.summary,
  recorded_by: r.recorded_by,
  created_at: new Date(r.created_at).toISOString(),
});
