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
import { listDocuments, listDocumentsQuery } from '../src/store/documents.ts';
import { benchDatabase, counts, DOCS_PER_REF, type Kind, seedDocuments, startServer, target } from './lib.ts';

/**
 * The documents benchmark: `npm run bench -w services/documents`.
 *
 * Requests per second of `GET /v1/documents?ref_type=X&ref_id=Y` (each pair matches 10 documents)
 * over a real port (keep-alive clients in a worker thread) against the same list query's SQL
 * called through the same driver by as many concurrent callers, in alternating rounds (so a
 * change in the machine's other load hits both sides); goal HTTP / raw >= 0.5 (median of the
 * rounds' ratios). At
 * 100,000 documents and again after growing the same tables to 1,000,000 (10x): goal flat
 * (HTTP requests/s at 1M / at 100k >= 0.8), with EXPLAIN ANALYZE of the query at each size
 * showing the reference index in use.
 *
 * Always on in-memory PGlite; also on PostgreSQL when DATABASE_URL is set (a fresh schema
 * documents_bench_<random>, dropped afterwards). Prints a table and writes
 * bench/results/documents.json.
 *
 * Knobs: BENCH_SIZES ("100000,1000000"), BENCH_CLIENTS (8), BENCH_REQUESTS (per side and size,
 * 900), BENCH_ROUNDS (3), BENCH_WARMUP_MS (1500), BENCH_STRICT=1 (exit 1 when a goal is missed).
 */
const { num } = benchEnv;
const SIZES = benchEnv.list('BENCH_SIZES', [100_000, 1_000_000]);
const CLIENTS = num('BENCH_CLIENTS', 8);
const REQUESTS = num('BENCH_REQUESTS', 900);
const ROUNDS = num('BENCH_ROUNDS', 3);
const WARMUP_MS = num('BENCH_WARMUP_MS', 1500);
const BATCH = 100_000;
const TARGETS = 200;
const PAGE = { page: 1, pageSize: 25 };
const INDEX = 'document_references_by_ref';
const GOAL_RATIO = 0.5;
const GOAL_GROWTH = 0.8;

const run = new BenchRun('documents');
const { log, row, goal } = run;

/** Rounds of one side taken together: all requests over all their time. */
const phase = (rounds: LoadResult[]) => {
  const all = mergeRounds(rounds);
  return {
    requests: all.count,
    seconds: round(all.seconds, 2),
    requests_per_second: round(all.perSecond, 1),
    per_round: rounds.map((r) => round(r.perSecond, 1)),
    latency_ms: { p50: round(median(all.latenciesMs)), p95: round(quantile(all.latenciesMs, 0.95)) },
    node_cpu_ms_per_request: round(all.cpuMsPerOp, 3),
  };
};

interface SizeReport {
  documents: number;
  references: number;
  metadata: number;
  seed_seconds: number;
  http: ReturnType<typeof phase>;
  raw: ReturnType<typeof phase>;
  ratio_http_to_raw: number;
  ratio_per_round: number[];
  explain: { index_used: boolean; execution_ms: number | null; plan: string[] };
}

async function runKind(kind: Kind) {
  const bench = await benchDatabase(kind);
  try {
    const db = bench.database.db;
    const version = await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db);
    const server = await startServer(bench.database);
    const worker = new GetLoadWorker();
    const seed = randomBytes(4).toString('hex');
    const total = Math.max(...SIZES);
    const sizes: SizeReport[] = [];
    let seeded = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      while (seeded < size) {
        const to = Math.min(size, seeded + BATCH);
        await seedDocuments(db, seed, seeded, to, total);
        seeded = to;
        log(`${kind}: seeded ${seeded.toLocaleString('en-US')} documents`);
      }
      const seedSeconds = (performance.now() - t0) / 1000;
      // What autovacuum would do after a bulk load (PGlite has none): fresh planner statistics.
      await sql`ANALYZE documents, document_references, document_metadata`.execute(db);
      const c = await counts(db);
      // Pairs spread over the whole table, each matching DOCS_PER_REF documents.
      const targets = Array.from({ length: TARGETS }, (_, i) => target(Math.floor(((i + 0.5) * size) / TARGETS)));
      const paths = targets.map((t) => `/v1/documents?ref_type=${t.ref_type}&ref_id=${t.ref_id}`);
      const check = await listDocuments(db, targets[0], PAGE);
      if (check.total !== DOCS_PER_REF) throw new Error(`target matches ${check.total}, not ${DOCS_PER_REF}`);

      // Alternating rounds, the warm-up before the first of each side only.
      const httpRounds: LoadResult[] = [];
      const rawRounds: LoadResult[] = [];
      const perRound = Math.ceil(REQUESTS / ROUNDS);
      let n = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const warmupMs = i === 0 ? WARMUP_MS : 0;
        httpRounds.push(await worker.run({ url: server.url, paths, clients: CLIENTS, warmupMs, count: perRound }));
        rawRounds.push(
          await closedLoop(CLIENTS, warmupMs, perRound, async () => {
            const r = await listDocuments(db, targets[n++ % targets.length], PAGE);
            if (r.items.length !== DOCS_PER_REF) throw new Error(`raw query returned ${r.items.length}`);
          }),
        );
      }
      const ratios = httpRounds.map((h, i) => h.perSecond / rawRounds[i].perSecond);
      const http = phase(httpRounds);
      const raw = phase(rawRounds);
      log(
        `${kind} at ${size.toLocaleString('en-US')}: HTTP ${http.requests_per_second} requests/s, raw SQL ${raw.requests_per_second} queries/s`,
      );

      const t = targets[TARGETS / 2];
      const plan = (
        await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) ${listDocumentsQuery(t, PAGE)}`.execute(db)
      ).rows.map((r) => r['QUERY PLAN']);
      const text = plan.join('\n');
      const execution = /Execution Time: ([\d.]+) ms/.exec(text);
      sizes.push({
        documents: c.documents,
        references: c.refs,
        metadata: c.meta,
        seed_seconds: round(seedSeconds, 1),
        http,
        raw,
        ratio_http_to_raw: round(median(ratios), 3),
        ratio_per_round: ratios.map((r) => round(r, 3)),
        explain: {
          index_used: text.includes(INDEX) && !/Seq Scan on document_references/.test(text),
          execution_ms: execution ? Number(execution[1]) : null,
          plan,
        },
      });
    }
    await worker.close();
    await server.close();
    const first = sizes[0];
    const last = sizes[sizes.length - 1];
    return {
      server_version: version.rows[0]?.v,
      clients: CLIENTS,
      rounds: ROUNDS,
      client_thread: 'worker thread',
      query: 'GET /v1/documents?ref_type=X&ref_id=Y (page 1, 25 per page; each pair matches 10 documents)',
      targets: TARGETS,
      sizes,
      growth_http_large_to_small: round(last.http.requests_per_second / first.http.requests_per_second, 3),
      growth_raw_large_to_small: round(last.raw.requests_per_second / first.raw.requests_per_second, 3),
      goal_ratio_min: GOAL_RATIO,
      goal_growth_min: GOAL_GROWTH,
    };
  } finally {
    await bench.drop();
  }
}

type KindReport = Awaited<ReturnType<typeof runKind>>;
const results: Record<string, unknown> = { pglite: await runKind('pglite') };
if (process.env.DATABASE_URL) results.postgres = await runKind('postgres');
else log('DATABASE_URL is not set: PostgreSQL skipped');

// ---- The table ----
for (const kind of ['pglite', 'postgres'] as const) {
  const r = results[kind] as KindReport | undefined;
  if (!r) continue;
  run.section(kind);
  for (const s of r.sizes) {
    const at = `${s.documents.toLocaleString('en-US')} docs`;
    row(
      `${at}: seeded (${s.references.toLocaleString('en-US')} refs, ${s.metadata.toLocaleString('en-US')} metadata)`,
      `${fmt(s.seed_seconds)} s`,
    );
    row(
      `${at}: HTTP requests/s (${r.clients} clients), p50 / p95`,
      `${fmt(s.http.requests_per_second)}  ${fmt(s.http.latency_ms.p50, 2)} / ${fmt(s.http.latency_ms.p95, 2)} ms`,
    );
    row(
      `${at}: raw SQL queries/s (${r.clients} callers), p50 / p95`,
      `${fmt(s.raw.requests_per_second)}  ${fmt(s.raw.latency_ms.p50, 2)} / ${fmt(s.raw.latency_ms.p95, 2)} ms`,
    );
    row(
      `${at}: ratio HTTP / raw (median of ${r.rounds} rounds: ${s.ratio_per_round.map((x) => fmt(x, 2)).join(', ')})`,
      fmt(s.ratio_http_to_raw, 2),
      `>= ${GOAL_RATIO}`,
      goal(`${kind} ratio at ${at}`, s.ratio_http_to_raw >= GOAL_RATIO),
    );
    row(
      `${at}: EXPLAIN ANALYZE uses ${INDEX}`,
      `${s.explain.index_used ? 'yes' : 'NO'} (${s.explain.execution_ms ?? '?'} ms)`,
      'yes',
      goal(`${kind} index at ${at}`, s.explain.index_used),
    );
  }
  row(
    'growth: HTTP requests/s largest / smallest',
    fmt(r.growth_http_large_to_small, 2),
    `>= ${GOAL_GROWTH}`,
    goal(`${kind} growth`, r.growth_http_large_to_small >= GOAL_GROWTH),
  );
  row('growth: raw queries/s largest / smallest (for information)', fmt(r.growth_raw_large_to_small, 2));
}
run.finish(new URL('./results/', import.meta.url), results);
for (const kind of ['pglite', 'postgres'] as const) {
  const r = results[kind] as KindReport | undefined;
  if (!r) continue;
  const last = r.sizes[r.sizes.length - 1];
  console.log(`\nEXPLAIN ANALYZE on ${kind} at ${last.documents.toLocaleString('en-US')} documents:`);
  console.log(last.explain.plan.join('\n'));
}
