import { type BenchKind, BenchRun, benchDatabase, benchEnv, GetLoadWorker, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';
import { benchBudget } from './budget.ts';
import { type BenchServer, seededCounts, seedProjects, seedWork, startServer } from './lib.ts';
import { type LoadKnobs, measurePortfolioList, measureReport } from './portfolio.ts';

/**
 * The construction benchmark: `npm run bench -w services/construction`.
 *
 * (a) GET /v1/reports/portfolio over BENCH_PROJECTS (1,000) projects, on a database holding
 *     BENCH_WORK (20) tasks, cost events and a quarter as many weekly updates per project, against
 *     one holding 10x that (goal: p50 ratio <= 1.5 — the report reads the figures kept on each
 *     project row, never the work rows).
 * (b) A filtered page of the portfolio over HTTP against the raw SQL of the same statements (page
 *     and total) through the same driver (goal: throughput ratio >= 0.5).
 * Further sections (the budget read) are functions of a BenchContext listed in SECTIONS below.
 *
 * HTTP GET loads come from keep-alive clients in a worker thread; rounds alternate between the
 * two sides and ratios are medians of the rounds' ratios. Always on in-memory PGlite; also on
 * PostgreSQL when DATABASE_URL is set. Writes bench/results/construction.json.
 *
 * Knobs: BENCH_PROJECTS (1000), BENCH_WORK (20 per project at 1x), BENCH_MULTIPLIER (10),
 * BENCH_CLIENTS (8), BENCH_COUNT (requests per side and case, 150), BENCH_ROUNDS (3),
 * BENCH_WARMUP_MS (1000), BENCH_STRICT=1 (exit 1 when a goal is missed).
 */

const { num } = benchEnv;
const PROJECTS = num('BENCH_PROJECTS', 1_000);
const WORK = num('BENCH_WORK', 20);
const MULTIPLIER = num('BENCH_MULTIPLIER', 10);
const knobs: LoadKnobs = {
  clients: num('BENCH_CLIENTS', 8),
  count: num('BENCH_COUNT', 150),
  rounds: num('BENCH_ROUNDS', 3),
  warmupMs: num('BENCH_WARMUP_MS', 1_000),
};

const run = new BenchRun('construction');

/** What a section of the benchmark runs with on one database kind. */
export interface BenchContext {
  kind: BenchKind;
  run: BenchRun;
  worker: GetLoadWorker;
  knobs: LoadKnobs;
  /** The 1x database (PROJECTS projects, WORK of each kind per project) and its server. */
  db: Db;
  server: BenchServer;
}
export type BenchSection = (ctx: BenchContext) => Promise<Record<string, unknown>>;

/**
 * More sections, each run on every database kind after (a) and (b); its result goes into the
 * results file under its name. The budget area adds its budget read here (from bench/budget.ts),
 * e.g. `budget: (ctx) => benchBudget(ctx.kind, ctx.run)`.
 */
const SECTIONS: Record<string, BenchSection> = { budget: (ctx) => benchBudget(ctx.kind, ctx.run) };

async function seeded(kind: BenchKind, perProject: number) {
  const bench = await benchDatabase<DB>('construction', MIGRATIONS, kind);
  const db = bench.database.db;
  const t0 = performance.now();
  await seedProjects(db, PROJECTS);
  await seedWork(db, perProject);
  // As autovacuum would after a bulk load (PGlite has none): visibility map and statistics.
  await sql`VACUUM ANALYZE`.execute(db);
  const counts = await seededCounts(db);
  run.log(
    `${kind}: ${counts.projects} projects, ${counts.tasks} tasks, ${counts.cost_events} cost events, ${counts.updates} updates (${round((performance.now() - t0) / 1000, 1)} s)`,
  );
  return { bench, db, server: await startServer(bench.database), counts };
}

async function runKind(kind: BenchKind) {
  const small = await seeded(kind, WORK);
  const large = await seeded(kind, WORK * MULTIPLIER);
  const worker = new GetLoadWorker();
  const out: Record<string, unknown> = { seeded: { small: small.counts, large: large.counts } };
  run.section(kind);
  try {
    out.report = await measureReport(
      run,
      worker,
      { small: small.server, large: large.server, projects: PROJECTS, perProject: WORK, multiplier: MULTIPLIER },
      knobs,
    );
    // The 10x database is no longer needed: free it before the other sections.
    await large.server.close();
    await large.bench.drop();
    out.portfolio_list = await measurePortfolioList(run, worker, small.db, small.server, knobs);
    for (const [name, section] of Object.entries(SECTIONS)) {
      out[name] = await section({ kind, run, worker, knobs, db: small.db, server: small.server });
    }
  } finally {
    await worker.close();
    await small.server.close();
    await small.bench.drop();
  }
  return out;
}

const results: Record<string, unknown> = { pglite: await runKind('pglite') };
if (process.env.DATABASE_URL) results.postgres = await runKind('postgres');
run.finish(
  new URL('./results/', import.meta.url),
  {
    knobs: { projects: PROJECTS, work_per_project: WORK, multiplier: MULTIPLIER, ...knobs },
    goals: { report_p50_ratio_max: 1.5, portfolio_list_ratio_min: 0.5 },
    ...results,
  },
  `${PROJECTS} projects`,
);
