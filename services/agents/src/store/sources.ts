import { sql } from 'kysely';
import type { Caller } from '../domain/access.ts';
import type { Db } from './db.ts';

export async function insertAction(
  db: Db,
  action: { id: string; agent_id: string; action: string; run_id: string | null; created_at: Date },
  rows: { kind: string; id: string; read_in_run: boolean }[],
): Promise<void> {
  await db.insertInto('agent_actions').values(action).execute();
  if (rows.length === 0) return;
  await db
    .insertInto('action_sources')
    .values(rows.map((r) => ({ action_id: action.id, source_id: r.id, kind: r.kind, read_in_run: r.read_in_run })))
    .execute();
}

export interface SourceDbRow {
  action_id: string;
  agent_id: string;
  action: string;
  run_id: string | null;
  kind: string;
  source_id: string;
  read_in_run: boolean;
  created_at: Date;
}

/** What an agent and every agent below it (children, their children…) cited, newest first (AGT-226). */
export async function sourcesOfTree(db: Db, agentId: string, page: { page: number; pageSize: number }) {
  const tree = sql`WITH RECURSIVE tree AS (
      SELECT id FROM agents WHERE id = ${agentId}
      UNION SELECT c.id FROM agents c JOIN tree t ON c.parent_id = t.id
    )`;
  const rows = await sql<SourceDbRow>`${tree}
    SELECT s.action_id, a.agent_id, a.action, a.run_id, s.kind, s.source_id, s.read_in_run, a.created_at
    FROM agent_actions a JOIN tree ON tree.id = a.agent_id JOIN action_sources s ON s.action_id = a.id
    ORDER BY a.created_at DESC, a.id DESC, s.source_id
    LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`.execute(db);
  const total = await sql<{ n: number }>`${tree}
    SELECT count(*)::int AS n FROM agent_actions a JOIN tree ON tree.id = a.agent_id
    JOIN action_sources s ON s.action_id = a.id`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/**
 * The agents a caller may list, as a condition on an agent row `ag`: their top agent is owned
 * by the caller or has them as a member; a platform admin (without X-Platform-As-Member) and the
 * service token without X-Platform-Agent-Id see every agent (AGT-231).
 */
const listable = (caller: Caller) =>
  caller.admin || caller.service
    ? sql<boolean>`true`
    : sql<boolean>`EXISTS (SELECT 1 FROM agents top WHERE top.id = ag.top_id AND (top.owner_fid = ${caller.fid}
        OR EXISTS (SELECT 1 FROM agent_members m WHERE m.agent_id = top.id AND m.principal_fid = ${caller.fid})))`;

export interface ObservedDbRow {
  id: string;
  agent_id: string;
  action: string;
  run_id: string | null;
  created_at: Date;
  sources: { kind: string; id: string; read_in_run: boolean }[];
  cited: string[];
}

/** Actions citing any of ids, newest first, of agents the caller may list (AGT-229..AGT-231). */
export async function actionsCiting(db: Db, caller: Caller, ids: string[], page: { page: number; pageSize: number }) {
  const matching = sql`SELECT a.id FROM agent_actions a JOIN agents ag ON ag.id = a.agent_id
    WHERE ${listable(caller)} AND EXISTS (
      SELECT 1 FROM action_sources s WHERE s.action_id = a.id AND s.source_id = ANY(${ids}::uuid[]))`;
  const rows = await sql<ObservedDbRow>`
    SELECT a.id, a.agent_id, a.action, a.run_id, a.created_at,
      (SELECT json_agg(json_build_object('kind', s.kind, 'id', s.source_id, 'read_in_run', s.read_in_run)
         ORDER BY s.source_id) FROM action_sources s WHERE s.action_id = a.id) AS sources,
      ARRAY(SELECT s.source_id::text FROM action_sources s WHERE s.action_id = a.id AND s.source_id = ANY(${ids}::uuid[])
         ORDER BY s.source_id) AS cited
    FROM agent_actions a WHERE a.id IN (${matching})
    ORDER BY a.created_at DESC, a.id DESC
    LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`.execute(db);
  const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${matching}) m`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}
