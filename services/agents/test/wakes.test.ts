import { randomUUID } from 'node:crypto';
import { schedulerTokenAuthenticator } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULER_ROUTES } from '../src/auth.ts';
import { ADMIN, type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, tag, VIEWER } from './harness.ts';

/**
 * Wakes and the manual run (spec 3: POST .../wake, POST .../run): the four reasons, the derived
 * key, a sent key winning, wakes in any state, who may wake, and one inbox item and one
 * agent.woken however often one wake is sent.
 */

const SCHEDULER_TOKEN = 'agents-test-scheduler-token';
let h: Harness;
beforeAll(async () => {
  h = await harness({ env: { SCHEDULER_TOKEN } });
});
afterAll(async () => h.close_());

const scheduler = (token = SCHEDULER_TOKEN) => ({ headers: { 'x-platform-scheduler-token': token } });

/** A wake without an Idempotency-Key (the key is derived), unless one is given. */
const wake = (id: string, data: unknown, as: Parameters<Harness['call']>[2] = OWNER, key: string | null = null) =>
  h.call('POST', `/v1/agents/${id}/wake`, as, { data }, key);

const inboxRows = async (agentId: string) =>
  (
    await sql<{ id: string; reason: string; ref: string | null; drained_at: Date | null }>`
      SELECT id, reason, ref, drained_at FROM agent_inbox WHERE agent_id = ${agentId} ORDER BY seq`.execute(h.db)
  ).rows;

const wokenOf = async (agentId: string) =>
  (await h.events('agent.woken')).filter((e) => e.payload.data.agent_id === agentId).map((e) => e.payload.data);

/** An agent with a member of each role. */
async function shared(): Promise<AgentData> {
  const a = await h.agent();
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
  return a;
}

describe('18 wake', () => {
  it('18 AGT-185 AGT-333 each of the four reasons is accepted, queues a wake and publishes agent.woken with the reason', async () => {
    const a = await h.agent();
    for (const reason of ['comms', 'dream', 'harvest', 'manual']) {
      const r = await wake(a.id, { reason, ref: `r-${tag()}` });
      expect(r.status).toBe(202);
      expect(r.data).toMatchObject({ agent_id: a.id, reason, queued: true, drained_at: null });
    }
    expect((await inboxRows(a.id)).map((r) => r.reason)).toEqual(['comms', 'dream', 'harvest', 'manual']);
    const woken = await wokenOf(a.id);
    expect(woken.map((e) => e.reason)).toEqual(['comms', 'dream', 'harvest', 'manual']);
    const items = await inboxRows(a.id);
    expect(woken.map((e) => e.inbox_item_id)).toEqual(items.map((i) => i.id));
    // Ids, lifetime, run type and reason: never a body (AGT-340).
    expect(Object.keys(woken[0] ?? {}).sort()).toEqual(
      [
        'actor_fid',
        'agent_id',
        'generation',
        'inbox_item_id',
        'lifetime',
        'parent_id',
        'reason',
        'run_type',
        'swarm_id',
      ].sort(),
    );
  });

  it('18 AGT-186 a wake without an Idempotency-Key is accepted; the same reason and ref again is the same wake: no second item or event', async () => {
    const a = await h.agent();
    const first = await wake(a.id, { reason: 'comms', ref: 'message-1' });
    expect(first.status).toBe(202);
    expect(first.data.queued).toBe(true);
    const again = await wake(a.id, { reason: 'comms', ref: 'message-1' });
    expect(again.status).toBe(202);
    expect(again.data.id).toBe(first.data.id);
    // Another caller sending the same wake meets the same item (no 409 for a key it never sent).
    const other = await wake(a.id, { reason: 'comms', ref: 'message-1' }, { service: null });
    expect(other.status).toBe(202);
    expect(other.data).toMatchObject({ id: first.data.id, queued: false });
    // Another ref or another reason is another wake.
    expect((await wake(a.id, { reason: 'comms', ref: 'message-2' })).data.queued).toBe(true);
    expect((await wake(a.id, { reason: 'harvest', ref: 'message-1' })).data.queued).toBe(true);
    expect(await inboxRows(a.id)).toHaveLength(3);
    expect(await wokenOf(a.id)).toHaveLength(3);
  });

  it('18 AGT-186 AGT-333 20 concurrent wakes with one derived key give one inbox item and one agent.woken', async () => {
    const a = await h.agent();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => wake(a.id, { reason: 'dream', ref: '2026-03-02' }, { service: null })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((r) => r.data.id)).size).toBe(1);
    expect(await inboxRows(a.id)).toHaveLength(1);
    const woken = await wokenOf(a.id);
    expect(woken).toHaveLength(1);
    expect(woken[0]?.reason).toBe('dream');
  });

  it('18 AGT-186 concurrent wakes with one derived key from different callers give one item and one event', async () => {
    const a = await shared();
    const callers = [OWNER, EDITOR, { service: null }, scheduler(), OWNER, EDITOR] as const;
    const answers = await Promise.all(callers.map((c) => wake(a.id, { reason: 'comms', ref: 'thread-9' }, c)));
    expect(answers.map((r) => r.status)).toEqual(Array(callers.length).fill(202));
    expect(new Set(answers.map((r) => r.data.id)).size).toBe(1);
    expect(await inboxRows(a.id)).toHaveLength(1);
    expect(await wokenOf(a.id)).toHaveLength(1);
  });

  it('18 AGT-186 without a ref a wake of a reason still waiting is that wake; once drained, the next one queues again', async () => {
    const a = await h.agent();
    const first = await wake(a.id, { reason: 'manual' });
    const again = await wake(a.id, { reason: 'manual' });
    expect(again.data).toMatchObject({ id: first.data.id, queued: false });
    expect((await wake(a.id, { reason: 'dream' })).data.queued).toBe(true);
    const drained = await h.call('GET', `/v1/agents/${a.id}/inbox`, { service: null });
    expect(drained.data).toHaveLength(2);
    const later = await wake(a.id, { reason: 'manual' });
    expect(later.data.queued).toBe(true);
    expect(later.data.id).not.toBe(first.data.id);
    expect(await wokenOf(a.id)).toHaveLength(3);
  });

  it('18 AGT-186 a sent Idempotency-Key wins: it replays its answer, and other keys with the same ref are other wakes', async () => {
    const a = await h.agent();
    const key = randomUUID();
    const first = await wake(a.id, { reason: 'harvest', ref: 'batch-1' }, OWNER, key);
    expect(first.status).toBe(202);
    const replay = await wake(a.id, { reason: 'harvest', ref: 'batch-1' }, OWNER, key);
    expect(replay.status).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    const second = await wake(a.id, { reason: 'harvest', ref: 'batch-1' }, OWNER, randomUUID());
    expect(second.data.queued).toBe(true);
    expect(second.data.id).not.toBe(first.data.id);
    expect(await inboxRows(a.id)).toHaveLength(2);
    expect(await wokenOf(a.id)).toHaveLength(2);
  });

  it('18 AGT-186 a sent key reused with another body is 409 idempotency_key_reused, nothing written', async () => {
    const a = await h.agent();
    const key = randomUUID();
    expect((await wake(a.id, { reason: 'comms', ref: 'x' }, OWNER, key)).status).toBe(202);
    const before = await h.state();
    const r = await wake(a.id, { reason: 'dream', ref: 'x' }, OWNER, key);
    expect(r.status).toBe(409);
    expect(r.errors?.[0]?.code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-185 wakes queue in any state: stopped, running, archived', async () => {
    const a = await h.agent();
    expect(a.desired_state).toBe('stopped');
    expect((await wake(a.id, { reason: 'comms', ref: 'stopped' })).status).toBe(202);
    expect((await h.call('POST', `/v1/agents/${a.id}/start`, OWNER, {})).status).toBe(200);
    expect((await wake(a.id, { reason: 'comms', ref: 'running' })).status).toBe(202);
    expect((await h.call('POST', `/v1/agents/${a.id}/archive`, OWNER, {})).status).toBe(200);
    expect((await wake(a.id, { reason: 'comms', ref: 'archived' })).status).toBe(202);
    expect((await inboxRows(a.id)).map((r) => r.ref)).toEqual(['stopped', 'running', 'archived']);
  });

  it('18 AGT-185 a reason outside the four, or no reason, is 422 and writes nothing', async () => {
    const a = await h.agent();
    const before = await h.state();
    for (const data of [{ reason: 'party' }, {}, { reason: 'comms', ref: '' }, { reason: 'comms', extra: 1 }]) {
      const r = await wake(a.id, data);
      expect(r.status).toBe(422);
      expect(r.errors?.[0]?.code).toBe('validation_failed');
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('18 wake callers', () => {
  it('18 AGT-314 AGT-317 the service token wakes any agent without a membership', async () => {
    const a = await h.agent();
    const r = await wake(a.id, { reason: 'comms', ref: 'svc' }, { service: null });
    expect(r.status).toBe(202);
    expect((await wokenOf(a.id))[0]?.actor_fid).toBe('service:platform');
  });

  it('18 AGT-318 AGT-314 the scheduler wakes with X-Platform-Scheduler-Token', async () => {
    const a = await h.agent();
    const r = await wake(a.id, { reason: 'dream', ref: 'nightly' }, scheduler());
    expect(r.status).toBe(202);
    expect((await wokenOf(a.id))[0]).toMatchObject({ reason: 'dream', actor_fid: 'service:scheduler' });
  });

  it('18 AGT-318 a wrong scheduler token is 401 and writes nothing', async () => {
    const a = await h.agent();
    const before = await h.state();
    const r = await wake(a.id, { reason: 'dream' }, scheduler('not-the-token'));
    expect(r.status).toBe(401);
    expect(r.errors?.[0]?.code).toBe('unauthenticated');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-318 the scheduler token opens only /wake: elsewhere it signs no one in', async () => {
    const a = await h.agent();
    const before = await h.state();
    expect((await h.call('GET', `/v1/agents/${a.id}`, scheduler())).status).toBe(401);
    expect((await h.call('POST', `/v1/agents/${a.id}/run`, scheduler(), {})).status).toBe(401);
    expect((await h.call('GET', `/v1/agents/${a.id}/inbox`, scheduler())).status).toBe(401);
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-318 without SCHEDULER_TOKEN the scheduler header signs no one in; with it, only on the routes named', async () => {
    const req = (url: string, token?: string) =>
      ({ headers: token ? { 'x-platform-scheduler-token': token } : {}, routeOptions: { url } }) as never;
    const off = schedulerTokenAuthenticator({ token: undefined, routes: SCHEDULER_ROUTES });
    expect(await off.authenticate(req('/v1/agents/:id/wake', SCHEDULER_TOKEN))).toBeNull();
    const on = schedulerTokenAuthenticator({ token: SCHEDULER_TOKEN, routes: SCHEDULER_ROUTES });
    expect(await on.authenticate(req('/v1/agents/:id/wake', SCHEDULER_TOKEN))).toMatchObject({
      id: 'service:scheduler',
      kind: 'service',
    });
    expect(await on.authenticate(req('/internal/jobs/daily-briefs', SCHEDULER_TOKEN))).not.toBeNull();
    expect(await on.authenticate(req('/v1/agents/:id', SCHEDULER_TOKEN))).toBeNull();
    expect(await on.authenticate(req('/v1/agents/:id/wake'))).toBeNull();
  });

  it('18 AGT-316 the harness waking with X-Platform-Agent-Id acts as the agent’s owner', async () => {
    const a = await h.agent();
    const r = await wake(a.id, { reason: 'comms', ref: 'self' }, { service: a.id });
    expect(r.status).toBe(202);
    expect((await wokenOf(a.id))[0]?.actor_fid).toBe(`agent:${a.id}`);
  });

  it('18 AGT-319 AGT-324 AGT-327 AGT-329 an editor wakes; a viewer is 403 insufficient_role, a stranger 404, an admin without a role 403; nothing written', async () => {
    const a = await shared();
    expect((await wake(a.id, { reason: 'comms', ref: 'editor' }, EDITOR)).status).toBe(202);
    const before = await h.state();
    const viewer = await wake(a.id, { reason: 'comms', ref: 'viewer' }, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.errors?.[0]?.code).toBe('insufficient_role');
    const stranger = await wake(a.id, { reason: 'comms', ref: 'stranger' }, STRANGER);
    expect(stranger.status).toBe(404);
    expect(stranger.errors?.[0]?.code).toBe('agent_not_found');
    const admin = await wake(a.id, { reason: 'comms', ref: 'admin' }, ADMIN);
    expect(admin.status).toBe(403);
    expect(admin.errors?.[0]?.code).toBe('insufficient_role');
    const missing = await wake(randomUUID(), { reason: 'comms' });
    expect(missing.status).toBe(404);
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-326 a swarm member is woken by whoever may wake its top agent', async () => {
    const top = await shared();
    const s = await h.ok<{ members: { id: string }[] }>(
      'POST',
      `/v1/agents/${top.id}/swarm`,
      { members: [{ name: `Member ${tag()}`, instructions: 'help' }] },
      201,
    );
    const child = s.members[0] as { id: string };
    expect((await wake(child.id, { reason: 'comms', ref: 'child' }, EDITOR)).status).toBe(202);
    expect((await wake(child.id, { reason: 'comms', ref: 'child-v' }, VIEWER)).status).toBe(403);
  });
});

describe('18 run', () => {
  it('18 AGT-184 AGT-333 POST run queues a manual wake and publishes agent.woken with reason manual', async () => {
    const a = await h.agent();
    const r = await h.call('POST', `/v1/agents/${a.id}/run`, OWNER, {});
    expect(r.status).toBe(202);
    expect(r.data).toMatchObject({ agent_id: a.id, reason: 'manual', ref: null, queued: true });
    const items = await inboxRows(a.id);
    expect(items.map((i) => [i.id, i.reason])).toEqual([[r.data.id, 'manual']]);
    expect((await wokenOf(a.id)).map((e) => e.reason)).toEqual(['manual']);
  });

  it('18 AGT-184 each key is one manual run: a body is optional, a ref is kept, the same key replays', async () => {
    const a = await h.agent();
    const key = randomUUID();
    const first = await h.call('POST', `/v1/agents/${a.id}/run`, OWNER, undefined, key);
    expect(first.status).toBe(202);
    const replay = await h.call('POST', `/v1/agents/${a.id}/run`, OWNER, undefined, key);
    expect(replay.data).toEqual(first.data);
    const second = await h.call('POST', `/v1/agents/${a.id}/run`, OWNER, { data: { ref: 'button' } });
    expect(second.data).toMatchObject({ reason: 'manual', ref: 'button', queued: true });
    expect(await inboxRows(a.id)).toHaveLength(2);
  });

  it('18 AGT-184 a viewer may not run the agent: 403 insufficient_role, nothing written', async () => {
    const a = await shared();
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${a.id}/run`, VIEWER, {});
    expect(r.status).toBe(403);
    expect(r.errors?.[0]?.code).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
  });
});
