import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevPrincipals, serviceTokenAuthenticator } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayHarness, relayHarness, type TestBudgets } from '../../broker/test/relay-setup.ts';
import { AgentsApi, BrokerApi } from '../src/harness/clients.ts';
import { type HarnessConfig, harnessConfig } from '../src/harness/config.ts';
import { Stopped } from '../src/harness/http.ts';
import type { Workload } from '../src/runner/port.ts';
import { DEFAULT_HARNESS_ENTRY, nodeArgs, processRunner, type RunnerLog } from '../src/runner/process.ts';
import { Reconciler } from '../src/runner/reconciler.ts';
import { type AgentData, type Harness, harness, OWNER, SERVICE_TOKEN } from './harness.ts';

/**
 * The process runner: first with a tiny fake harness (test/fixtures/fake-harness.mjs) that writes
 * down each start, then with the real platform harness against the agents app and the broker on
 * its fake provider, both on real ports.
 */

const FAKE = join(import.meta.dirname, 'fixtures', 'fake-harness.mjs');

/** Waits until `check` holds, polling; fails naming `what` after a generous bound. */
async function until<T>(what: string, check: () => T | Promise<T>, boundMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + boundMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const workload = (over: Partial<Workload> = {}): Workload => ({
  agentId: randomUUID(),
  slug: `agent-${randomUUID().slice(0, 6)}`,
  harnessId: 'platform',
  generation: 1,
  kind: 'deployment',
  ...over,
});

describe('18 process runner with a fake harness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agents-process-runner-'));
  const runner = processRunner({
    agentsUrl: 'http://127.0.0.1:4107',
    serviceToken: 'runner-test-token',
    brokerUrl: 'http://127.0.0.1:4106',
    entry: FAKE,
    env: { FAKE_HARNESS_DIR: dir },
    killGraceMs: 300,
    restartMinMs: 20,
    restartMaxMs: 40,
  });
  afterAll(async () => {
    await runner.close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each start of the agent's harness: generation, pid and the environment it was given, in no order. */
  const starts = (agentId: string) =>
    readdirSync(dir)
      .filter((f) => f.startsWith(`${agentId}.`) && f.endsWith('.json'))
      .map((f) => {
        const [, generation, pid] = f.split('.');
        return {
          generation: Number(generation),
          pid: Number(pid),
          env: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>,
        };
      });
  const running = (agentId: string) => runner.pids()[agentId];

  it('18 process runner: a TypeScript harness runs through tsx on the sources, a built one under plain node', () => {
    expect(DEFAULT_HARNESS_ENTRY).toMatch(/src\/harness\/main\.ts$/);
    expect(nodeArgs('/x/main.ts')).toEqual(['--conditions=source', '--import', 'tsx', '/x/main.ts']);
    expect(nodeArgs('/x/main.js')).toEqual(['/x/main.js']);
  });

  it('18 process runner: a child gets the harness variables and none of the service’s own', async () => {
    process.env.AGENTS_RUNNER_TEST_SECRET = 'must-not-leak';
    try {
      const w = workload({ kind: 'job', generation: 4, ttlAt: new Date('2030-01-02T03:04:05Z') });
      await runner.apply(w);
      const [start] = await until('the job started', () => (starts(w.agentId).length === 1 ? starts(w.agentId) : null));
      expect(start.env).toMatchObject({
        AGENTS_URL: 'http://127.0.0.1:4107',
        AGENT_ID: w.agentId,
        AGENT_SLUG: w.slug,
        HARNESS_ID: 'platform',
        SERVICE_TOKEN: 'runner-test-token',
        BROKER_URL: 'http://127.0.0.1:4106',
        GENERATION: '4',
        KIND: 'job',
        TTL_AT: '2030-01-02T03:04:05.000Z',
      });
      expect(start.env.AGENTS_RUNNER_TEST_SECRET).toBeUndefined();
      await runner.remove(w.agentId);
    } finally {
      delete process.env.AGENTS_RUNNER_TEST_SECRET;
    }
  });

  it('18 process runner: applying the same generation twice keeps one process', async () => {
    const w = workload();
    await runner.apply(w);
    await runner.apply(w);
    const [{ pid }] = await until('the harness started', () => (starts(w.agentId).length ? starts(w.agentId) : null));
    expect(running(w.agentId)).toBe(pid);
    await runner.apply({ ...w });
    expect(running(w.agentId)).toBe(pid);
    expect(starts(w.agentId)).toHaveLength(1);
    expect((await runner.list()).filter((o) => o.agentId === w.agentId)).toEqual([
      { agentId: w.agentId, kind: 'deployment', generation: 1, name: `${w.slug} (pid ${pid})` },
    ]);
    await runner.remove(w.agentId);
  });

  it('18 process runner: a new generation replaces the process (the old one exits first)', async () => {
    const w = workload();
    await runner.apply(w);
    const [{ pid: first }] = await until('generation 1 started', () =>
      starts(w.agentId).length ? starts(w.agentId) : null,
    );
    await runner.apply({ ...w, generation: 2 });
    expect(alive(first)).toBe(false);
    const second = await until('generation 2 started', () => running(w.agentId));
    expect(second).not.toBe(first);
    await until('generation 2 wrote its start', () => starts(w.agentId).some((s) => s.generation === 2));
    expect(
      starts(w.agentId)
        .map((s) => s.generation)
        .sort(),
    ).toEqual([1, 2]);
    expect((await runner.list()).find((o) => o.agentId === w.agentId)?.generation).toBe(2);
    await runner.remove(w.agentId);
  });

  it('18 process runner: a deployment that exits is started again while applied', async () => {
    const w = workload({ slug: `exits-${randomUUID().slice(0, 6)}` });
    await runner.apply(w);
    await until('three starts', () => starts(w.agentId).length >= 3);
    expect((await runner.list()).some((o) => o.agentId === w.agentId && o.kind === 'deployment')).toBe(true);
    await runner.remove(w.agentId);
    const after = starts(w.agentId).length;
    // Removed: no restart is pending. Another deployment restarting three times shows time has passed.
    const other = workload({ slug: `exits-${randomUUID().slice(0, 6)}` });
    await runner.apply(other);
    await until('the other restarted', () => starts(other.agentId).length >= 3);
    await runner.remove(other.agentId);
    expect(starts(w.agentId)).toHaveLength(after);
  });

  it('18 process runner: a job runs once; its exit is final, also when the same generation is applied again', async () => {
    const job = workload({ kind: 'job', slug: `exits-${randomUUID().slice(0, 6)}` });
    await runner.apply(job);
    await until('the job ended', async () =>
      (await runner.list()).find((o) => o.agentId === job.agentId && o.name.endsWith('(not running)')),
    );
    await runner.apply(job);
    // A deployment exiting the same way restarts three times meanwhile: a job restart would have come by now.
    const deployment = workload({ slug: `exits-${randomUUID().slice(0, 6)}` });
    await runner.apply(deployment);
    await until('the deployment restarted', () => starts(deployment.agentId).length >= 3);
    await runner.remove(deployment.agentId);
    expect(starts(job.agentId)).toHaveLength(1);
    // Still listed (what ran for that generation), so a reconciler does not ask for it again.
    expect((await runner.list()).find((o) => o.agentId === job.agentId)).toMatchObject({ kind: 'job', generation: 1 });
    // A new generation is a new job.
    await runner.apply({ ...job, generation: 2 });
    await until('generation 2 ran', () => starts(job.agentId).some((s) => s.generation === 2));
    await runner.remove(job.agentId);
  });

  it('18 process runner: remove ends the process and forgets it; one ignoring SIGTERM is killed after the grace', async () => {
    const polite = workload();
    const deaf = workload({ slug: `deaf-${randomUUID().slice(0, 6)}` });
    await runner.apply(polite);
    await runner.apply(deaf);
    const pids = [
      await until('polite started', () => running(polite.agentId)),
      await until('deaf started', () => running(deaf.agentId)),
    ];
    await until('both wrote their start', () => starts(polite.agentId).length + starts(deaf.agentId).length === 2);
    await Promise.all([runner.remove(polite.agentId), runner.remove(deaf.agentId)]);
    expect(pids.map(alive)).toEqual([false, false]);
    const listed = (await runner.list()).map((o) => o.agentId);
    expect(listed).not.toContain(polite.agentId);
    expect(listed).not.toContain(deaf.agentId);
    // Removing what is not there is fine.
    await runner.remove(polite.agentId);
  });

  it('18 process runner: close reaps every child, and the runner takes no more work', async () => {
    const local = processRunner({
      agentsUrl: 'http://127.0.0.1:4107',
      serviceToken: 't',
      brokerUrl: 'http://127.0.0.1:4106',
      entry: FAKE,
      env: { FAKE_HARNESS_DIR: dir },
      killGraceMs: 300,
    });
    const ws = [workload(), workload({ kind: 'job' }), workload({ slug: `deaf-${randomUUID().slice(0, 6)}` })];
    for (const w of ws) await local.apply(w);
    const pids = await until('all three started', () => {
      const p = local.pids();
      return ws.every((w) => p[w.agentId]) && ws.every((w) => starts(w.agentId).length === 1)
        ? ws.map((w) => p[w.agentId])
        : null;
    });
    await local.close?.();
    expect(pids.map(alive)).toEqual([false, false, false]);
    expect(await local.list()).toEqual([]);
    await expect(local.apply(workload())).rejects.toThrow(/closed/);
  });
});

describe('18 process runner with the platform harness, the agents app and the broker', () => {
  let h: Harness;
  let broker: RelayHarness;
  let runner: ReturnType<typeof processRunner>;
  let reconciler: Reconciler;
  /** What the runner said, for how a child ended. */
  const said: { msg: string; fields: Record<string, unknown> }[] = [];
  const log: RunnerLog = {
    info: (fields, msg) => said.push({ msg, fields: fields as Record<string, unknown> }),
    warn: (fields, msg) => said.push({ msg, fields: fields as Record<string, unknown> }),
    error: (fields, msg) => said.push({ msg, fields: fields as Record<string, unknown> }),
  };

  beforeAll(async () => {
    // The app's clock starts at the real time: an ephemeral agent's ttl_at is then hours ahead of the harness's clock.
    h = await harness({ now: new Date().toISOString() });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as { port: number };
    // The broker accepts the agents service's token, as the platform's one shared SERVICE_TOKEN.
    broker = await relayHarness({
      authenticators: [serviceTokenAuthenticator({ tokens: [SERVICE_TOKEN], directory: DevPrincipals.load() })],
    });
    runner = processRunner({
      agentsUrl: `http://127.0.0.1:${port}`,
      serviceToken: SERVICE_TOKEN,
      brokerUrl: broker.url,
      env: { HEARTBEAT_MS: '200', INBOX_POLL_MS: '100' },
      log,
    });
    // Passes are asked for by the tests: each one is known to have happened before the next step.
    reconciler = new Reconciler({ database: h.database, runner, intervalMs: 600_000, clock: h.now });
  });
  afterAll(async () => {
    await reconciler?.stop();
    await runner?.close?.();
    await broker?.close();
    await h?.close_();
  });

  const get = async (id: string) => (await h.call('GET', `/v1/agents/${id}`)).data as AgentData;
  const runsOf = async (id: string) =>
    (await h.call('GET', `/v1/agents/${id}/runs`)).data as {
      inbox_item_id: string | null;
      reason: string;
      outcome: string;
      turns: number;
      model: string | null;
      summary: string | null;
    }[];
  const logKinds = async (id: string) =>
    ((await h.call('GET', `/v1/agents/${id}/logs?limit=200`)).data as { kind: string }[]).map((l) => l.kind);
  const pass = async () => {
    const report = await reconciler.pass();
    if (!report) throw new Error('the reconcile pass did not get its lock');
    return report;
  };

  let agent: AgentData;
  let pid: number;

  it('18 AGT-025 AGT-198 AGT-315 process runner: start runs the platform harness; its started line and heartbeats appear in its logs and set last_heartbeat_at', async () => {
    agent = await h.agent({ instructions: 'Answer mail about the roof works.' });
    expect(agent.last_heartbeat_at).toBeNull();
    await h.ok('POST', `/v1/agents/${agent.id}/start`, undefined);
    expect((await pass()).applied).toContain(agent.id);
    pid = runner.pids()[agent.id] as number;
    expect(alive(pid)).toBe(true);
    const seen = await until('a heartbeat', async () => ((await get(agent.id)).last_heartbeat_at ? true : null));
    expect(seen).toBe(true);
    const kinds = await until('started and heartbeat lines', async () => {
      const k = await logKinds(agent.id);
      return k.includes('started') && k.includes('heartbeat') ? k : null;
    });
    expect(kinds).toContain('started');
  });

  it('18 AGT-195 AGT-196 process runner: a wake is answered by one model call through the broker, billed to the mailbox, and recorded as a run', async () => {
    const wake = (await h.ok('POST', `/v1/agents/${agent.id}/wake`, { reason: 'comms', ref: 'message-1' }, 202)) as {
      id: string;
    };
    const [run] = await until('the run', async () => {
      const runs = await runsOf(agent.id);
      return runs.length ? runs : null;
    });
    expect(run).toMatchObject({ inbox_item_id: wake.id, reason: 'comms', outcome: 'completed', turns: 1 });
    // model auto: the default provider's first chat model of the broker's catalog.
    expect(run.model).toBe('gpt-4.1');
    expect(run.summary).toBeTruthy();
    const calls = broker.fake.requests.filter((r) =>
      JSON.stringify(r.json?.messages ?? []).includes('Answer mail about the roof works.'),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.json.messages[1].content).toContain('comms (message-1)');
    expect((broker.budgets as TestBudgets).checks.map((a) => a.email)).toContain(agent.email);
    expect(await logKinds(agent.id)).toContain('wake');
  });

  it('18 process runner: a model call the broker refuses (402 over budget) is recorded as a failed run, and the harness goes on', async () => {
    const budgets = broker.budgets as TestBudgets;
    budgets.over.add(agent.email as string);
    try {
      const wake = (await h.ok('POST', `/v1/agents/${agent.id}/wake`, { reason: 'dream', ref: 'night-1' }, 202)) as {
        id: string;
      };
      const run = await until('the failed run', async () =>
        (await runsOf(agent.id)).find((r) => r.inbox_item_id === wake.id),
      );
      expect(run).toMatchObject({ outcome: 'failed', reason: 'dream', model: 'gpt-4.1' });
      expect(run.summary).toContain('402');
      expect(await logKinds(agent.id)).toContain('error');
    } finally {
      budgets.over.delete(agent.email as string);
    }
    expect(alive(pid)).toBe(true);
  });

  it('18 AGT-064 process runner: stop ends the harness process (it exits 0 on SIGTERM)', async () => {
    await h.ok('POST', `/v1/agents/${agent.id}/stop`, undefined);
    expect((await pass()).removed).toContain(agent.id);
    expect(alive(pid)).toBe(false);
    const stopped = said.filter((l) => l.fields.agent_id === agent.id && l.msg === 'agent harness stopped');
    expect(stopped.map((l) => [l.fields.code, l.fields.signal])).toEqual([[0, null]]);
    expect(said.some((l) => l.fields.agent_id === agent.id && /ignored SIGTERM/.test(l.msg))).toBe(false);
    expect((await runner.list()).map((w) => w.agentId)).not.toContain(agent.id);
  });

  it('18 AGT-067 process runner: a swarm member runs as a job, one run of its instructions, then expires itself (finished)', async () => {
    const parent = await h.agent({ instructions: 'Coordinate the survey.' });
    const swarm = (await h.ok(
      'POST',
      `/v1/agents/${parent.id}/swarm`,
      { members: [{ name: `Counter ${randomUUID().slice(0, 6)}`, instructions: 'Count the windows on level 3.' }] },
      201,
      OWNER,
    )) as { members: AgentData[] };
    const member = swarm.members[0] as AgentData;
    expect((await pass()).applied).toContain(member.id);
    const expired = await until('the member expired', async () => {
      const m = await get(member.id);
      return m.status === 'expired' ? m : null;
    });
    expect(expired.desired_state).toBe('completed');
    expect(await runsOf(member.id)).toMatchObject([{ inbox_item_id: null, reason: 'manual', outcome: 'completed' }]);
    const reasons = (await h.events('agent.expired'))
      .filter((e) => e.payload.data.agent_id === member.id)
      .map((e) => e.payload.data.reason);
    expect(reasons).toEqual(['finished']);
    const job = await until('the job ended', async () =>
      (await runner.list()).find((w) => w.agentId === member.id && w.name.endsWith('(not running)')),
    );
    expect(job.kind).toBe('job');
    // Expired: nothing should run for it any more, and the pass forgets the finished job.
    await pass();
    expect((await runner.list()).map((w) => w.agentId)).not.toContain(member.id);
  });

  it('18 AGT-068 process runner: a job whose wall clock has run out expires itself (wall_clock) without a model call', async () => {
    const parent = await h.agent({ instructions: 'Coordinate the survey.' });
    // Spawned five hours ago by the app's clock: its four-hour ttl_at is already behind the harness's clock.
    const real = h.now();
    h.setNow(new Date(real.getTime() - 5 * 3600_000).toISOString());
    const swarm = (await h.ok(
      'POST',
      `/v1/agents/${parent.id}/swarm`,
      { members: [{ name: `Late ${randomUUID().slice(0, 6)}`, instructions: 'Measure the lobby.' }] },
      201,
    )) as { members: AgentData[] };
    h.setNow(real.toISOString());
    const member = swarm.members[0] as AgentData;
    const before = broker.fake.requests.length;
    expect((await pass()).applied).toContain(member.id);
    await until('the member expired', async () => ((await get(member.id)).status === 'expired' ? true : null));
    const reasons = (await h.events('agent.expired'))
      .filter((e) => e.payload.data.agent_id === member.id)
      .map((e) => e.payload.data.reason);
    expect(reasons).toEqual(['wall_clock']);
    expect(await runsOf(member.id)).toEqual([]);
    expect(broker.fake.requests.length).toBe(before);
  });
});

describe('18 process runner: the harness program on its own', () => {
  const cfg = (over: Partial<HarnessConfig> = {}): HarnessConfig => ({
    agentsUrl: 'http://agents.test',
    brokerUrl: 'http://broker.test',
    agentId: randomUUID(),
    serviceToken: 'tok',
    generation: 1,
    kind: 'deployment',
    ttlAt: null,
    heartbeatMs: 30_000,
    pollMs: 5_000,
    requestTimeoutMs: 5_000,
    ...over,
  });

  /** A fetch answering from a list, noting every request. */
  const scripted = (answers: { status: number; body?: unknown }[]) => {
    const seen: { url: string; method: string; headers: Record<string, string>; body?: string }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push({
        url,
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: init.body as string,
      });
      const a = answers.shift() ?? { status: 500 };
      return new Response(a.body === undefined ? '' : JSON.stringify(a.body), { status: a.status });
    }) as typeof globalThis.fetch;
    return { fetch, seen };
  };

  it('18 process runner: a command answered 503 is retried under its one Idempotency-Key; a 4xx is final', async () => {
    const c = cfg();
    const ok = { payload: { data: { id: 1, kind: 'info' } } };
    const s1 = scripted([{ status: 503 }, { status: 502 }, { status: 201, body: ok }]);
    const api = new AgentsApi(c, { signal: new AbortController().signal, timeoutMs: 1_000, fetch: s1.fetch });
    await api.log('info', 'hello');
    expect(s1.seen).toHaveLength(3);
    const keys = new Set(s1.seen.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect(s1.seen[0]?.headers).toMatchObject({ 'x-platform-service-token': 'tok', 'x-platform-agent-id': c.agentId });
    expect(JSON.parse(s1.seen[0]?.body as string)).toEqual({ data: { kind: 'info', message: 'hello' } });
    // The next command has a key of its own.
    const s2 = scripted([{ status: 201, body: ok }]);
    await new AgentsApi(c, { signal: new AbortController().signal, timeoutMs: 1_000, fetch: s2.fetch }).log(
      'info',
      'x',
    );
    expect(keys.has(s2.seen[0]?.headers['idempotency-key'] as string)).toBe(false);

    const refused = { payload: { errors: [{ code: 'insufficient_role', message: 'no' }] } };
    const s3 = scripted([{ status: 403, body: refused }]);
    const failed = new AgentsApi(c, { signal: new AbortController().signal, timeoutMs: 1_000, fetch: s3.fetch });
    await expect(failed.log('info', 'x')).rejects.toMatchObject({ status: 403, code: 'insufficient_role' });
    expect(s3.seen).toHaveLength(1);
  });

  it('18 process runner: a stopped harness abandons its retries at once', async () => {
    const stop = new AbortController();
    const s = scripted([{ status: 503 }]);
    const api = new AgentsApi(cfg(), { signal: stop.signal, timeoutMs: 1_000, fetch: s.fetch });
    const posting = api.log('heartbeat', 'alive');
    stop.abort();
    await expect(posting).rejects.toBeInstanceOf(Stopped);
  });

  it('18 process runner: the harness reads its settings from the environment and refuses a bad one', () => {
    const env = {
      AGENTS_URL: 'http://127.0.0.1:4107/',
      AGENT_ID: 'a1',
      SERVICE_TOKEN: 't',
      AGENT_GENERATION: '3',
      HEARTBEAT_MS: '200',
    };
    expect(harnessConfig(env)).toMatchObject({
      agentsUrl: 'http://127.0.0.1:4107',
      brokerUrl: null,
      generation: 3,
      kind: null,
      ttlAt: null,
      heartbeatMs: 200,
      pollMs: 5_000,
    });
    expect(() => harnessConfig({ ...env, AGENT_ID: '' })).toThrow(/AGENT_ID/);
    expect(() => harnessConfig({ ...env, KIND: 'cron' })).toThrow(/KIND/);
    expect(() => harnessConfig({ ...env, TTL_AT: 'soon' })).toThrow(/TTL_AT/);
    expect(() => harnessConfig({ ...env, HEARTBEAT_MS: '1' })).toThrow(/HEARTBEAT_MS/);
    expect(() => harnessConfig({ ...env, BROKER_URL: 'ftp://x' })).toThrow(/BROKER_URL/);
  });

  it('18 process runner: auto is the broker catalog’s default chat model with a key (any chat model with a key, else the default one)', async () => {
    const catalog = {
      payload: {
        data: {
          default_provider: 'openai',
          providers: [
            { id: 'anthropic', apis: ['messages', 'chat'], available: true },
            { id: 'openai', apis: ['chat'], available: false },
          ],
          models: [
            { provider: 'openai', wire_id: 'gpt-x' },
            { provider: 'anthropic', wire_id: 'claude-y' },
          ],
        },
      },
    };
    const s = scripted([{ status: 200, body: catalog }]);
    const api = new BrokerApi(cfg(), { signal: new AbortController().signal, timeoutMs: 1_000, fetch: s.fetch });
    // The default provider has no key: the one provider that has is asked.
    expect(await api.autoModel()).toBe('claude-y');
    expect(await api.autoModel()).toBe('claude-y');
    expect(s.seen).toHaveLength(1);
    // No key anywhere: the default provider's model, so the relay's 503 names the missing key.
    const none = structuredClone(catalog);
    for (const p of none.payload.data.providers) p.available = false;
    const s2 = scripted([{ status: 200, body: none }]);
    const bare = new BrokerApi(cfg(), { signal: new AbortController().signal, timeoutMs: 1_000, fetch: s2.fetch });
    expect(await bare.autoModel()).toBe('gpt-x');
  });
});
