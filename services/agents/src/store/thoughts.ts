import { sql } from 'kysely';
import type { Db } from './db.ts';
import type { MemoryRow } from './memories.ts';

export const CORE_MAX = 50;
export const RECENT_MAX = 10;
export const RUNS_MAX = 5;

export async function coreMemories(db: Db, agentId: string): Promise<MemoryRow[]> {
  return db
    .selectFrom('agent_memories')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('tier', '=', 'core')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CORE_MAX)
    .execute();
}

/** Archive memories most recently recalled or, never recalled, written. */
export async function recentMemories(db: Db, agentId: string): Promise<MemoryRow[]> {
  return db
    .selectFrom('agent_memories')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('tier', '=', 'archive')
    .orderBy(sql`COALESCE(last_recalled_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .limit(RECENT_MAX)
    .execute();
}

export interface RecentRunRow {
  id: string;
  reason: string;
  outcome: string;
  started_at: Date;
  finished_at: Date;
  summary: string | null;
}

/**
 * The agent's last runs, read from agent_runs (the runs area's table, migration 0002) only when
 * the schema has it: thoughts do not fail for want of run history.
 */
export async function recentRuns(db: Db, agentId: string): Promise<RecentRunRow[]> {
  const present = await sql<{ t: string | null }>`SELECT to_regclass('agent_runs')::text AS t`.execute(db);
  if (!present.rows[0]?.t) return [];
  const r = await sql<RecentRunRow>`
    SELECT id, reason, outcome, started_at, finished_at, summary FROM agent_runs
    WHERE agent_id = ${agentId} ORDER BY started_at DESC, id DESC LIMIT ${RUNS_MAX}`.execute(db);
  return r.rows;
}

export async function setWorkspaceConversation(db: Db, agentId: string, conversationId: string) {
  return db
    .updateTable('agents')
    .set({ workspace_conversation_id: conversationId })
    .where('id', '=', agentId)
    .returning(['id', 'workspace_conversation_id', 'contributes_to_knowledge'])
    .executeTakeFirstOrThrow();
}
