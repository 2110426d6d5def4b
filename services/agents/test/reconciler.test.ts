import { randomUUID } from 'node:crypto';
import { type FakeKubernetes, type KubeObject, startFakeKubernetes } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type KubernetesRunner,
  kubernetesRunnerFromConfig,
  LABEL_AGENT_ID,
  LABEL_GENERATION,
} from '../src/runner/kubernetes.ts';
import type { Runner, Workload } from '../src/runner/port.ts';
import { Reconciler } from '../src/runner/reconciler.ts';
import { type Harness, harness, OWNER } from './harness.ts';
import { MemoryRunner } from './memory-runner.ts';

/**
 * The reconciler making the world match the records: through the kubernetes runner against the
 * fake Kubernetes API (Deployments, Jobs, Secrets as the cluster holds them), and over an
 * in-memory runner for errors, repair, orphans and the advisory lock.
 */

const NAMESPACE = 'agents';

const act = (h: Harness, id: string, action: string, data?: unknown) =>
  h.call('POST', `/v1/agents/${id}/${action}`, OWNER, data === undefined ? {} : { data });

async function ephemeral(h: Harness) {
  const parent = await h.agent();
  return h.agent({ lifetime: 'ephemeral' }, { service: parent.id });
}

describe('18 reconciler over the kubernetes runner (fake Kubernetes API)', () => {
  let h: Harness;
  let fake: FakeKubernetes;
  let runner: KubernetesRunner;
  let rec: Reconciler;

  beforeAll(async () => {
    fake = await startFakeKubernetes();
    h = await harness({ app: { settle: (ms) => rec.settle(ms) } });
    runner = kubernetesRunnerFromConfig({
      kubeconfigYaml: fake.kubeconfig(NAMESPACE),
      namespace: NAMESPACE,
      images: 'platform=registry.example/harness-platform:1.4.2,messenger=registry.example/harness-messenger:1.0.0',
      agentsUrl: 'http://agents.platform.svc:4107',
      serviceToken: 'service-token-for-tests',
      brokerUrl: 'http://broker.platform.svc:4102',
      now: () => h.now(),
    });
    rec = new Reconciler({ database: h.database, runner, intervalMs: 600_000, clock: () => h.now() });
  });
  afterAll(async () => {
    await rec?.stop();
    await h.close_();
    await fake.close();
  });

  const of = (kind: string, agentId: string) =>
    fake.objects(kind, NAMESPACE).filter((o: KubeObject) => o.metadata?.labels?.[LABEL_AGENT_ID] === agentId);
  const templateGeneration = (d: KubeObject) => d.spec?.template?.metadata?.labels?.[LABEL_GENERATION];

  it('18 AGT-059 start makes exactly one Deployment for the agent, its pod template carrying the generation', async () => {
    const a = await h.agent();
    const r = await act(h, a.id, 'start');
    expect(r.data).toMatchObject({ observed_generation: 1, runner_error: null });
    const deployments = of('Deployment', a.id);
    expect(deployments).toHaveLength(1);
    expect(deployments[0]?.spec?.replicas).toBe(1);
    expect(templateGeneration(deployments[0] as KubeObject)).toBe('1');
    expect(of('Job', a.id)).toEqual([]);
    // Another pass with nothing to do leaves it as it is.
    const uid = deployments[0]?.metadata?.uid;
    await rec.pass();
    expect(of('Deployment', a.id).map((d) => d.metadata?.uid)).toEqual([uid]);
  });

  it('18 AGT-077 AGT-078 restart changes the Deployment’s pod template (generation + 1), so its pod is recycled', async () => {
    const a = await h.agent();
    await act(h, a.id, 'start');
    const before = of('Deployment', a.id)[0] as KubeObject;
    expect((await act(h, a.id, 'restart')).data).toMatchObject({ generation: 2, observed_generation: 2 });
    const after = of('Deployment', a.id);
    expect(after).toHaveLength(1);
    expect(after[0]?.metadata?.uid).toBe(before.metadata?.uid);
    expect(templateGeneration(before)).toBe('1');
    expect(templateGeneration(after[0] as KubeObject)).toBe('2');
  });

  it('18 AGT-060 AGT-076 an ephemeral agent runs one Job per generation: start, then restart, each a new Job, the older gone', async () => {
    const e = await ephemeral(h);
    await act(h, e.id, 'start');
    const first = of('Job', e.id);
    expect(first.map((j) => j.metadata?.labels?.[LABEL_GENERATION])).toEqual([String(e.generation + 1)]);
    expect(first[0]?.spec?.backoffLimit).toBe(0);
    expect(of('Deployment', e.id)).toEqual([]);
    await act(h, e.id, 'expire', { reason: 'finished' });
    await rec.pass();
    expect(of('Job', e.id)).toEqual([]);
    await act(h, e.id, 'restart');
    expect(of('Job', e.id).map((j) => j.metadata?.labels?.[LABEL_GENERATION])).toEqual([String(e.generation + 2)]);
  });

  it('18 AGT-064 AGT-071 AGT-081 stop, archive and delete each leave nothing of the agent in the cluster', async () => {
    const [stopped, archived, deleted] = [await h.agent(), await h.agent(), await h.agent()];
    for (const a of [stopped, archived, deleted]) await act(h, a.id, 'start');
    for (const a of [stopped, archived, deleted]) expect(of('Deployment', a.id)).toHaveLength(1);
    await act(h, stopped.id, 'stop');
    await act(h, archived.id, 'archive');
    expect((await h.call('DELETE', `/v1/agents/${deleted.id}`)).status).toBe(200);
    const report = await rec.pass();
    expect(report?.removed.sort()).toEqual([stopped.id, archived.id].sort());
    expect(report?.orphans).toEqual([deleted.id]);
    for (const a of [stopped, archived, deleted]) {
      expect([...of('Deployment', a.id), ...of('Job', a.id), ...of('Secret', a.id)]).toEqual([]);
    }
  });

  it('18 AGT-192 an on-demand agent, started, has nothing in the cluster', async () => {
    const a = await h.agent({ run_type: 'on_demand' });
    expect((await act(h, a.id, 'start')).data).toMatchObject({ desired_state: 'running', observed_generation: 1 });
    expect([...of('Deployment', a.id), ...of('Job', a.id), ...of('Secret', a.id)]).toEqual([]);
  });

  it('18 AGT-059 a Deployment deleted behind the service’s back is put back by the next pass', async () => {
    const a = await h.agent();
    await act(h, a.id, 'start');
    const name = of('Deployment', a.id)[0]?.metadata?.name as string;
    expect(fake.remove('Deployment', NAMESPACE, name)).toBe(true);
    const report = await rec.pass();
    expect(report?.applied).toContain(a.id);
    expect(of('Deployment', a.id)).toHaveLength(1);
  });
});

describe('18 reconciler over an in-memory runner', () => {
  let h: Harness;
  const runner = new MemoryRunner();
  let rec: Reconciler;
  // The app's wake-ups, counted (the passes here are the tests' own).
  let nudges = 0;
  let nextNudge: (() => void) | undefined;
  const nudged = () =>
    new Promise<void>((resolve) => {
      nextNudge = resolve;
    });
  beforeAll(async () => {
    h = await harness({
      app: {
        settle: (ms) => rec.settle(ms),
        nudge: () => {
          nudges++;
          nextNudge?.();
        },
      },
    });
    rec = new Reconciler({ database: h.database, runner, intervalMs: 600_000, clock: () => h.now() });
  });
  afterAll(async () => {
    await rec?.stop();
    await h.close_();
  });

  it('18 AGT-058 a runner failure is stored as runner_error and the start answers it; the next pass applies and clears it', async () => {
    const a = await h.agent();
    runner.failure = new Error('the cluster does not answer');
    const r = await act(h, a.id, 'start');
    runner.failure = undefined;
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ desired_state: 'running', runner_error: 'the cluster does not answer' });
    expect(r.data.observed_generation).not.toBe(1);
    const report = await rec.pass();
    expect(report?.applied).toContain(a.id);
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data).toMatchObject({
      observed_generation: 1,
      runner_error: null,
    });
  });

  it('18 a workload of an agent the database does not know is removed as an orphan', async () => {
    const stray: Workload = {
      agentId: randomUUID(),
      slug: 'stray',
      harnessId: 'platform',
      generation: 3,
      kind: 'deployment',
    };
    runner.running.set(stray.agentId, stray);
    const report = await rec.pass();
    expect(report?.orphans).toEqual([stray.agentId]);
    expect(runner.running.has(stray.agentId)).toBe(false);
  });

  it('18 a pass with nothing to do calls the runner for nothing but its list', async () => {
    const a = await h.agent();
    await act(h, a.id, 'start');
    await rec.pass();
    const calls = runner.calls.length;
    const report = await rec.pass();
    expect(report).toEqual({ applied: [], removed: [], failed: [], orphans: [] });
    expect(runner.calls.length).toBe(calls);
  });

  it('18 two reconcilers on one database: while one passes, the other gets no lock and applies nothing', async () => {
    const a = await h.agent();
    // What a start records, written without the app (whose start would wait for a pass of its own).
    await h.db.updateTable('agents').set({ desired_state: 'running' }).where('id', '=', a.id).execute();

    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const slow: Runner = {
      name: 'process',
      apply: async (w) => {
        entered();
        await gate;
        runner.running.set(w.agentId, w);
      },
      remove: (id) => runner.remove(id),
      list: () => runner.list(),
    };
    // The other replica sees the same world; what it asks of it is counted.
    const asked: string[] = [];
    const second: Runner = {
      name: 'process',
      apply: async (w) => {
        asked.push(`apply ${w.agentId}`);
        await runner.apply(w);
      },
      remove: async (id) => {
        asked.push(`remove ${id}`);
        await runner.remove(id);
      },
      list: () => runner.list(),
    };
    const one = new Reconciler({ database: h.database, runner: slow, intervalMs: 600_000 });
    const two = new Reconciler({ database: h.database, runner: second, intervalMs: 600_000 });
    const first = one.pass();
    await inside;
    expect(await two.pass()).toBeNull();
    expect(asked).toEqual([]);
    release();
    expect((await first)?.applied).toEqual([a.id]);
    // The lock is free again: the other replica passes, finding nothing left to apply.
    expect(await two.pass()).toEqual({ applied: [], removed: [], failed: [], orphans: [] });
    expect(asked).toEqual([]);
  });

  it('18 a command that committed wakes the reconciler; a refused command and a read do not', async () => {
    let woke = nudged();
    const a = await h.agent();
    await woke;
    const before = nudges;
    expect((await h.call('GET', `/v1/agents/${a.id}`)).status).toBe(200);
    expect((await act(h, a.id, 'expire', { reason: 'finished' })).status).toBe(409);
    woke = nudged();
    expect((await act(h, a.id, 'archive')).status).toBe(200);
    await woke;
    expect(nudges).toBe(before + 1);
  });
});
