import { sql } from 'kysely';
import type { AgentRole } from '../domain/access.ts';
import type { LogKind } from '../domain/logs.ts';
import type { Db } from './db.ts';

export interface WrittenLog {
  id: number;
  created_at: Date;
  /** The owner of the agent's top agent and the caller's membership there (when asked for). */
  owner_fid: string | null;
  member_role: AgentRole | null;
}

/**
 * A log line in one statement: the row, the agent's last_heartbeat_at (AGT-025), and, when
 * `access` names the caller, what the role check needs (the top agent's owner, the caller's
 * membership). The role is checked on the answer; a refusal throws and the transaction takes both
 * writes back. Nothing when the agent does not exist. The service token alone (the harness) is an
 * editor of every agent and skips the role columns: a log POST stays one statement besides its
 * Idempotency-Key, close to a raw insert (bench/logs.ts).
 */
export async function writeLog(
  db: Db,
  agentId: string,
  access: { fid: string | null } | null,
  line: { kind: LogKind; message: string; at: Date },
): Promise<WrittenLog | undefined> {
  const written = sql`
    target AS (UPDATE agents SET last_heartbeat_at = ${line.at} WHERE id = ${agentId} RETURNING id, top_id),
    line AS (
      INSERT INTO agent_logs (agent_id, kind, message, created_at)
      SELECT id, ${line.kind}, ${line.message}, ${line.at} FROM target
      RETURNING id, created_at
    )`;
  const r = access
    ? await sql<WrittenLog>`WITH ${written}
        SELECT line.id, line.created_at, top.owner_fid,
          (SELECT m.role FROM agent_members m WHERE m.agent_id = top.id AND m.principal_fid = ${access.fid}) AS member_role
        FROM line, target JOIN agents top ON top.id = target.top_id`.execute(db)
    : await sql<WrittenLog>`WITH ${written}
        SELECT line.id, line.created_at, NULL AS owner_fid, NULL AS member_role FROM line`.execute(db);
  return r.rows[0];
}

export interface LogRow {
  id: number;
  kind: string;
  message: string;
  created_at: Date;
}

/** An agent's lines newest first, after a (created_at, id) key, one more than the limit to tell a next page. */
export async function listLogs(
  db: Db,
  agentId: string,
  opts: { kind?: LogKind; after?: { at: string; id: number }; limit: number },
): Promise<LogRow[]> {
  let q = db
    .selectFrom('agent_logs')
    .select(['id', 'kind', 'message', 'created_at'])
    .where('agent_id', '=', agentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1);
  if (opts.kind) q = q.where('kind', '=', opts.kind);
  const after = opts.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', new Date(after.at)),
        eb.and([eb('created_at', '=', new Date(after.at)), eb('id', '<', after.id)]),
      ]),
    );
  }
  return q.execute();
}
