import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  type BenchKind,
  BenchRun,
  benchDatabase,
  closedLoop,
  fmt,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { Pool } from 'undici';
import { httpPropertyConnector } from '../src/clients/property-management.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { FakeConnector } from '../test/fakes/pm-connector.ts';
import { seedAgents, startServer } from './lib.ts';

/**
 * The property-management read benchmark: a cached list_move_ins (POST /v1/agents/{id}/move-ins,
 * the harness's service token with X-Platform-Agent-Id, answered from pm_cache: the caller's role
 * on the agent and one cache read, no connector call; the answer's data bytes kept with the cached
 * copy, reply.envelopeCached) against GET /healthz sent with the same
 * headers (the same authentication, no database). Goal: requests per second, move-ins / healthz
 * >= 0.5.
 *
 * The property has BENCH_PM_RESIDENTS (50) incoming residents on a fake connector (the contract in
 * docs/decisions.md), read once before the rounds; every measured answer is checked (200, that
 * many rows) and the connector must see no further read. Requests come from keep-alive clients in
 * a worker thread, so the client's CPU does not share the server's event loop; rounds alternate
 * sides and the ratio is the median of the rounds'. Nine short rounds and a two-second warm-up per
 * side: the first rounds of a shorter run still ran the move-ins path's first compilations, and on
 * this shared 2-core machine healthz alone swings 2x between rounds, so a median of three moved by
 * 0.2 from run to run. Knobs: BENCH_PM_CLIENTS (8), BENCH_PM_COUNT (requests per side and round,
 * 3000), BENCH_PM_ROUNDS (9), BENCH_PM_WARMUP_MS (2000).
 *
 * `bench/run.ts` calls `pmBench({kind, run})` per database kind; `npx tsx --conditions=source
 * bench/pm.ts` (from services/agents) runs it alone (BENCH_PM_KINDS=pglite,postgres picks),
 * writing bench/results/agents-pm.json.
 */

export const GOAL_PM_RATIO_MIN = 0.5;
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

export interface PmBenchOptions {
  kind: BenchKind;
  run: BenchRun;
  clients?: number;
  count?: number;
  rounds?: number;
  warmupMs?: number;
  residents?: number;
}

/** One side's load: the same request again and again, each answer read and checked. */
interface RequestLoad {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The rows a 200 answer must hold (payload.data's length); undefined: any 200. */
  rows?: number;
  clients: number;
  warmupMs: number;
  count: number;
}

async function requestLoad(o: RequestLoad): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  const headers = o.body === undefined ? o.headers : { ...o.headers, 'content-type': 'application/json' };
  const one = async () => {
    const res = await pool.request({ method: o.method, path: o.path, headers, body: o.body });
    const text = await res.body.text();
    const ok =
      res.statusCode === 200 &&
      (o.rows === undefined || (JSON.parse(text) as { payload: { data: unknown[] } }).payload.data.length === o.rows);
    if (!ok) throw new Error(`${o.method} ${o.path}: ${res.statusCode} ${text.slice(0, 300)}`);
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/** The client side's worker thread (tsx registered in it), one load at a time. */
class RequestLoadWorker {
  private readonly worker: Worker;
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;
  constructor() {
    const file = new URL(import.meta.url).href;
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: { pmRequestWorker: true } });
    this.worker.on('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(m.error));
    });
    this.worker.on('error', (e) => this.pending?.reject(e));
  }
  run(o: RequestLoad): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(o);
    });
  }
  close = () => this.worker.terminate();
}

if (!isMainThread && workerData?.pmRequestWorker) {
  parentPort?.on('message', (o: RequestLoad) => {
    requestLoad(o).then(
      (result) => parentPort?.postMessage({ ok: true, result }),
      (e: Error) => parentPort?.postMessage({ ok: false, error: String(e?.stack ?? e) }),
    );
  });
}

const summary = (r: LoadResult) => ({
  requests: r.count,
  seconds: round(r.seconds, 3),
  per_second: round(r.perSecond, 1),
  latency_ms: { p50: round(median(r.latenciesMs)), p95: round(quantile(r.latenciesMs, 0.95)) },
});

const TOKEN = 'pm-bench-connector-token';
const PROPERTY = 'BENCH-PROPERTY';

/**
 * Runs the benchmark on one kind of database (its own fresh database, server and fake connector),
 * adds its rows to `run`'s table and returns its results for the results file.
 */
export async function pmBench(opts: PmBenchOptions): Promise<Record<string, unknown>> {
  const { kind, run } = opts;
  const clients = opts.clients ?? num('BENCH_PM_CLIENTS', 8);
  const count = opts.count ?? num('BENCH_PM_COUNT', 3000);
  const rounds = opts.rounds ?? num('BENCH_PM_ROUNDS', 9);
  const warmupMs = opts.warmupMs ?? num('BENCH_PM_WARMUP_MS', 2000);
  const residents = opts.residents ?? num('BENCH_PM_RESIDENTS', 50);

  const connector = await new FakeConnector(TOKEN).start();
  connector.property(PROPERTY).moveIns = Array.from({ length: residents }, (_, i) => ({
    resident_code: `R${i}`,
    unit_code: `U${i}`,
    lease_code: `L${i}`,
    move_in_date: '2026-03-15',
    first_name: `First${i}`,
    last_name: `Last${i}`,
    email: i % 7 === 0 ? null : `resident${i % 40}@example.com`,
    phone: `617555${String(1000 + i).slice(-4)}`,
  }));
  const bench = await benchDatabase<DB>('agents', MIGRATIONS, kind);
  // The cache window is 30 minutes of the server's clock: the real one here, the rounds take less.
  const server = await startServer(bench.database, {
    propertyConnector: httpPropertyConnector({ baseUrl: connector.url, token: TOKEN, timeoutMs: 5_000 }),
  });
  const worker = new RequestLoadWorker();
  try {
    const [agentId] = await seedAgents(bench.database.db, 1, 'pm');
    const headers = server.service(agentId);
    const moveIns: Omit<RequestLoad, 'clients' | 'warmupMs' | 'count'> = {
      url: server.url,
      method: 'POST',
      path: `/v1/agents/${agentId}/move-ins`,
      headers,
      body: JSON.stringify({ data: { property_code: PROPERTY } }),
      rows: residents,
    };
    const healthz: Omit<RequestLoad, 'clients' | 'warmupMs' | 'count'> = {
      url: server.url,
      method: 'GET',
      path: '/healthz',
      headers,
    };
    // The first read fills the cache; every measured one is answered from it.
    await worker.run({ ...moveIns, clients: 1, warmupMs: 0, count: 1 });
    const reads = connector.seen('GET').length;
    const cached: LoadResult[] = [];
    const health: LoadResult[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const c = await worker.run({ ...moveIns, clients, warmupMs, count });
      const h = await worker.run({ ...healthz, clients, warmupMs, count });
      cached.push(c);
      health.push(h);
      ratios.push(c.perSecond / h.perSecond);
      run.log(
        `${kind} pm round ${r + 1}: cached move-ins ${fmt(c.perSecond)}/s, healthz ${fmt(h.perSecond)}/s, ratio ${round(c.perSecond / h.perSecond)}`,
      );
    }
    if (connector.seen('GET').length !== reads) throw new Error('a measured move-ins read reached the connector');
    const cs = mergeRounds(cached);
    const hs = mergeRounds(health);
    const ratio = median(ratios);
    const ok = ratio >= GOAL_PM_RATIO_MIN;
    run.row(`cached list_move_ins /s (${residents} residents)`, fmt(cs.perSecond));
    run.row('GET /healthz /s (same auth headers)', fmt(hs.perSecond));
    run.row(
      '  move-ins / healthz',
      fmt(ratio, 2),
      `>= ${GOAL_PM_RATIO_MIN}`,
      run.goal('cached move-ins against healthz', ok),
    );
    return {
      knobs: { clients, count, rounds, warmup_ms: warmupMs, residents },
      cached_move_ins: summary(cs),
      healthz: summary(hs),
      ratios: ratios.map((x) => round(x)),
      ratio: round(ratio),
      goal_min: GOAL_PM_RATIO_MIN,
      met: ok,
    };
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
    await connector.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const run = new BenchRun('agents-pm');
  const results: Record<string, unknown> = {};
  const kinds = (process.env.BENCH_PM_KINDS?.split(',') ?? [
    'pglite',
    ...(process.env.DATABASE_URL ? ['postgres'] : []),
  ]) as BenchKind[];
  for (const kind of kinds) {
    run.section(kind);
    results[kind] = await pmBench({ kind, run });
  }
  run.finish(new URL('./results/', import.meta.url), { pm: results });
}
