import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reconciler } from '../src/runner/reconciler.ts';
import { type AgentData, EDITOR, fid, type Harness, harness, OWNER, VIEWER } from './harness.ts';
import { MemoryRunner } from './memory-runner.ts';

/**
 * The life cycle through HTTP (spec 3, Agents "States"), with the reconciler over an in-memory
 * runner: start and restart answer after one pass (the app's settle), the other commands' effect
 * on what runs is shown by a pass the test runs itself.
 */

let h: Harness;
const runner = new MemoryRunner();
let rec: Reconciler;

beforeAll(async () => {
  h = await harness({ app: { settle: (ms) => rec.settle(ms) } });
  rec = new Reconciler({ database: h.database, runner, intervalMs: 600_000, clock: () => h.now() });
});
afterAll(async () => {
  await rec?.stop();
  await h.close_();
});

const act = (id: string, action: string, as: Parameters<Harness['call']>[2] = OWNER, data?: unknown) =>
  h.call('POST', `/v1/agents/${id}/${action}`, as, data === undefined ? {} : { data });

const read = async (id: string) => (await h.call('GET', `/v1/agents/${id}`)).data as AgentData;

/** An ephemeral agent, as only an agent creates one (its parent's owner owns it). */
async function ephemeral(fields: Record<string, unknown> = {}) {
  const parent = await h.agent();
  return h.agent({ lifetime: 'ephemeral', ...fields }, { service: parent.id });
}

const eventsOf = async (type: string, id: string) =>
  (await h.events(type)).filter((e) => e.payload.data.agent_id === id).map((e) => e.payload.data);

/** A refused command writes nothing: same rows, same outbox, same agent. */
async function expectRefused(id: string, action: string, status: number, code: string, as = OWNER, data?: unknown) {
  const before = await h.state();
  const agent = await read(id);
  const r = await act(id, action, as, data);
  expect(r.status).toBe(status);
  expect(r.errors?.[0]?.code).toBe(code);
  expect(await h.state()).toEqual(before);
  expect(await read(id)).toEqual(agent);
}

async function expired() {
  const a = await ephemeral();
  expect((await act(a.id, 'start')).status).toBe(200);
  expect((await act(a.id, 'expire', { service: null }, { reason: 'finished' })).status).toBe(200);
  return a;
}

describe('18 start', () => {
  it('18 AGT-058 AGT-059 AGT-331 start sets desired_state running, answers after the pass that made its Deployment, publishes agent.started', async () => {
    const a = await h.agent({ instructions: 'secret plan' });
    const r = await act(a.id, 'start');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      desired_state: 'running',
      generation: 1,
      observed_generation: 1,
      runner_error: null,
    });
    expect((await read(a.id)).desired_state).toBe('running');
    expect(runner.running.get(a.id)).toMatchObject({ kind: 'deployment', generation: 1, harnessId: 'platform' });
    const [started] = await eventsOf('agent.started', a.id);
    expect(started).toMatchObject({ agent_id: a.id, reason: 'start', lifetime: 'persistent', run_type: 'always_on' });
    expect(JSON.stringify(started)).not.toContain('secret plan');
  });

  it('18 AGT-058 starting a running agent changes nothing and publishes nothing more', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    const before = await h.state();
    const r = await act(a.id, 'start');
    expect(r.status).toBe(200);
    expect(r.data.generation).toBe(1);
    const after = await h.state();
    // Only the idempotency record of the second command is new.
    expect({ ...after, idempotency_keys: before.idempotency_keys }).toEqual(before);
    expect(await eventsOf('agent.started', a.id)).toHaveLength(1);
  });

  it('18 AGT-060 start on an ephemeral agent runs a Job under a bumped generation, until its ttl_at', async () => {
    const e = await ephemeral();
    const r = await act(e.id, 'start');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ desired_state: 'running', generation: e.generation + 1 });
    expect(runner.running.get(e.id)).toMatchObject({ kind: 'job', generation: e.generation + 1 });
    expect(runner.running.get(e.id)?.ttlAt?.toISOString()).toBe(e.ttl_at);
  });

  it('18 AGT-061 start refuses an expired agent: 409 agent_expired, nothing written', async () => {
    const e = await expired();
    expect((await read(e.id)).status).toBe('expired');
    await expectRefused(e.id, 'start', 409, 'agent_expired');
  });

  it('18 AGT-062 start refuses an archived agent: 409 agent_archived, nothing written', async () => {
    const a = await h.agent();
    expect((await act(a.id, 'archive')).status).toBe(200);
    await expectRefused(a.id, 'start', 409, 'agent_archived');
  });

  it('18 an on-demand agent starts (it accepts calls) and no workload is made', async () => {
    const a = await h.agent({ run_type: 'on_demand' });
    const r = await act(a.id, 'start');
    expect(r.data).toMatchObject({ desired_state: 'running', observed_generation: 1 });
    expect(runner.callsFor(a.id).filter((c) => c.startsWith('apply'))).toEqual([]);
    expect(runner.running.has(a.id)).toBe(false);
  });

  it('18 AGT-325 a viewer may not start an agent: 403 insufficient_role, nothing written', async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${encodeURIComponent(fid(VIEWER))}`, { role: 'viewer' });
    await expectRefused(a.id, 'start', 403, 'insufficient_role', VIEWER);
  });
});

describe('18 stop', () => {
  it('18 AGT-063 AGT-064 AGT-332 stop on a running persistent agent: desired_state stopped, the next pass removes its harness, agent.stopped', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    expect(runner.running.has(a.id)).toBe(true);
    const r = await act(a.id, 'stop');
    expect(r.status).toBe(200);
    expect((await read(a.id)).desired_state).toBe('stopped');
    await rec.pass();
    expect(runner.running.has(a.id)).toBe(false);
    expect((await read(a.id)).observed_generation).toBe(1);
    expect(await eventsOf('agent.stopped', a.id)).toEqual([expect.objectContaining({ reason: 'stop' })]);
  });

  it('18 AGT-065 AGT-066 stop on a running ephemeral agent completes it (still active); it can start again under a new generation', async () => {
    const e = await ephemeral();
    await act(e.id, 'start');
    const stopped = await act(e.id, 'stop');
    expect(stopped.data).toMatchObject({ desired_state: 'completed', status: 'active' });
    await rec.pass();
    expect(runner.running.has(e.id)).toBe(false);
    const again = await act(e.id, 'start');
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ desired_state: 'running', status: 'active', generation: e.generation + 2 });
    expect(runner.running.get(e.id)).toMatchObject({ kind: 'job', generation: e.generation + 2 });
  });

  it('18 AGT-063 stopping an agent that does not run changes nothing', async () => {
    const a = await h.agent();
    const r = await act(a.id, 'stop');
    expect(r.data.desired_state).toBe('stopped');
    expect(await eventsOf('agent.stopped', a.id)).toEqual([]);
  });
});

describe('18 expire', () => {
  it('18 AGT-067 expire (finished) expires an ephemeral agent and its Job goes; agent.expired carries the reason', async () => {
    const e = await ephemeral();
    await act(e.id, 'start');
    const r = await act(e.id, 'expire', { service: null }, { reason: 'finished' });
    expect(r.status).toBe(200);
    expect((await read(e.id)).status).toBe('expired');
    await rec.pass();
    expect(runner.running.has(e.id)).toBe(false);
    expect(await eventsOf('agent.expired', e.id)).toEqual([expect.objectContaining({ reason: 'finished' })]);
  });

  it('18 AGT-068 expire (wall_clock) expires an ephemeral agent whose wall clock ran out', async () => {
    const e = await ephemeral();
    await act(e.id, 'start');
    expect((await act(e.id, 'expire', { service: e.id }, { reason: 'wall_clock' })).status).toBe(200);
    expect((await read(e.id)).status).toBe('expired');
  });

  it('18 AGT-069 a run that only used its step allowance stays active (its run ends; it can start again)', async () => {
    const e = await ephemeral();
    await act(e.id, 'start');
    const r = await act(e.id, 'expire', { service: null }, { reason: 'steps' });
    expect(r.data).toMatchObject({ status: 'active', desired_state: 'completed' });
    expect(await eventsOf('agent.expired', e.id)).toEqual([]);
    expect(await eventsOf('agent.stopped', e.id)).toEqual([expect.objectContaining({ reason: 'steps' })]);
    expect((await act(e.id, 'start')).data).toMatchObject({ status: 'active', desired_state: 'running' });
  });

  it('18 expire refuses a persistent agent (409 not_ephemeral) and a reason outside the three (422), writing nothing', async () => {
    const a = await h.agent();
    await expectRefused(a.id, 'expire', 409, 'not_ephemeral', OWNER, { reason: 'finished' });
    const e = await ephemeral();
    await expectRefused(e.id, 'expire', 422, 'validation_failed', OWNER, { reason: 'bored' });
  });

  it('18 AGT-067 expiring an expired agent again changes nothing', async () => {
    const e = await expired();
    const before = await eventsOf('agent.expired', e.id);
    expect((await act(e.id, 'expire', { service: null }, { reason: 'wall_clock' })).data.status).toBe('expired');
    expect(await eventsOf('agent.expired', e.id)).toEqual(before);
  });
});

describe('18 archive', () => {
  it('18 AGT-070 AGT-071 archive sets status archive and the next pass stops its harness; agent.archived', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    const r = await act(a.id, 'archive');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'archive', desired_state: 'stopped' });
    expect((await read(a.id)).status).toBe('archive');
    await rec.pass();
    expect(runner.running.has(a.id)).toBe(false);
    expect(await eventsOf('agent.archived', a.id)).toHaveLength(1);
  });

  it('18 AGT-070 only the owner archives: an editor gets 403 insufficient_role; archiving twice is 409 agent_archived', async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${encodeURIComponent(fid(EDITOR))}`, { role: 'editor' });
    await expectRefused(a.id, 'archive', 403, 'insufficient_role', EDITOR);
    await act(a.id, 'archive');
    await expectRefused(a.id, 'archive', 409, 'agent_archived');
  });

  it('18 AGT-070 an expired ephemeral agent may be archived', async () => {
    const e = await expired();
    expect((await act(e.id, 'archive')).data).toMatchObject({ status: 'archive' });
  });
});

describe('18 restart', () => {
  it('18 AGT-072 restart is refused for an archived agent: 409 agent_archived, nothing changes', async () => {
    const a = await h.agent();
    await act(a.id, 'archive');
    await expectRefused(a.id, 'restart', 409, 'agent_archived');
  });

  it('18 AGT-073 AGT-074 AGT-075 AGT-076 restart of an expired ephemeral agent: active, generation + 1, ttl_at four hours ahead, a new Job', async () => {
    const e = await expired();
    const gen = (await read(e.id)).generation;
    h.setNow('2026-03-02T15:30:00Z');
    try {
      const r = await act(e.id, 'restart');
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ status: 'active', desired_state: 'running', generation: gen + 1 });
      expect(r.data.ttl_at).toBe('2026-03-02T19:30:00.000Z');
      expect(runner.running.get(e.id)).toMatchObject({ kind: 'job', generation: gen + 1 });
      expect(await eventsOf('agent.restarted', e.id)).toHaveLength(1);
      // start still refuses what is expired; this one is active again.
      expect((await act(e.id, 'start')).status).toBe(200);
    } finally {
      h.setNow('2026-03-02T12:00:00Z');
    }
  });

  it('18 AGT-077 AGT-078 restart of an always-on agent bumps its generation and recycles its Deployment', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    const r = await act(a.id, 'restart');
    expect(r.data).toMatchObject({ generation: 2, observed_generation: 2, desired_state: 'running' });
    expect(runner.callsFor(a.id)).toEqual([`apply ${a.id} deployment g1`, `apply ${a.id} deployment g2`]);
    expect(runner.running.get(a.id)?.generation).toBe(2);
  });

  it('18 restart of an on-demand agent bumps its generation and it accepts calls; still no workload', async () => {
    const a = await h.agent({ run_type: 'on_demand' });
    const r = await act(a.id, 'restart');
    expect(r.data).toMatchObject({ generation: 2, desired_state: 'running' });
    expect(runner.running.has(a.id)).toBe(false);
  });

  it('18 restart of a running ephemeral agent runs a new Job with a fresh four-hour wall clock', async () => {
    const e = await ephemeral();
    await act(e.id, 'start');
    const r = await act(e.id, 'restart');
    expect(r.data).toMatchObject({ generation: e.generation + 2, ttl_at: '2026-03-02T16:00:00.000Z' });
    expect(runner.running.get(e.id)?.generation).toBe(e.generation + 2);
  });
});

describe('18 what else changes what runs', () => {
  it('18 AGT-079 AGT-080 run_type or harness_id of a running agent do not change (409 agent_running); stopped, they do', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    const body = { name: a.name, run_type: 'on_demand' };
    const before = await h.state();
    const refused = await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: body });
    expect(refused.status).toBe(409);
    expect(refused.errors?.[0]?.code).toBe('agent_running');
    const harnessChange = await h.call('PUT', `/v1/agents/${a.id}`, OWNER, {
      data: { name: a.name, harness_id: 'messenger' },
    });
    expect(harnessChange.status).toBe(409);
    expect(await h.state()).toEqual(before);
    await act(a.id, 'stop');
    expect((await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: body })).status).toBe(200);
  });

  it('18 AGT-081 deleting a running persistent agent stops its harness on the next pass', async () => {
    const a = await h.agent();
    await act(a.id, 'start');
    expect(runner.running.has(a.id)).toBe(true);
    expect((await h.call('DELETE', `/v1/agents/${a.id}`)).status).toBe(200);
    const report = await rec.pass();
    expect(report?.orphans).toContain(a.id);
    expect(runner.running.has(a.id)).toBe(false);
  });
});
