import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { SessionStatus } from '../domain/conversations.ts';
import type { Session } from '../schemas/conversations.ts';
import type { AgentSessions, Db } from './db.ts';

const SESSION_COLUMNS = [
  'id',
  'conversation_id',
  'agent',
  'status',
  'started_by',
  'started_at',
  'last_heartbeat_at',
  'heartbeats',
  'ended_at',
] as const;

const toSession = (r: Pick<Selectable<AgentSessions>, (typeof SESSION_COLUMNS)[number]>): Session => ({
  id: r.id,
  conversation_id: r.conversation_id,
  agent: r.agent,
  // The column's CHECK holds it to active or ended.
  status: r.status as SessionStatus,
  started_by: r.started_by,
  started_at: isoOrThrow(r.started_at),
  last_heartbeat_at: isoOrThrow(r.last_heartbeat_at),
  heartbeats: Number(r.heartbeats),
  ended_at: r.ended_at === null ? null : isoOrThrow(r.ended_at),
});

export async function insertSession(
  trx: Db,
  s: { id: string; conversation_id: string; agent: string; started_by: string },
  now: Date,
): Promise<Session> {
  const row = await trx
    .insertInto('agent_sessions')
    .values({ ...s, status: 'active', started_at: now, last_heartbeat_at: now })
    .returning(SESSION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toSession(row);
}

/** The session, locked for this command. */
export async function lockSession(trx: Db, id: string): Promise<Session | undefined> {
  const row = await trx
    .selectFrom('agent_sessions')
    .select(SESSION_COLUMNS)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? toSession(row) : undefined;
}

export async function recordHeartbeat(trx: Db, id: string, now: Date): Promise<Session> {
  const row = await trx
    .updateTable('agent_sessions')
    .set((eb) => ({ last_heartbeat_at: now, heartbeats: eb('heartbeats', '+', 1) }))
    .where('id', '=', id)
    .returning(SESSION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toSession(row);
}

export async function endSession(trx: Db, id: string, by: string, now: Date): Promise<Session> {
  const row = await trx
    .updateTable('agent_sessions')
    .set({ status: 'ended', ended_at: now, ended_by: by })
    .where('id', '=', id)
    .returning(SESSION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toSession(row);
}

/**
 * expire-sessions (issue 19): active sessions whose last heartbeat is before `idleBefore` read
 * expired from now on (ended_at: now, ended_by: who expired them); the ids expired.
 */
export async function expireIdleSessions(
  trx: Db,
  idleBefore: Date,
  by: string,
  now: Date,
): Promise<{ id: string; conversation_id: string; project_id: string | null }[]> {
  const rows = await trx
    .updateTable('agent_sessions')
    .set({ status: 'expired', ended_at: now, ended_by: by })
    .where('status', '=', 'active')
    .where('last_heartbeat_at', '<', idleBefore)
    .returning(['id', 'conversation_id'])
    .execute();
  if (rows.length === 0) return [];
  const projects = await trx
    .selectFrom('conversations')
    .select(['id', 'project_id'])
    .where(
      'id',
      'in',
      rows.map((r) => r.conversation_id),
    )
    .execute();
  const projectOf = new Map(projects.map((p) => [p.id, p.project_id]));
  return rows.map((r) => ({ ...r, project_id: projectOf.get(r.conversation_id) ?? null }));
}

/** The sessions of a conversation that are active: who is in the conversation now. */
export async function activeSessions(db: Db, conversationId: string): Promise<Session[]> {
  const rows = await db
    .selectFrom('agent_sessions')
    .select(SESSION_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'active')
    .orderBy('started_at')
    .execute();
  return rows.map(toSession);
}
