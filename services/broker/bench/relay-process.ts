import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { BenchKind } from '@platform/kit/testing';
import { sql } from 'kysely';
import type { DB } from '../src/store/db.ts';
import { benchCatalog, PROVIDER_KEY } from './lib.ts';

/**
 * The broker as it runs in production (the app, its authenticator chain, its budget gate, router
 * and usage recorder, its log level), in its own process on a fresh database (in-memory PGlite,
 * or a fresh schema on DATABASE_URL), with the openai provider pointed at the bench's fake.
 * DEV_AUTH signs the bench caller in by X-Dev-Principal. argv: the fake's base URL, the log
 * level, the database kind (pglite or postgres).
 *
 * Messages: {type: 'stats'} answers how the event loop, the garbage collector and the usage
 * recorder's writes fared since the last time asked (what lengthens the slowest calls); {type: 'profile-start'} and
 * {type: 'profile-stop', file} take a CPU profile of the calls in between (V8's sampler, 100 µs)
 * and write it to `file`; {type: 'stop'} closes the app (the usage recorder flushes), answers
 * {usage_rows} and exits.
 *
 * The broker's code is loaded as production runs it (argv[4] `dist`, the default: the compiled
 * dist/ of the broker and the kit, which bench/run.ts builds first, the child started without the
 * `source` condition), or from the TypeScript sources through tsx (`source`), whose esbuild
 * transform wraps every named function in a `__name` helper that costs the hot path a few per cent.
 */
const [providerBase = '', logLevel = 'info', kind = 'pglite', from = 'dist'] = process.argv.slice(2);
const load = <M>(module: string): Promise<M> =>
  import(new URL(from === 'source' ? `../src/${module}.ts` : `../dist/${module}.js`, import.meta.url).href);
// The kit resolves to its sources or its dist/ by the child's `source` condition, as the broker's own imports do.
const { benchDatabase } = await import('@platform/kit/testing');
const { buildApp } = await load<typeof import('../src/app.ts')>('app');
const { brokerAuthenticator } = await load<typeof import('../src/auth.ts')>('auth');
const { brokerConfig, providerEndpoints } = await load<typeof import('../src/config.ts')>('config');
const { MIGRATIONS } = await load<typeof import('../src/migrations.ts')>('migrations');
const { Budgets } = await load<typeof import('../src/relay/budget-gate.ts')>('relay/budget-gate');
const { openUsageJournal, UsageRecorder, usageSliceMs, usageSliceRows, usageSyncCommit, writeCalls } =
  await load<typeof import('../src/relay/usage-recorder.ts')>('relay/usage-recorder');
const config = brokerConfig({
  DEV_AUTH: '1',
  HOST: '127.0.0.1',
  LOG_LEVEL: logLevel,
  OPENAI_BASE_URL: providerBase,
  OPENAI_API_KEY: PROVIDER_KEY,
  // The bench's own environment may ask for WAL-flushed usage writes (to measure what they cost).
  BROKER_USAGE_SYNC_COMMIT: process.env.BROKER_USAGE_SYNC_COMMIT,
  // On by default, as in a started broker; BROKER_USAGE_JOURNAL=0 measures waiting for the commit.
  BROKER_USAGE_JOURNAL: process.env.BROKER_USAGE_JOURNAL,
});
const bench = await benchDatabase<DB>('broker', MIGRATIONS, kind as BenchKind);
const catalog = benchCatalog();
const db = bench.database.db;
// The budget gate and usage recorder buildApp would make, made here so that each batch write of
// the recorder (each slice of one, on PGlite) is timed (the recorder's own write, wrapped).
const budgets = new Budgets(db, config.BROKER_BUDGET_CACHE_MS);
const flushes: { ms: number; rows: number }[] = [];
// A started broker's journal is in its data folder; the bench's, in a folder of its own.
const journalDir = config.BROKER_USAGE_JOURNAL ? mkdtempSync(join(tmpdir(), 'bench-usage-journal-')) : undefined;
const journal = journalDir ? (await openUsageJournal(db, journalDir)).journal : undefined;
process.on('exit', () => journalDir && rmSync(journalDir, { recursive: true, force: true }));
const usage = new UsageRecorder(db, budgets, {
  journal,
  log: () => app.log,
  syncCommit: usageSyncCommit(bench.database.kind, config.BROKER_USAGE_SYNC_COMMIT),
  sliceRows: usageSliceRows(bench.database.kind),
  sliceMs: usageSliceMs(bench.database.kind),
  write: async (into, calls, syncCommit) => {
    const s = performance.now();
    await writeCalls(into, calls, syncCommit);
    flushes.push({ ms: performance.now() - s, rows: calls.length });
  },
});
const app = await buildApp({
  database: bench.database,
  budgets,
  usage,
  authenticator: brokerAuthenticator(config),
  catalog,
  endpoints: providerEndpoints(catalog, config.env),
  budgetCacheMs: config.BROKER_BUDGET_CACHE_MS,
  relay: {
    anthropicVersion: config.ANTHROPIC_VERSION,
    connectTimeoutMs: config.BROKER_UPSTREAM_CONNECT_MS,
    headersTimeoutMs: config.BROKER_UPSTREAM_HEADERS_MS,
  },
  logLevel: config.LOG_LEVEL,
});
await app.listen({ host: config.HOST, port: 0 });
const { port } = app.server.address() as { port: number };
process.send?.({ url: `http://${config.HOST}:${port}` });

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const gc = { count: 0, ms: 0, max_ms: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    gc.ms += e.duration;
    gc.max_ms = Math.max(gc.max_ms, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/**
 * Event-loop delay (how late a 1 ms timer fired), GC pauses and the usage recorder's batch writes
 * (wall time of each) since the last call; then resets.
 */
function stats() {
  const out = {
    event_loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    gc: { count: gc.count, total_ms: Math.round(gc.ms * 10) / 10, max_ms: Math.round(gc.max_ms * 100) / 100 },
    usage_flushes: {
      count: flushes.length,
      rows: flushes.reduce((a, f) => a + f.rows, 0),
      total_ms: Math.round(flushes.reduce((a, f) => a + f.ms, 0) * 10) / 10,
      max_ms: Math.round(Math.max(0, ...flushes.map((f) => f.ms)) * 100) / 100,
    },
  };
  flushes.length = 0;
  loop.reset();
  Object.assign(gc, { count: 0, ms: 0, max_ms: 0 });
  return out;
}

let session: Session | undefined;

type Message =
  | { type: 'stats' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'stop' };

process.on('message', async (m: Message) => {
  if (m.type === 'stats') {
    process.send?.(stats());
  } else if (m.type === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send?.({ ok: true });
  } else if (m.type === 'profile-stop') {
    const { profile } = (await session?.post('Profiler.stop')) ?? {};
    session?.disconnect();
    writeFileSync(m.file, JSON.stringify(profile));
    process.send?.({ ok: true });
  } else {
    await app.close();
    const r = await sql<{ n: string }>`SELECT count(*) AS n FROM usage_events`.execute(bench.database.db);
    const usageRows = Number(r.rows[0]?.n ?? 0);
    await bench.drop();
    process.send?.({ usage_rows: usageRows }, () => process.exit(0));
  }
});
