import { randomBytes } from 'node:crypto';
import {
  BenchRun,
  benchEnv,
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
import type { Coverage } from '../src/domain/insurance.ts';
import type { Db } from '../src/store/db.ts';
import { type CurrentFilter, currentInsurancePage, currentInsuranceQuery } from '../src/store/insurance.ts';
import { benchDatabase, type Kind, rebuildCurrent, seededCounts, seedFirms, startServer } from './lib.ts';

/**
 * The vendors benchmark: `npm run bench -w services/vendors`.
 *
 * GET /v1/vendor-insurance (first page of 50, and with a coverage filter) over a real port
 * (keep-alive clients in a worker thread, gateway-token callers) against the raw SQL of the same
 * statement (page and total) through the same driver, at 5,000 firms and again at 50,000 (10x); how each
 * grows, and EXPLAIN ANALYZE showing the page is a range of the partial index.
 * Goals: HTTP/raw >= 0.5 (median of alternating rounds); latency at 10x / 1x <= 1.5 (flat).
 *
 * Always on in-memory PGlite; also on PostgreSQL when DATABASE_URL is set (a fresh schema
 * vendors_bench_<random>, dropped afterwards). Prints a table and writes bench/results/vendors.json.
 *
 * Knobs (environment): BENCH_SIZES (firms, "5000,50000"), BENCH_CLIENTS (8), BENCH_COUNT
 * (requests per side and case, 1000), BENCH_ROUNDS (alternating rounds, 3), BENCH_WARMUP_MS (1000), BENCH_STRICT=1 (exit 1 when a goal is missed).
 */

const { num } = benchEnv;
const SIZES = benchEnv.list('BENCH_SIZES', [5_000, 50_000]);
const CLIENTS = num('BENCH_CLIENTS', 8);
const COUNT = num('BENCH_COUNT', 1_000);
const WARMUP_MS = num('BENCH_WARMUP_MS', 1_000);
const ROUNDS = num('BENCH_ROUNDS', 3);
const SEED_BATCH = 5_000;
const PAGE = { page: 1, pageSize: 50 };
const GOAL_RATIO_MIN = 0.5;
const GOAL_GROWTH_MAX = 1.5;
const COVERAGE: Coverage = 'umbrella';
const CASES: { name: string; query: string; filter: Omit<CurrentFilter, 'today'> }[] = [
  { name: 'first page', query: '', filter: {} },
  { name: `coverage=${COVERAGE}`, query: `coverage=${COVERAGE}`, filter: { coverage: COVERAGE } },
];

const run = new BenchRun('vendors');
const { log, goal } = run;

const summary = (r: LoadResult) => ({
  requests: r.count,
  seconds: round(r.seconds, 3),
  per_second: round(r.perSecond, 1),
  latency_ms: {
    p50: round(median(r.latenciesMs)),
    p95: round(quantile(r.latenciesMs, 0.95)),
    p99: round(quantile(r.latenciesMs, 0.99)),
  },
  node_cpu_ms_per_request: round(r.cpuMsPerOp, 3),
});
type Summary = ReturnType<typeof summary>;

/** EXPLAIN ANALYZE of the page's SQL: its plan lines and which index the range comes from. */
async function explain(db: Db, filter: CurrentFilter) {
  const r = await sql<Record<string, string>>`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
    ${currentInsuranceQuery(filter, PAGE)}`.execute(db);
  const plan = r.rows.map((row) => Object.values(row)[0]);
  const text = plan.join('\n');
  const index = filter.coverage ? 'current_certificates_by_coverage' : 'current_certificates_by_expiry';
  return {
    plan,
    index,
    index_used: text.includes(index),
    seq_scan_on_current: /Seq Scan on current_certificates/.test(text),
  };
}

async function runKind(kind: Kind) {
  const bench = await benchDatabase(kind);
  const db = bench.database.db;
  const clock = () => new Date();
  const server = await startServer(bench.database, clock);
  const worker = new GetLoadWorker();
  const seed = randomBytes(4).toString('hex');
  const out: Record<string, unknown> = {};
  if (kind === 'postgres') {
    out.server_version = (
      await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)
    ).rows[0].v;
  }
  const sizes: Record<string, unknown>[] = [];
  try {
    let firms = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      while (firms < size) {
        const to = Math.min(size, firms + SEED_BATCH);
        await seedFirms(db, seed, firms, to);
        firms = to;
      }
      const seedSeconds = (performance.now() - t0) / 1000;
      await rebuildCurrent(db);
      // As autovacuum would after a bulk load (PGlite has none): visibility map and planner statistics.
      await sql`VACUUM ANALYZE firms, certificates, current_certificates, current_expiry_counts`.execute(db);
      const counts = await seededCounts(db);
      if (counts.listed !== counts.counted) throw new Error(`kept counts ${counts.counted} != ${counts.listed} listed`);
      log(`${kind}: ${counts.firms} firms, ${counts.certificates} certificates seeded (${round(seedSeconds, 1)} s)`);

      const cases: Record<string, unknown>[] = [];
      for (const c of CASES) {
        const filter = { ...c.filter, today: clock().toISOString().slice(0, 10) };
        // Alternating rounds (the warm-up before the first of each side only), so a change in the
        // machine's other load hits both sides; the ratio is the median of the rounds' ratios.
        const httpRounds: LoadResult[] = [];
        const rawRounds: LoadResult[] = [];
        const perRound = Math.ceil(COUNT / ROUNDS);
        for (let i = 0; i < ROUNDS; i++) {
          const warmupMs = i === 0 ? WARMUP_MS : 0;
          httpRounds.push(
            await worker.run({
              url: server.url,
              paths: [`/v1/vendor-insurance${c.query ? `?${c.query}` : ''}`],
              headers: server.headers,
              clients: CLIENTS,
              warmupMs,
              count: perRound,
              expectItems: PAGE.pageSize,
            }),
          );
          // The statement the route runs, through the same Kysely database.
          rawRounds.push(
            await closedLoop(CLIENTS, warmupMs, perRound, async () => {
              const { items } = await currentInsurancePage(db, filter, PAGE);
              if (items.length !== PAGE.pageSize) throw new Error(`raw page has ${items.length} rows`);
            }),
          );
        }
        const http = summary(mergeRounds(httpRounds));
        const raw = summary(mergeRounds(rawRounds));
        const ratios = httpRounds.map((h, i) => h.perSecond / (rawRounds[i] as LoadResult).perSecond);
        const { total } = await currentInsurancePage(db, filter, PAGE);
        const plan = await explain(db, filter);
        cases.push({
          case: c.name,
          total_rows: total,
          http,
          raw,
          ratio_http_to_raw: round(median(ratios), 3),
          ratio_per_round: ratios.map((x) => round(x, 3)),
          explain: plan,
        });
        log(
          `${kind} ${size} ${c.name}: HTTP ${http.per_second}/s p50 ${http.latency_ms.p50} ms, raw ${raw.per_second}/s p50 ${raw.latency_ms.p50} ms, index ${plan.index_used ? 'used' : 'NOT used'}`,
        );
      }
      sizes.push({
        firms: counts.firms,
        certificates: counts.certificates,
        current_rows: counts.listed,
        seed_seconds: round(seedSeconds, 1),
        cases,
      });
    }
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
  }
  const growth = CASES.map((c, i) => {
    const at = (s: number) => (sizes[s].cases as { http: Summary; raw: Summary }[])[i];
    const first = at(0);
    const last = at(sizes.length - 1);
    return {
      case: c.name,
      http_p50_latency: round(last.http.latency_ms.p50 / first.http.latency_ms.p50, 3),
      raw_p50_latency: round(last.raw.latency_ms.p50 / first.raw.latency_ms.p50, 3),
      http_throughput: round(last.http.per_second / first.http.per_second, 3),
    };
  });
  return {
    ...out,
    clients: CLIENTS,
    requests_per_measure: COUNT,
    warmup_ms: WARMUP_MS,
    page_size: PAGE.pageSize,
    sizes,
    growth_largest_to_smallest: growth,
  };
}

const results: Record<string, unknown> = {
  goals: { ratio_http_to_raw_min: GOAL_RATIO_MIN, growth_p50_latency_max: GOAL_GROWTH_MAX },
  pglite: await runKind('pglite'),
};
if (process.env.DATABASE_URL) results.postgres = await runKind('postgres');
else log('DATABASE_URL is not set: PostgreSQL skipped');

// ---- The table ----
type KindReport = Awaited<ReturnType<typeof runKind>>;
for (const kind of ['pglite', 'postgres'] as const) {
  const r = results[kind] as KindReport | undefined;
  if (!r) continue;
  run.section(kind);
  const { row } = run;
  for (const s of r.sizes as { firms: number; current_rows: number; cases: Record<string, unknown>[] }[]) {
    for (const c of s.cases as {
      case: string;
      total_rows: number;
      http: Summary;
      raw: Summary;
      ratio_http_to_raw: number;
      explain: { index: string; index_used: boolean; seq_scan_on_current: boolean };
    }[]) {
      const label = `${s.firms.toLocaleString('en-US')} firms, ${c.case} (${c.total_rows.toLocaleString('en-US')} rows)`;
      row(`${label}: HTTP req/s, p50`, `${fmt(c.http.per_second)}, ${fmt(c.http.latency_ms.p50, 2)} ms`);
      row('  raw SQL (page + total) req/s, p50', `${fmt(c.raw.per_second)}, ${fmt(c.raw.latency_ms.p50, 2)} ms`);
      row(
        '  ratio HTTP / raw',
        fmt(c.ratio_http_to_raw, 2),
        `>= ${GOAL_RATIO_MIN}`,
        goal(`${kind} ${s.firms} ${c.case} ratio`, c.ratio_http_to_raw >= GOAL_RATIO_MIN),
      );
      row(
        `  EXPLAIN: range of ${c.explain.index}`,
        c.explain.index_used && !c.explain.seq_scan_on_current ? 'yes' : 'no',
        'yes',
        goal(`${kind} ${s.firms} ${c.case} index`, c.explain.index_used && !c.explain.seq_scan_on_current),
      );
    }
  }
  for (const g of r.growth_largest_to_smallest) {
    row(
      `growth 10x / 1x, ${g.case}: HTTP p50 latency`,
      fmt(g.http_p50_latency, 2),
      `<= ${GOAL_GROWTH_MAX}`,
      goal(`${kind} ${g.case} growth`, g.http_p50_latency <= GOAL_GROWTH_MAX),
    );
    row('  raw p50 latency; HTTP throughput', `${fmt(g.raw_p50_latency, 2)}; ${fmt(g.http_throughput, 2)}`);
  }
}
run.finish(new URL('./results/', import.meta.url), results, `${CLIENTS} clients`);
