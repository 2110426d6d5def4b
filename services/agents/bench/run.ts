import { type BenchKind, BenchRun, benchEnv, GetLoadWorker } from '@platform/kit/testing';
import { briefsBench, GOAL_BRIEFS_RATIO_MAX } from './briefs.ts';
import { drainBench } from './drain.ts';
import { type LoadKnobs, measureListGrowth } from './list.ts';
import { logsBench } from './logs.ts';
import { GOAL_PM_RATIO_MIN, pmBench } from './pm.ts';

/**
 * The agents benchmark: `npm run bench -w services/agents`, one run of five measures.
 *
 * (a) Log lines posted per second through POST /v1/agents/{id}/logs (the harness's service token)
 *     against raw SQL inserts of the same rows (goal >= 0.5; bench/logs.ts).
 * (b) Draining 10,000 wakes through GET /v1/agents/{id}/inbox against the same claim in raw SQL
 *     (goal >= 0.5; bench/drain.ts).
 * (c) GET /v1/agents?q= for a person with 50 agents on a database of BENCH_LIST_LARGE (100,000)
 *     agents against BENCH_LIST_SMALL (10,000) (goal: p50 ratio <= 1.5; bench/list.ts).
 * (d) The daily-briefs job for BENCH_BRIEFS_RECIPIENTS (200) people with BENCH_BRIEFS_PROVIDER_MS
 *     (20 ms) provider replies against 200 x 20 ms / the job's concurrency (goal <= 1.5; bench/briefs.ts).
 * (e) A cached list_move_ins (POST /v1/agents/{id}/move-ins, the harness's service token) against
 *     GET /healthz through the same authentication (goal >= 0.5; bench/pm.ts).
 *
 * Always on in-memory PGlite; also on PostgreSQL when DATABASE_URL is set. Writes
 * bench/results/agents.json. Knobs: BENCH_LIST_SMALL, BENCH_LIST_LARGE, BENCH_CLIENTS (8),
 * BENCH_COUNT (requests per side, 300), BENCH_ROUNDS (3), BENCH_WARMUP_MS (1000), and the
 * sections' own (see their files); BENCH_STRICT=1 exits 1 when a goal is missed.
 */

const { num } = benchEnv;
const SIZES = { small: num('BENCH_LIST_SMALL', 10_000), large: num('BENCH_LIST_LARGE', 100_000) };
const knobs: LoadKnobs = {
  clients: num('BENCH_CLIENTS', 8),
  count: num('BENCH_COUNT', 300),
  rounds: num('BENCH_ROUNDS', 3),
  warmupMs: num('BENCH_WARMUP_MS', 1_000),
};

const run = new BenchRun('agents');

async function runKind(kind: BenchKind) {
  run.section(kind);
  const out: Record<string, unknown> = {};
  out.logs = await logsBench({ kind, run });
  out.drain = await drainBench({ kind, run });
  out.briefs = await briefsBench({ kind, run });
  out.pm = await pmBench({ kind, run });
  const worker = new GetLoadWorker();
  try {
    out.list = await measureListGrowth(run, worker, kind, SIZES, knobs);
  } finally {
    await worker.close();
  }
  return out;
}

const results: Record<string, unknown> = { pglite: await runKind('pglite') };
if (process.env.DATABASE_URL) results.postgres = await runKind('postgres');
run.finish(
  new URL('./results/', import.meta.url),
  {
    knobs: { list_sizes: SIZES, ...knobs },
    goals: {
      logs_ratio_min: 0.5,
      drain_ratio_min: 0.5,
      list_p50_ratio_max: 1.5,
      briefs_ratio_max: GOAL_BRIEFS_RATIO_MAX,
      pm_cached_move_ins_ratio_min: GOAL_PM_RATIO_MIN,
    },
    ...results,
  },
  `${SIZES.large} agents`,
);
