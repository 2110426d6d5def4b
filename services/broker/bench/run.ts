import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchRun, benchEnv, type LoadResult, median, mergeRounds, quantile, round } from '@platform/kit/testing';
import { Client, type Dispatcher, Pool } from 'undici';
import {
  BENCH_CALLER,
  BENCH_MODEL,
  type Child,
  chatBody,
  chatBytes,
  chatCall,
  PROVIDER_KEY,
  portkeyEntry,
  processCpuMs,
  sequentialLatencies,
  startPortkey,
  type Target,
  type TargetName,
  timedLoop,
  tsChild,
} from './lib.ts';
import { formatProfile, type ProfileSummary, summarizeProfile } from './profile.ts';

/**
 * The broker benchmark: `npm run bench -w services/broker`.
 *
 * One fake provider (the relay tests' fake, in its own process) is called four ways: directly,
 * through the broker relay (POST /v1/relay/chat/completions; the real app in its own process on
 * in-memory PGlite or PostgreSQL, production log level), through a bare `node:http` + `undici`
 * pass-through in its own process (bench/bare-relay-process.ts: the floor of any relay on this
 * machine, issue 22.4) and through Portkey's gateway (@portkey-ai/gateway, in its own process) as a peer. For plain and streamed chat completions (stream_options.include_usage):
 *
 * 1. Latency: a keep-alive client making one call at a time, timed with performance.now(); rounds
 *    alternate direct, relay, Portkey; the added latency of a round is its p50 (p99) minus the
 *    direct p50 (p99) of that round, and the figure is the median over rounds.
 *    Goals (issue 22): relay added p50 < 0.5 ms, added p99 < 2.5 ms.
 * 2. Throughput: a closed loop of N concurrent keep-alive connections (undici Pool) for a fixed
 *    time, rounds alternating the same way; CPU per call of each server process from /proc.
 *    Goals (issue 22): relay calls per second >= 5 x Portkey's and >= 0.7 x the bare relay's (the
 *    median over rounds of each ratio).
 *
 * Checks: the relay answers the same bytes as the provider, and writes one usage row per call.
 *
 * Knobs: BENCH_QUICK=1 (a fast smoke run), BENCH_WARMUP_SECONDS (per target and kind under load
 * before measuring, 2), BENCH_LATENCY_ROUNDS (5), BENCH_LATENCY_COUNT (calls per
 * target and round, 2000), BENCH_LATENCY_MAX_MS (time cap per target and round, 2500),
 * BENCH_LATENCY_WARMUP (calls per target and round, 200), BENCH_THROUGHPUT_ROUNDS (3),
 * BENCH_THROUGHPUT_SECONDS (3), BENCH_THROUGHPUT_WARMUP_MS (500), BENCH_CONNECTIONS (50),
 * BENCH_CHUNKS (text deltas per streamed reply, 8), BENCH_CHUNK_DELAY_MS (0: the fake writes a
 * stream at once), BENCH_RELAY_LOG_LEVEL (info, the production default), BENCH_DATABASE (pglite,
 * or postgres: the relay's database on a fresh schema of DATABASE_URL), BENCH_PORTKEY=0 (leave
 * Portkey out), BENCH_PROFILE=1 (CPU profiles of the relay during the latency and the throughput rounds,
 * summarised),
 * BENCH_RELAY_FROM (dist, the default: the relay process runs the broker's and the kit's compiled
 * dist/, built first with tsc -b, as `node services/broker/dist/main.js` does in production; source:
 * the TypeScript sources through tsx, whose esbuild transform keeps function names with a `__name`
 * wrapper that cost the relay a few per cent of its CPU in the profile),
 * BENCH_STRICT=1 (exit 1 when a goal is missed). Writes bench/results/broker.json
 * (broker-postgres.json with BENCH_DATABASE=postgres; a BENCH_QUICK run writes to the temporary
 * directory instead).
 */

const { num } = benchEnv;
const QUICK = process.env.BENCH_QUICK === '1';
const LAT_ROUNDS = num('BENCH_LATENCY_ROUNDS', QUICK ? 2 : 5);
const LAT_COUNT = num('BENCH_LATENCY_COUNT', QUICK ? 300 : 2000);
const LAT_MAX_MS = num('BENCH_LATENCY_MAX_MS', QUICK ? 600 : 2500);
const LAT_WARMUP = num('BENCH_LATENCY_WARMUP', QUICK ? 50 : 200);
const TP_ROUNDS = num('BENCH_THROUGHPUT_ROUNDS', QUICK ? 1 : 3);
const TP_SECONDS = num('BENCH_THROUGHPUT_SECONDS', QUICK ? 1 : 3);
const TP_WARMUP_MS = num('BENCH_THROUGHPUT_WARMUP_MS', QUICK ? 200 : 500);
const WARMUP_SECONDS = num('BENCH_WARMUP_SECONDS', QUICK ? 0.5 : 2);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const CHUNKS = num('BENCH_CHUNKS', 8);
const CHUNK_DELAY_MS = num('BENCH_CHUNK_DELAY_MS', 0);
const RELAY_LOG_LEVEL = process.env.BENCH_RELAY_LOG_LEVEL ?? 'info';
const DATABASE = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'pglite';
if (DATABASE === 'postgres' && !process.env.DATABASE_URL) throw new Error('BENCH_DATABASE=postgres needs DATABASE_URL');
const WITH_PORTKEY = process.env.BENCH_PORTKEY !== '0';
const PROFILE = process.env.BENCH_PROFILE === '1';
const RELAY_FROM = process.env.BENCH_RELAY_FROM === 'source' ? 'source' : 'dist';
const GOAL_ADDED_P50_MS = 0.5;
const GOAL_ADDED_P99_MS = 2.5;
const GOAL_THROUGHPUT_RATIO = 5;
const GOAL_BARE_RATIO = 0.7;

// The relay on PostgreSQL writes its own results file: the default run's stays as it is.
const run = new BenchRun(DATABASE === 'postgres' ? 'broker-postgres' : 'broker');
const { log, goal, row } = run;
const verdict = (name: string, ok: boolean) => (goal(name, ok) === 'met' ? 'PASS' : 'FAIL');

type Kind = 'plain' | 'streamed';
const KINDS: Kind[] = ['plain', 'streamed'];
const BODIES: Record<Kind, string> = { plain: chatBody(false), streamed: chatBody(true) };

// ---- the three processes ---------------------------------------------------------------------

const children: Child<unknown>[] = [];
const stopAll = () => {
  for (const c of children) c.kill();
};
process.once('exit', stopAll);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(code);
  });
}

const fake = await tsChild<{ baseUrl: string }>('fake provider', './fake-process.ts', [
  String(CHUNKS),
  String(CHUNK_DELAY_MS),
]);
children.push(fake);
if (RELAY_FROM === 'dist') {
  // The compiled broker and what it imports (tsc -b: only what changed since the last build).
  log('building the broker and the kit to dist/ (the relay runs from there, as in production)');
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-b',
      ...['packages/policies', 'packages/kit', 'services/broker'].map((d) => join(root, d, 'tsconfig.build.json')),
    ],
    { stdio: 'inherit' },
  );
}
const relay = await tsChild<{ url: string }>(
  'relay',
  './relay-process.ts',
  [fake.ready.baseUrl, RELAY_LOG_LEVEL, DATABASE, RELAY_FROM],
  [],
  RELAY_FROM === 'source',
);
children.push(relay);
const bare = await tsChild<{ url: string }>('bare relay', './bare-relay-process.ts', [
  fake.ready.baseUrl,
  PROVIDER_KEY,
  String(CONNECTIONS),
]);
children.push(bare);
let portkey: Child<{ port: number }> | undefined;
let portkeyNote = 'left out (BENCH_PORTKEY=0)';
if (WITH_PORTKEY) {
  const entry = portkeyEntry();
  if (!entry) portkeyNote = '@portkey-ai/gateway is not installed';
  else {
    try {
      portkey = await startPortkey(entry);
      children.push(portkey);
      portkeyNote = 'running';
    } catch (e) {
      portkeyNote = `did not start: ${(e as Error).message}`;
    }
  }
}
log(
  `fake provider ${fake.ready.baseUrl} (pid ${fake.pid}), relay ${relay.ready.url} (pid ${relay.pid}), bare relay ${bare.ready.url} (pid ${bare.pid}), portkey ${portkeyNote}${portkey ? ` (pid ${portkey.pid})` : ''}`,
);

const bearer = { authorization: `Bearer ${PROVIDER_KEY}` };
const targets: Target[] = [
  {
    name: 'direct',
    origin: new URL(fake.ready.baseUrl).origin,
    path: '/v1/chat/completions',
    headers: bearer,
    pid: fake.pid,
  },
  {
    name: 'relay',
    origin: relay.ready.url,
    path: '/v1/relay/chat/completions',
    headers: { 'x-dev-principal': BENCH_CALLER },
    pid: relay.pid,
  },
  { name: 'bare', origin: bare.ready.url, path: '/v1/relay/chat/completions', headers: {}, pid: bare.pid },
];
if (portkey) {
  targets.push({
    name: 'portkey',
    origin: `http://127.0.0.1:${portkey.ready.port}`,
    path: '/v1/chat/completions',
    headers: { ...bearer, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': fake.ready.baseUrl },
    pid: portkey.pid,
  });
}
const names = targets.map((t) => t.name);

/** One keep-alive connection per target for the latency client, a pool for the throughput loops. */
const single = new Map<TargetName, Dispatcher>(
  targets.map((t) => [t.name, new Client(t.origin, { pipelining: 1, keepAliveTimeout: 60_000 })]),
);
const pools = new Map<TargetName, Dispatcher>(
  targets.map((t) => [
    t.name,
    new Pool(t.origin, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 }),
  ]),
);
let relayCalls = 0;
const call = (d: Dispatcher, t: Target, kind: Kind) => {
  if (t.name === 'relay') relayCalls++;
  return chatCall(d, t, BODIES[kind], kind === 'streamed');
};

// ---- checks before measuring -----------------------------------------------------------------

const checks: Record<string, unknown> = {};
for (const kind of KINDS) {
  const answers = new Map<TargetName, Awaited<ReturnType<typeof chatBytes>>>();
  for (const t of targets) {
    if (t.name === 'relay') relayCalls++;
    const a = await chatBytes(single.get(t.name) as Dispatcher, t, BODIES[kind]);
    if (a.status !== 200) throw new Error(`${t.name} (${kind}): ${a.status} ${a.bytes.toString().slice(0, 500)}`);
    answers.set(t.name, a);
  }
  const direct = answers.get('direct') as Awaited<ReturnType<typeof chatBytes>>;
  const relayed = answers.get('relay') as Awaited<ReturnType<typeof chatBytes>>;
  const identical = direct.bytes.equals(relayed.bytes);
  checks[`${kind}_relay_bytes_identical_to_direct`] = identical;
  checks[`${kind}_reply_bytes`] = direct.bytes.length;
  checks[`${kind}_content_type`] = { direct: direct.contentType, relay: relayed.contentType };
  if (!identical) log(`warning: the relay's ${kind} answer differs from the provider's`);
}

// ---- warm-up: every target and kind under load first (JIT, pools, caches), not measured ------

for (const kind of KINDS) {
  for (const t of targets) {
    const d = pools.get(t.name) as Dispatcher;
    await timedLoop(CONNECTIONS, 0, WARMUP_SECONDS, () => call(d, t, kind));
  }
}

// ---- 1. latency: one call at a time ----------------------------------------------------------

interface LatencyFigures {
  samples: Record<string, number>;
  p50_ms: Record<string, number>;
  p99_ms: Record<string, number>;
  added_p50_ms: Record<string, number>;
  added_p99_ms: Record<string, number>;
}

async function latency(kind: Kind): Promise<LatencyFigures> {
  const rounds = new Map<TargetName, number[][]>(names.map((n) => [n, []]));
  for (let r = 0; r < LAT_ROUNDS; r++) {
    for (const t of targets) {
      const d = single.get(t.name) as Dispatcher;
      const one = () => call(d, t, kind);
      await sequentialLatencies(one, LAT_WARMUP, LAT_MAX_MS);
      rounds.get(t.name)?.push(await sequentialLatencies(one, LAT_COUNT, LAT_MAX_MS));
    }
  }
  const direct = rounds.get('direct') as number[][];
  const f: LatencyFigures = { samples: {}, p50_ms: {}, p99_ms: {}, added_p50_ms: {}, added_p99_ms: {} };
  for (const n of names) {
    const rs = rounds.get(n) as number[][];
    const all = rs.flat();
    f.samples[n] = all.length;
    f.p50_ms[n] = round(median(all), 3);
    f.p99_ms[n] = round(quantile(all, 0.99), 3);
    if (n === 'direct') continue;
    f.added_p50_ms[n] = round(median(rs.map((x, i) => median(x) - median(direct[i] as number[]))), 3);
    f.added_p99_ms[n] = round(median(rs.map((x, i) => quantile(x, 0.99) - quantile(direct[i] as number[], 0.99))), 3);
  }
  return f;
}

// ---- 2. throughput: N connections for a fixed time -------------------------------------------

interface ThroughputFigures {
  per_second: Record<string, number>;
  p50_ms: Record<string, number>;
  p99_ms: Record<string, number>;
  /** CPU per call of the server process behind each target, and of the client (this process). */
  server_cpu_us_per_call: Record<string, number>;
  client_cpu_us_per_call: Record<string, number>;
  relay_to_portkey?: number;
  relay_to_direct: number;
  relay_to_bare: number;
}

async function throughput(kind: Kind): Promise<ThroughputFigures> {
  const results = new Map<TargetName, LoadResult[]>(names.map((n) => [n, []]));
  const cpu = new Map<TargetName, { ms: number; calls: number }>(names.map((n) => [n, { ms: 0, calls: 0 }]));
  for (let r = 0; r < TP_ROUNDS; r++) {
    for (const t of targets) {
      const d = pools.get(t.name) as Dispatcher;
      const one = () => call(d, t, kind);
      await timedLoop(CONNECTIONS, 0, TP_WARMUP_MS / 1000, one);
      const before = processCpuMs(t.pid);
      const res = await timedLoop(CONNECTIONS, 0, TP_SECONDS, one);
      const after = processCpuMs(t.pid);
      results.get(t.name)?.push(res);
      const c = cpu.get(t.name) as { ms: number; calls: number };
      if (before !== undefined && after !== undefined) c.ms += after - before;
      c.calls += res.count;
    }
  }
  const ratio = (a: TargetName, b: TargetName) => {
    const ra = results.get(a) as LoadResult[];
    const rb = results.get(b) as LoadResult[];
    return round(median(ra.map((x, i) => x.perSecond / (rb[i] as LoadResult).perSecond)), 3);
  };
  const f: ThroughputFigures = {
    per_second: {},
    p50_ms: {},
    p99_ms: {},
    server_cpu_us_per_call: {},
    client_cpu_us_per_call: {},
    relay_to_direct: ratio('relay', 'direct'),
    relay_to_bare: ratio('relay', 'bare'),
    ...(portkey ? { relay_to_portkey: ratio('relay', 'portkey') } : {}),
  };
  for (const n of names) {
    const m = mergeRounds(results.get(n) as LoadResult[]);
    f.per_second[n] = round(m.perSecond, 0);
    f.p50_ms[n] = round(median(m.latenciesMs), 2);
    f.p99_ms[n] = round(quantile(m.latenciesMs, 0.99), 2);
    const c = cpu.get(n) as { ms: number; calls: number };
    f.server_cpu_us_per_call[n] = round((c.ms * 1000) / Math.max(1, c.calls), 1);
    f.client_cpu_us_per_call[n] = round(m.cpuMsPerOp * 1000, 1);
  }
  return f;
}

// ---- the run ---------------------------------------------------------------------------------

/** The relay process's event-loop delay and GC pauses over a phase. */
interface RelayStats {
  event_loop_delay_ms: { p50: number; p99: number; max: number };
  gc: { count: number; total_ms: number; max_ms: number };
  usage_flushes: { count: number; rows: number; total_ms: number; max_ms: number };
}
const relayStats = () => relay.ask<RelayStats>({ type: 'stats' });

const figures: Record<
  Kind,
  {
    latency?: LatencyFigures;
    throughput?: ThroughputFigures;
    relay_process_during_latency?: RelayStats;
    relay_process_during_throughput?: RelayStats;
  }
> = { plain: {}, streamed: {} };
const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'broker-bench-profile-')) : '';
const profiles: Record<string, ProfileSummary> = {};

/** Runs a phase; with BENCH_PROFILE=1 under a CPU profile of the relay, summarised per relay call. */
async function phase(name: 'latency' | 'throughput', work: () => Promise<void>) {
  const callsBefore = relayCalls;
  const file = join(profileDir, `relay-${name}.cpuprofile`);
  if (PROFILE) await relay.ask({ type: 'profile-start' });
  await work();
  if (!PROFILE) return;
  await relay.ask({ type: 'profile-stop', file });
  const summary = summarizeProfile(file, relayCalls - callsBefore);
  profiles[name] = summary;
  log(`relay CPU profile of the ${name} rounds: ${file}`);
  for (const line of formatProfile(summary)) console.error(`  ${line}`);
}

await phase('latency', async () => {
  for (const kind of KINDS) {
    log(`latency, ${kind}: ${LAT_ROUNDS} rounds of up to ${LAT_COUNT} calls per target`);
    await relayStats();
    figures[kind].latency = await latency(kind);
    figures[kind].relay_process_during_latency = await relayStats();
  }
});
await phase('throughput', async () => {
  for (const kind of KINDS) {
    log(`throughput, ${kind}: ${TP_ROUNDS} rounds of ${TP_SECONDS} s per target, ${CONNECTIONS} connections`);
    await relayStats();
    figures[kind].throughput = await throughput(kind);
    figures[kind].relay_process_during_throughput = await relayStats();
  }
});

log('closing: the relay flushes its usage rows');
for (const d of [...single.values(), ...pools.values()]) await d.close();
const { usage_rows: usageRows } = await relay.ask<{ usage_rows: number }>({ type: 'stop' });
fake.process.send('stop');
bare.process.send('stop');
await Promise.all([relay.exited, fake.exited, bare.exited]);
stopAll();
checks.relay_calls = relayCalls;
checks.usage_rows_written = usageRows;

// ---- the table -------------------------------------------------------------------------------

const ms = (x: number | undefined) => (x === undefined ? '-' : `${x} ms`);
for (const kind of KINDS) {
  const l = figures[kind].latency as LatencyFigures;
  const t = figures[kind].throughput as ThroughputFigures;
  run.section(kind);
  for (const n of names) {
    row(`latency p50 / p99, ${n} (${l.samples[n]} calls)`, `${ms(l.p50_ms[n])} / ${ms(l.p99_ms[n])}`);
  }
  row(
    'relay added latency p50',
    ms(l.added_p50_ms.relay),
    `< ${GOAL_ADDED_P50_MS} ms`,
    verdict(`${kind} added p50`, (l.added_p50_ms.relay as number) < GOAL_ADDED_P50_MS),
  );
  row(
    'relay added latency p99',
    ms(l.added_p99_ms.relay),
    `< ${GOAL_ADDED_P99_MS} ms`,
    verdict(`${kind} added p99`, (l.added_p99_ms.relay as number) < GOAL_ADDED_P99_MS),
  );
  if (portkey) row('portkey added latency p50 / p99', `${ms(l.added_p50_ms.portkey)} / ${ms(l.added_p99_ms.portkey)}`);
  const rs = figures[kind].relay_process_during_latency as RelayStats;
  row(
    '  relay process: event-loop delay p99 / max, GC pauses',
    `${ms(rs.event_loop_delay_ms.p99)} / ${ms(rs.event_loop_delay_ms.max)}`,
    '',
    `GC ${rs.gc.count} pauses, ${rs.gc.total_ms} ms in all, longest ${rs.gc.max_ms} ms`,
  );
  const uf = rs.usage_flushes;
  row(
    '  relay process: usage batch writes, longest',
    ms(uf.max_ms),
    '',
    `${uf.count} batches of ${round(uf.rows / Math.max(1, uf.count), 0)} rows, ${uf.total_ms} ms in all`,
  );
  for (const n of names) {
    row(
      `throughput, ${n}`,
      `${t.per_second[n]}/s`,
      '',
      `server CPU ${t.server_cpu_us_per_call[n]} µs/call, p50 ${ms(t.p50_ms[n])}`,
    );
  }
  if (portkey) {
    row(
      'relay / portkey throughput',
      String(t.relay_to_portkey),
      `>= ${GOAL_THROUGHPUT_RATIO}`,
      verdict(
        `${kind} throughput >= ${GOAL_THROUGHPUT_RATIO} x portkey`,
        (t.relay_to_portkey as number) >= GOAL_THROUGHPUT_RATIO,
      ),
    );
  } else {
    row('relay / portkey throughput', '-', `>= ${GOAL_THROUGHPUT_RATIO}`, `not measured: Portkey ${portkeyNote}`);
  }
  row(
    'relay / bare relay throughput',
    String(t.relay_to_bare),
    `>= ${GOAL_BARE_RATIO}`,
    verdict(`${kind} throughput >= ${GOAL_BARE_RATIO} x bare relay`, t.relay_to_bare >= GOAL_BARE_RATIO),
  );
  row('relay / direct throughput', String(t.relay_to_direct));
}
run.section('checks');
row(
  'relay bytes identical to direct (plain, streamed)',
  `${checks.plain_relay_bytes_identical_to_direct}, ${checks.streamed_relay_bytes_identical_to_direct}`,
);
row(
  'usage rows written / relay calls',
  `${usageRows} / ${relayCalls}`,
  '',
  usageRows === relayCalls ? 'one per call' : 'MISMATCH',
);

// A smoke run's figures are not the bench's: they go to the temporary directory.
run.finish(
  QUICK ? pathToFileURL(`${tmpdir()}/`) : new URL('./results/', import.meta.url),
  {
    settings: {
      quick: QUICK,
      warmup_seconds: WARMUP_SECONDS,
      model: BENCH_MODEL.wire_id,
      latency: { rounds: LAT_ROUNDS, count: LAT_COUNT, max_ms: LAT_MAX_MS, warmup_calls: LAT_WARMUP },
      throughput: { rounds: TP_ROUNDS, seconds: TP_SECONDS, warmup_ms: TP_WARMUP_MS, connections: CONNECTIONS },
      stream: { chunks: CHUNKS, chunk_delay_ms: CHUNK_DELAY_MS },
      relay_log_level: RELAY_LOG_LEVEL,
      relay_database: DATABASE,
      relay_code: RELAY_FROM,
      portkey: portkeyNote,
      profiled: PROFILE,
    },
    goals: {
      added_p50_ms_below: GOAL_ADDED_P50_MS,
      added_p99_ms_below: GOAL_ADDED_P99_MS,
      relay_to_portkey_throughput_at_least: GOAL_THROUGHPUT_RATIO,
      relay_to_bare_throughput_at_least: GOAL_BARE_RATIO,
    },
    checks,
    ...figures,
    ...(PROFILE ? { relay_profiles: profiles } : {}),
  },
  `relay on ${DATABASE} from ${RELAY_FROM === 'dist' ? 'dist/' : 'the sources (tsx)'}, log level ${RELAY_LOG_LEVEL}${PROFILE ? ', relay profiled' : ''}${QUICK ? ', quick smoke run (few calls: not the figures for the goals)' : ''}`,
);
