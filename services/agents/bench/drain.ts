import { pathToFileURL } from 'node:url';
import {
  type BenchKind,
  BenchRun,
  benchDatabase,
  closedLoop,
  fmt,
  GetLoadWorker,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { sql } from 'kysely';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';
import { drainInbox } from '../src/store/inbox.ts';
import { seedAgents, startServer } from './lib.ts';

/**
 * The drain benchmark: BENCH_DRAIN_WAKES (10,000) waiting wakes handed out through GET
 * /v1/agents/{id}/inbox (the harness's shared service token) against the same claim in raw SQL
 * (store/inbox.ts drainInbox: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)
 * RETURNING) through the same driver. Goal: wakes drained per second, HTTP / raw >= 0.5.
 *
 * The wakes are spread over BENCH_DRAIN_AGENTS (8) agents, drained by as many concurrent
 * keep-alive clients (a harness per agent), BENCH_DRAIN_LIMIT (20, the route's default) per
 * drain; every drain must hand out exactly that many, so the work on both sides is the same. HTTP
 * drains come from a worker thread, so the client's own CPU does not share the server's event
 * loop. Each round seeds the wakes anew for each side; rounds alternate sides and the ratio is
 * the median of the rounds' ratios; one smaller round before them warms both sides up.
 *
 * `bench/run.ts` calls `drainBench({kind, run})` per database kind; `npx tsx --conditions=source
 * bench/drain.ts` (from services/agents) runs it alone on PGlite, and on PostgreSQL too when
 * DATABASE_URL is set (BENCH_DRAIN_KINDS=pglite,postgres picks), writing bench/results/agents-drain.json.
 */

export const GOAL_DRAIN_RATIO_MIN = 0.5;
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

export interface DrainBenchOptions {
  kind: BenchKind;
  run: BenchRun;
  wakes?: number;
  agents?: number;
  limit?: number;
  rounds?: number;
}

/** `perAgent` waiting wakes for each agent, as POST .../wake would have queued them. */
async function seedWakes(db: Db, agentIds: string[], perAgent: number) {
  for (const id of agentIds) {
    await sql`INSERT INTO agent_inbox (id, agent_id, reason, ref, wake_key, queued_by, queued_at)
      SELECT gen_random_uuid(), ${id}, 'comms', 'm' || i, 'ref:comms:' || gen_random_uuid(), 'service:platform', now()
      FROM generate_series(1, ${perAgent}) AS i`.execute(db);
  }
}

const waiting = async (db: Db) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM agent_inbox WHERE drained_at IS NULL`.execute(db)).rows[0]
    ?.n ?? 0;

/** The raw side: the same claim, `limit` at a time, by as many concurrent loops as agents, each drain checked. */
function rawDrain(db: Db, agentIds: string[], limit: number, drains: number) {
  let n = 0;
  return closedLoop(agentIds.length, 0, drains, async () => {
    const id = agentIds[n++ % agentIds.length] as string;
    const rows = await drainInbox(db, id, limit, new Date());
    if (rows.length !== limit) throw new Error(`raw drain of ${id}: ${rows.length} wakes, not ${limit}`);
  });
}

const summary = (r: LoadResult, limit: number) => ({
  drains: r.count,
  wakes: r.count * limit,
  seconds: round(r.seconds, 3),
  wakes_per_second: round(r.perSecond * limit, 1),
  latency_ms: { p50: round(median(r.latenciesMs)), p95: round(quantile(r.latenciesMs, 0.95)) },
});

/**
 * Runs the drain benchmark on one kind of database (its own fresh database and server), adds its
 * rows to `run`'s table and returns its results for the results file.
 */
export async function drainBench(opts: DrainBenchOptions): Promise<Record<string, unknown>> {
  const { kind, run } = opts;
  const agentCount = opts.agents ?? num('BENCH_DRAIN_AGENTS', 8);
  const limit = opts.limit ?? num('BENCH_DRAIN_LIMIT', 20);
  const rounds = opts.rounds ?? num('BENCH_DRAIN_ROUNDS', 3);
  // Whole drains per agent, so every drain hands out exactly `limit`.
  const perAgent =
    Math.max(1, Math.round((opts.wakes ?? num('BENCH_DRAIN_WAKES', 10_000)) / agentCount / limit)) * limit;
  const wakes = perAgent * agentCount;
  const drains = wakes / limit;

  const bench = await benchDatabase<DB>('agents', MIGRATIONS, kind);
  const db = bench.database.db;
  const server = await startServer(bench.database);
  const worker = new GetLoadWorker();
  try {
    const agentIds = await seedAgents(db, agentCount, 'drain');
    const paths = agentIds.map((id) => `/v1/agents/${id}/inbox?limit=${limit}`);
    const http = async (perAgentNow: number) => {
      await seedWakes(db, agentIds, perAgentNow);
      const r = await worker.run({
        url: server.url,
        paths,
        headers: server.service(),
        clients: agentCount,
        warmupMs: 0,
        count: (perAgentNow * agentCount) / limit,
        expectItems: limit,
      });
      if ((await waiting(db)) !== 0) throw new Error('HTTP drains left wakes waiting');
      return r;
    };
    const raw = async (perAgentNow: number) => {
      await seedWakes(db, agentIds, perAgentNow);
      const r = await rawDrain(db, agentIds, limit, (perAgentNow * agentCount) / limit);
      if ((await waiting(db)) !== 0) throw new Error('raw drains left wakes waiting');
      return r;
    };

    const warm = Math.max(limit, Math.round(perAgent / 10 / limit) * limit);
    await http(warm);
    await raw(warm);

    const https: LoadResult[] = [];
    const raws: LoadResult[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const h = await http(perAgent);
      const s = await raw(perAgent);
      https.push(h);
      raws.push(s);
      ratios.push(h.perSecond / s.perSecond);
      run.log(
        `${kind} drain round ${r + 1}: HTTP ${fmt(h.perSecond * limit)} wakes/s, raw ${fmt(s.perSecond * limit)} wakes/s, ratio ${round(h.perSecond / s.perSecond)}`,
      );
    }
    const hs = mergeRounds(https);
    const rs = mergeRounds(raws);
    const ratio = median(ratios);
    const ok = ratio >= GOAL_DRAIN_RATIO_MIN;
    run.row(`wakes drained /s (HTTP, ${fmt(wakes, 0)} wakes)`, fmt(hs.perSecond * limit));
    run.row('wakes drained /s (raw SQL, same claim)', fmt(rs.perSecond * limit));
    run.row('  HTTP / raw SQL', fmt(ratio, 2), `>= ${GOAL_DRAIN_RATIO_MIN}`, run.goal('drain against raw SQL', ok));
    return {
      knobs: { wakes, agents: agentCount, limit, rounds, drains_per_side_and_round: drains },
      http: summary(hs, limit),
      raw_sql: summary(rs, limit),
      ratios: ratios.map((x) => round(x)),
      ratio: round(ratio),
      goal_min: GOAL_DRAIN_RATIO_MIN,
      met: ok,
    };
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const run = new BenchRun('agents-drain');
  const results: Record<string, unknown> = {};
  const kinds = (process.env.BENCH_DRAIN_KINDS?.split(',') ?? [
    'pglite',
    ...(process.env.DATABASE_URL ? ['postgres'] : []),
  ]) as BenchKind[];
  for (const kind of kinds) {
    run.section(kind);
    results[kind] = await drainBench({ kind, run });
  }
  run.finish(new URL('./results/', import.meta.url), { drain: results });
}
