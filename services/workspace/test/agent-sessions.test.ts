import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Session } from '../src/schemas/conversations.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const start = async (as: string = EDITOR, projectId?: string): Promise<Conversation> => {
  const url = projectId ? `/v1/projects/${projectId}/conversations` : '/v1/conversations';
  const r = await h.call('POST', url, as, { data: {} });
  h.expectStatus('conversation', r, 201);
  return r.data as Conversation;
};
const open = async (conversationId: string, as: string = EDITOR, data?: Record<string, unknown>): Promise<Session> => {
  const r = await h.call('POST', `/v1/conversations/${conversationId}/sessions`, as, data ? { data } : undefined);
  h.expectStatus('session', r, 201);
  return r.data as Session;
};
const stored = async (id: string) =>
  (
    await sql<{
      status: string;
      heartbeats: number;
    }>`SELECT status, heartbeats FROM agent_sessions WHERE id = ${id}`.execute(h.db)
  ).rows[0];

describe('agent sessions', () => {
  it('16 WS-364 POST /v1/conversations/{id}/sessions starts an agent session: a session is recorded', async () => {
    const c = await start();
    const r = await h.call('POST', `/v1/conversations/${c.id}/sessions`, EDITOR, { data: { agent: 'research-agent' } });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      conversation_id: c.id,
      agent: 'research-agent',
      status: 'active',
      started_by: fid(EDITOR),
      heartbeats: 0,
      ended_at: null,
    });
    expect(await stored(r.data.id)).toEqual({ status: 'active', heartbeats: 0 });
    const [event] = (await h.events('conversation.session_started')).filter(
      (e) => e.payload.data.sessionId === r.data.id,
    );
    expect(event?.payload.data).toEqual({
      conversationId: c.id,
      projectId: null,
      sessionId: r.data.id,
      actor: fid(EDITOR),
    });
    // No body at all: the agent is the caller.
    expect((await open(c.id)).agent).toBe(fid(EDITOR));
  });

  it('16 WS-364 who may start one: as for turns; an archived conversation refuses, nothing written', async () => {
    const p = await h.team();
    const c = await start(EDITOR, p.id);
    const before = await h.state();
    expect((await h.call('POST', `/v1/conversations/${c.id}/sessions`, VIEWER, { data: {} })).status).toBe(403);
    expect((await h.call('POST', `/v1/conversations/${c.id}/sessions`, OUTSIDER, { data: {} })).status).toBe(404);
    expect(await h.state()).toEqual(before);
    await h.call('PATCH', `/v1/conversations/${c.id}`, EDITOR, { data: { status: 'archived' } });
    const archived = await h.state();
    const r = await h.call('POST', `/v1/conversations/${c.id}/sessions`, EDITOR, { data: {} });
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('conversation_archived');
    expect(await h.state()).toEqual(archived);
  });

  it('16 WS-365 POST /v1/sessions/{id}/heartbeat records a heartbeat: 2xx and the session stays active', async () => {
    const c = await start();
    const s = await open(c.id);
    h.setNow('2025-06-16T15:05:00Z');
    try {
      const r = await h.call('POST', `/v1/sessions/${s.id}/heartbeat`, EDITOR);
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({
        id: s.id,
        status: 'active',
        heartbeats: 1,
        last_heartbeat_at: '2025-06-16T15:05:00.000Z',
      });
      expect((await h.call('POST', `/v1/sessions/${s.id}/heartbeat`, EDITOR, { data: {} })).data.heartbeats).toBe(2);
      expect(await stored(s.id)).toEqual({ status: 'active', heartbeats: 2 });
      // Heartbeats are not news: no event.
      expect(
        (await h.events()).filter((e) => JSON.stringify(e.payload).includes(s.id)).map((e) => e.event_type),
      ).toEqual(['conversation.session_started']);
      expect((await h.call('POST', `/v1/sessions/${s.id}/heartbeat`, OWNER)).status).toBe(404);
    } finally {
      h.setNow('2025-06-16T15:00:00Z');
    }
  });

  it('16 WS-366 POST /v1/sessions/{id}/end ends an agent session: the session reads ended', async () => {
    const c = await start();
    const s = await open(c.id);
    const r = await h.call('POST', `/v1/sessions/${s.id}/end`, EDITOR);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ id: s.id, status: 'ended', ended_at: h.now().toISOString() });
    expect(await stored(s.id)).toMatchObject({ status: 'ended' });
    // Ending again changes nothing; a heartbeat after the end is 409 session_ended, nothing written.
    const before = await h.state();
    expect((await h.call('POST', `/v1/sessions/${s.id}/end`, EDITOR)).data.status).toBe('ended');
    const late = await h.call('POST', `/v1/sessions/${s.id}/heartbeat`, EDITOR);
    expect(late.status).toBe(409);
    expect(late.errors[0]?.code).toBe('session_ended');
    const { idempotency_keys: _a, ...rest } = await h.state();
    const { idempotency_keys: _b, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(
      (await h.events('conversation.session_ended')).filter((e) => e.payload.data.sessionId === s.id),
    ).toHaveLength(1);
    const unknown = await h.call('POST', `/v1/sessions/${crypto.randomUUID()}/end`, EDITOR);
    expect(unknown.status).toBe(404);
    expect(unknown.errors[0]?.code).toBe('session_not_found');
  });
});
