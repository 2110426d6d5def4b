import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBreakGlassGrant, insertBreakGlassGrant } from '../src/store/break-glass.ts';
import { activeSessions } from '../src/store/sessions.ts';
import { EDITOR, fid, type Harness, harness, tag } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2025-06-16T15:00:00Z', app: { schedulerToken: SCHEDULER } });
});
afterAll(() => h.close_());

const startSession = async (conversationId: string) => {
  const r = await h.call('POST', `/v1/conversations/${conversationId}/sessions`, EDITOR, { data: { agent: 'helper' } });
  h.expectStatus('session', r, 201);
  return r.data as { id: string; status: string };
};

describe('expire-sessions', () => {
  it('19 WS-477 sessions past their time read expired and no longer show who is in the conversation', async () => {
    h.setNow('2025-06-16T15:00:00Z');
    const c = await h.call('POST', '/v1/conversations', EDITOR, { data: { title: `Chat ${tag()}` } });
    h.expectStatus('conversation', c, 201);
    const conversationId = (c.data as { id: string }).id;
    const quiet = await startSession(conversationId);
    h.setNow('2025-06-16T15:20:00Z');
    const lively = await startSession(conversationId);
    expect((await activeSessions(h.db, conversationId)).map((s) => s.id).sort()).toEqual([quiet.id, lively.id].sort());

    // 31 minutes after the quiet one's last heartbeat; 11 after the lively one's.
    h.setNow('2025-06-16T15:31:00Z');
    const r = await h.call('POST', '/internal/jobs/expire-sessions', asScheduler);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ expired: 1 });
    expect((await activeSessions(h.db, conversationId)).map((s) => s.id)).toEqual([lively.id]);
    const row = await h.db
      .selectFrom('agent_sessions')
      .selectAll()
      .where('id', '=', quiet.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', ended_by: 'service:scheduler' });
    // An expired session takes no heartbeat: its agent starts a new one.
    const beat = await h.call('POST', `/v1/sessions/${quiet.id}/heartbeat`, EDITOR, { data: {} });
    expect(beat.status).toBe(409);
    expect(beat.errors[0]?.code).toBe('session_ended');
    const ended = (await h.events('conversation.session_ended')).filter((e) => e.payload.data.sessionId === quiet.id);
    expect(ended.map((e) => e.payload.data)).toEqual([
      { conversationId, projectId: null, sessionId: quiet.id, actor: 'service:scheduler' },
    ]);
    // A repeat expires nothing more.
    expect((await h.call('POST', '/internal/jobs/expire-sessions', asScheduler)).data).toEqual({ expired: 0 });
  });
});

describe('expire-grants', () => {
  const readProject = (projectId: string, email: string) => h.call('GET', `/v1/projects/${projectId}`, email);

  it('19 WS-479 after the run an expired break-glass membership no longer gives platform-admin reads', async () => {
    h.setNow('2025-06-16T15:00:00Z');
    const p = await h.team();
    const person = `oncall-${tag()}@ws.test`;
    expect((await readProject(p.id, person)).status).toBe(404);
    const id = await insertBreakGlassGrant(
      h.db,
      { person: fid(person), granted_by: 'admin', reason: 'incident', expires_at: new Date('2025-06-16T16:00:00Z') },
      h.now(),
    );
    // While it lasts: a platform admin's reads, without a membership.
    expect((await readProject(p.id, person)).status).toBe(200);

    h.setNow('2025-06-16T16:00:01Z');
    const r = await h.call('POST', '/internal/jobs/expire-grants', asScheduler);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ expired: 1 });
    expect((await findBreakGlassGrant(h.db, id))?.expired_at?.toISOString()).toBe('2025-06-16T16:00:01.000Z');
    expect((await readProject(p.id, person)).status).toBe(404);
  });

  it('19 WS-481 expire-grants still expires grants when the session sweep fails', async () => {
    h.setNow('2025-06-17T09:00:00Z');
    const p = await h.team();
    const person = `oncall-${tag()}@ws.test`;
    const id = await insertBreakGlassGrant(
      h.db,
      { person: fid(person), granted_by: 'admin', reason: 'incident', expires_at: new Date('2025-06-17T09:10:00Z') },
      h.now(),
    );
    h.setNow('2025-06-17T09:15:00Z');
    // The session sweep fails (its table is unreadable)...
    await sql`ALTER TABLE agent_sessions RENAME TO agent_sessions_away`.execute(h.db);
    try {
      const sweep = await h.call('POST', '/internal/jobs/expire-sessions', asScheduler);
      expect(sweep.status).toBe(500);
      // ...and the grants' run, scheduled on its own, still expires them.
      const r = await h.call('POST', '/internal/jobs/expire-grants', asScheduler);
      expect(r.status).toBe(200);
      expect(r.data).toEqual({ expired: 1 });
    } finally {
      await sql`ALTER TABLE agent_sessions_away RENAME TO agent_sessions`.execute(h.db);
    }
    expect((await findBreakGlassGrant(h.db, id))?.expired_at).not.toBeNull();
    expect((await readProject(p.id, person)).status).toBe(404);
  });
});
