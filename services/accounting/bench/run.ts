import { BenchRun, fmt } from '@platform/kit/testing';
import { sql } from 'kysely';
import { benchDatabase, type Kind } from './lib.ts';
import { POSTING_DEFAULTS, type PostingOptions, postingBench } from './posting.ts';
import { TRIAL_BALANCE_DEFAULTS, type TrialBalanceOptions, trialBalanceBench } from './trial-balance.ts';

/**
 * The accounting benchmark: `npm run bench -w services/accounting`.
 *
 * 1. Posted entries per second over HTTP (create + post, 16 keep-alive clients on a real port)
 *    against the raw SQL of the same writes through the same driver (16 workers); goal: HTTP/raw >= 0.5.
 * 2. Trial-balance latency (median of sequential GETs) at 10 thousand and at 1 million posted
 *    lines; goal: 1M/10k <= 2.
 *
 * Always on in-memory PGlite; also on PostgreSQL when DATABASE_URL is set (a fresh schema
 * accounting_bench_<random>, dropped afterwards). Prints a table and writes
 * bench/results/accounting.json.
 *
 * Knobs (environment): BENCH_COUNT (measured entries, 2000), BENCH_CLIENTS (16), BENCH_WARMUP_MS (3000),
 * BENCH_PROFILE (sequential profiled create+post pairs, 200; 0 to skip), BENCH_TB_SIZES (lines,
 * "10000,1000000"), BENCH_ONLY (posting | trial-balance), BENCH_CLIENT=inline (load client on
 * the server's thread instead of a worker thread), BENCH_STRICT=1 (exit 1 when a goal is missed).
 */

const env = process.env;
const num = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);

const posting: PostingOptions = {
  ...POSTING_DEFAULTS,
  clients: num('BENCH_CLIENTS', POSTING_DEFAULTS.clients),
  count: num('BENCH_COUNT', POSTING_DEFAULTS.count),
  warmupMs: num('BENCH_WARMUP_MS', POSTING_DEFAULTS.warmupMs),
  profileCount: num('BENCH_PROFILE', POSTING_DEFAULTS.profileCount),
};
const trialBalance: TrialBalanceOptions = {
  ...TRIAL_BALANCE_DEFAULTS,
  sizes: env.BENCH_TB_SIZES ? env.BENCH_TB_SIZES.split(',').map(Number) : TRIAL_BALANCE_DEFAULTS.sizes,
};
const only = env.BENCH_ONLY;

const run = new BenchRun('accounting');
const { log, row, goal } = run;

type Report = Record<string, unknown>;

async function runKind(kind: Kind): Promise<Report> {
  const out: Report = {};
  if (kind === 'postgres') {
    const probe = await benchDatabase('postgres');
    try {
      const v = await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(probe.database.db);
      out.server_version = v.rows[0]?.v;
    } finally {
      await probe.drop();
    }
  }
  if (only !== 'trial-balance') out.posting = await postingBench(kind, posting, log);
  if (only !== 'posting') out.trial_balance = await trialBalanceBench(kind, trialBalance, log);
  return out;
}

const results: Report = { pglite: await runKind('pglite') };
if (env.DATABASE_URL) results.postgres = await runKind('postgres');
else log('DATABASE_URL is not set: PostgreSQL skipped');

// ---- The table ----
interface Phase {
  entries_per_second: number;
  node_cpu_ms_per_entry: number;
  latency_ms: { p50: number; p95: number };
}
interface Step {
  wall_ms_p50: number;
  sql_ms_p50: number;
  statements: number;
}
interface PostingReport {
  clients: number;
  http: Phase;
  raw: Phase;
  ratio_http_to_raw: number;
  ratio_http_to_raw_with_idempotency_records: number;
  raw_with_idempotency_records: { perSecond?: number; entries_per_second?: number };
  goal_ratio_min: number;
  profile_sequential?: { create: Step; post: Step; raw: Step };
}
interface TrialBalanceReport {
  sizes: {
    posted_lines: number;
    seed_seconds: number;
    seed_lines_per_second: number;
    http_ms: { p50: number; p95: number };
    sql_ms: { p50: number };
  }[];
  ratio_large_to_small: number;
  goal_ratio_max: number;
}

const step = (x: Step) => `${fmt(x.wall_ms_p50, 2)} ms (${fmt(x.sql_ms_p50, 2)} in ${x.statements} SQL)`;

for (const kind of ['pglite', 'postgres'] as const) {
  const r = results[kind] as { posting?: PostingReport; trial_balance?: TrialBalanceReport } | undefined;
  if (!r) continue;
  run.section(kind);
  const p = r.posting;
  if (p) {
    row(`posted entries/s, HTTP create+post (${p.clients} clients)`, fmt(p.http.entries_per_second));
    row('  latency per entry p50 / p95', `${fmt(p.http.latency_ms.p50)} / ${fmt(p.http.latency_ms.p95)} ms`);
    row('  node CPU per entry (server + client)', `${fmt(p.http.node_cpu_ms_per_entry, 2)} ms`);
    row(`posted entries/s, raw SQL (${p.clients} workers)`, fmt(p.raw.entries_per_second));
    row('  latency per entry p50 / p95', `${fmt(p.raw.latency_ms.p50)} / ${fmt(p.raw.latency_ms.p95)} ms`);
    row('  node CPU per entry', `${fmt(p.raw.node_cpu_ms_per_entry, 2)} ms`);
    const ok = p.ratio_http_to_raw >= p.goal_ratio_min;
    row('ratio HTTP / raw', fmt(p.ratio_http_to_raw, 2), `>= ${p.goal_ratio_min}`, goal(`${kind} posting ratio`, ok));
    row(
      'ratio HTTP / raw incl. the 2 idempotency records (for information)',
      fmt(p.ratio_http_to_raw_with_idempotency_records, 2),
    );
    const pr = p.profile_sequential;
    if (pr) {
      row('one at a time p50: create', step(pr.create));
      row('                   post', step(pr.post));
      row('                   raw create+post', step(pr.raw));
    }
  }
  const t = r.trial_balance;
  if (t) {
    for (const s of t.sizes) {
      row(
        `trial balance at ${s.posted_lines.toLocaleString('en-US')} lines p50 / p95`,
        `${fmt(s.http_ms.p50, 2)} / ${fmt(s.http_ms.p95, 2)} ms`,
      );
      row('  of which the report SQL p50', `${fmt(s.sql_ms.p50, 2)} ms`);
      row(
        '  seeding up to that size',
        `${fmt(s.seed_seconds)} s (${s.seed_lines_per_second.toLocaleString('en-US')} lines/s)`,
      );
    }
    const ok = t.ratio_large_to_small <= t.goal_ratio_max;
    row(
      'ratio largest / smallest',
      fmt(t.ratio_large_to_small, 2),
      `<= ${t.goal_ratio_max}`,
      goal(`${kind} trial-balance ratio`, ok),
    );
  }
}

run.finish(new URL('./results/', import.meta.url), results);
