import { randomUUID } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  type BenchKind,
  type BenchRun,
  benchDatabase,
  closedLoop,
  fmt,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';
import { seedAgents, startServer } from './lib.ts';

/**
 * The log benchmark: log lines posted per second through POST /v1/agents/{id}/logs (the harness's
 * shared service token, a fresh Idempotency-Key each) against raw SQL writing the same rows
 * through the same driver: per line, one transaction inserting the line and setting the agent's
 * last_heartbeat_at, as the route must (each line is its own commit on both sides; the route also
 * stores its Idempotency-Key). Goal: HTTP / raw >= 0.5.
 *
 * HTTP posts come from keep-alive clients in a worker thread, so the client's own CPU does not share
 * the server's event loop; rounds alternate between the two sides and the ratio is the median of
 * the rounds' ratios. The lines are spread over BENCH_LOG_AGENTS agents (the route locks an agent's
 * row for its heartbeat, as many harnesses posting at once would).
 *
 * `bench/run.ts` calls `logsBench({kind, run})` per database kind and puts the answer in the results
 * file. Knobs (environment, or the options): BENCH_LOG_CLIENTS (8), BENCH_LOG_COUNT (lines per side
 * and round, 2000), BENCH_LOG_ROUNDS (3), BENCH_LOG_WARMUP_MS (1000), BENCH_LOG_AGENTS (8).
 */

export const GOAL_LOGS_RATIO_MIN = 0.5;
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

export interface LogsBenchOptions {
  kind: BenchKind;
  run: BenchRun;
  clients?: number;
  count?: number;
  rounds?: number;
  warmupMs?: number;
  agents?: number;
}

/** What the worker thread is asked to post. */
interface PostLoad {
  url: string;
  /** The service token's headers. */
  headers: Record<string, string>;
  agentIds: string[];
  clients: number;
  warmupMs: number;
  count: number;
}

const lineOf = (n: number) => ({ kind: n % 10 === 0 ? 'info' : 'heartbeat', message: `bench line ${n}` });

/** Posts log lines from `clients` keep-alive loops, each answer read and checked. */
async function postLoad(o: PostLoad): Promise<LoadResult> {
  const pool = new Pool(o.url, { connections: o.clients, pipelining: 1, keepAliveTimeout: 60_000 });
  let n = 0;
  const one = async () => {
    const i = n++;
    const agentId = o.agentIds[i % o.agentIds.length] as string;
    const res = await pool.request({
      method: 'POST',
      path: `/v1/agents/${agentId}/logs`,
      headers: {
        ...o.headers,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ data: lineOf(i) }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`POST logs: ${res.statusCode} ${text.slice(0, 300)}`);
  };
  try {
    return await closedLoop(o.clients, o.warmupMs, o.count, one);
  } finally {
    await pool.close();
  }
}

/** The HTTP side's worker thread (tsx registered in it), one load at a time. */
class PostLoadWorker {
  private readonly worker: Worker;
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;
  constructor() {
    const file = new URL(import.meta.url).href;
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: { logsPostWorker: true } });
    this.worker.on('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(m.error));
    });
    this.worker.on('error', (e) => this.pending?.reject(e));
  }
  run(o: PostLoad): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(o);
    });
  }
  close = () => this.worker.terminate();
}

if (!isMainThread && workerData?.logsPostWorker) {
  parentPort?.on('message', (o: PostLoad) => {
    postLoad(o).then(
      (result) => parentPort?.postMessage({ ok: true, result }),
      (e: Error) => parentPort?.postMessage({ ok: false, error: String(e?.stack ?? e) }),
    );
  });
}

/** The raw side: per line, the line and the heartbeat in one transaction, as the route writes them. */
async function rawLoad(db: Db, agentIds: string[], o: { clients: number; warmupMs: number; count: number }) {
  let n = 0;
  return closedLoop(o.clients, o.warmupMs, o.count, async () => {
    const i = n++;
    const agentId = agentIds[i % agentIds.length] as string;
    const line = lineOf(i);
    const at = new Date();
    await db.transaction().execute(async (trx) => {
      await sql`INSERT INTO agent_logs (agent_id, kind, message, created_at)
        VALUES (${agentId}, ${line.kind}, ${line.message}, ${at})`.execute(trx);
      await sql`UPDATE agents SET last_heartbeat_at = ${at} WHERE id = ${agentId}`.execute(trx);
    });
  });
}

const summary = (r: LoadResult) => ({
  lines: r.count,
  seconds: round(r.seconds, 3),
  per_second: round(r.perSecond, 1),
  latency_ms: { p50: round(median(r.latenciesMs)), p95: round(quantile(r.latenciesMs, 0.95)) },
});

/**
 * Runs the log benchmark on one kind of database (its own fresh database and server), adds its
 * rows to `run`'s table and returns its results for the results file.
 */
export async function logsBench(opts: LogsBenchOptions): Promise<Record<string, unknown>> {
  const { kind, run } = opts;
  const clients = opts.clients ?? num('BENCH_LOG_CLIENTS', 8);
  const count = opts.count ?? num('BENCH_LOG_COUNT', 2000);
  const rounds = opts.rounds ?? num('BENCH_LOG_ROUNDS', 3);
  const warmupMs = opts.warmupMs ?? num('BENCH_LOG_WARMUP_MS', 1000);
  const agentCount = opts.agents ?? num('BENCH_LOG_AGENTS', 8);

  const bench = await benchDatabase<DB>('agents', MIGRATIONS, kind);
  const db = bench.database.db;
  const server = await startServer(bench.database);
  const worker = new PostLoadWorker();
  try {
    const agentIds = await seedAgents(db, agentCount, 'bench');
    const https: LoadResult[] = [];
    const raws: LoadResult[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const http = await worker.run({ url: server.url, headers: server.service(), agentIds, clients, warmupMs, count });
      const raw = await rawLoad(db, agentIds, { clients, warmupMs, count });
      https.push(http);
      raws.push(raw);
      ratios.push(http.perSecond / raw.perSecond);
      run.log(
        `${kind} logs round ${r + 1}: HTTP ${fmt(http.perSecond)}/s, raw ${fmt(raw.perSecond)}/s, ratio ${round(http.perSecond / raw.perSecond)}`,
      );
    }
    const hs = mergeRounds(https);
    const rs = mergeRounds(raws);
    const ratio = median(ratios);
    // Every posted line is stored and every agent's heartbeat set.
    const stored = await sql<{ lines: number; beating: number }>`
      SELECT (SELECT count(*)::int FROM agent_logs) AS lines,
             (SELECT count(*)::int FROM agents WHERE last_heartbeat_at IS NOT NULL) AS beating`.execute(db);
    const ok = ratio >= GOAL_LOGS_RATIO_MIN;
    run.row('log lines posted /s (HTTP)', fmt(hs.perSecond));
    run.row('log lines inserted /s (raw SQL, same rows)', fmt(rs.perSecond));
    run.row('  HTTP / raw SQL', fmt(ratio, 2), `>= ${GOAL_LOGS_RATIO_MIN}`, run.goal('log lines against raw SQL', ok));
    return {
      knobs: { clients, count, rounds, warmup_ms: warmupMs, agents: agentCount },
      http: summary(hs),
      raw_sql: summary(rs),
      ratios: ratios.map((x) => round(x)),
      ratio: round(ratio),
      goal_min: GOAL_LOGS_RATIO_MIN,
      met: ok,
      stored: stored.rows[0],
    };
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
  }
}
