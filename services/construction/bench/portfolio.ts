import {
  type BenchRun,
  closedLoop,
  type GetLoadWorker,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { dayOf } from '../src/domain/health.ts';
import type { Db } from '../src/store/db.ts';
import { listPortfolio, type PortfolioFilter } from '../src/store/projects.ts';
import type { BenchServer } from './lib.ts';

export const GOAL_REPORT_GROWTH_MAX = 1.5;
export const GOAL_LIST_RATIO_MIN = 0.5;

export interface LoadKnobs {
  clients: number;
  count: number;
  rounds: number;
  warmupMs: number;
}

export const summary = (r: LoadResult) => ({
  requests: r.count,
  seconds: round(r.seconds, 3),
  per_second: round(r.perSecond, 1),
  latency_ms: {
    p50: round(median(r.latenciesMs)),
    p95: round(quantile(r.latenciesMs, 0.95)),
    p99: round(quantile(r.latenciesMs, 0.99)),
  },
});

/**
 * (a) GET /v1/reports/portfolio over the same projects with 1x and 10x their tasks, cost events
 * and updates, rounds alternating between the two servers; the ratio is the median of the rounds'
 * p50 ratios (goal <= 1.5: the report reads the kept figures, one row per project).
 */
export async function measureReport(
  run: BenchRun,
  worker: GetLoadWorker,
  sides: { small: BenchServer; large: BenchServer; projects: number; perProject: number; multiplier: number },
  k: LoadKnobs,
) {
  const path = '/v1/reports/portfolio';
  for (const s of [sides.small, sides.large]) {
    const r = await s.request('GET', path);
    const n = (r.data.projects as unknown[]).length;
    if (n !== sides.projects) throw new Error(`the report lists ${n} projects, not ${sides.projects}`);
  }
  const rounds: Record<'small' | 'large', LoadResult[]> = { small: [], large: [] };
  const perRound = Math.ceil(k.count / k.rounds);
  for (let i = 0; i < k.rounds; i++) {
    for (const name of ['small', 'large'] as const) {
      rounds[name].push(
        await worker.run({
          url: sides[name].url,
          paths: [path],
          headers: sides[name].headers,
          clients: k.clients,
          warmupMs: i === 0 ? k.warmupMs : 0,
          count: perRound,
          expectItems: sides.projects,
          itemsAt: 'projects',
        }),
      );
    }
  }
  const growth = median(
    rounds.large.map((r, i) => median(r.latenciesMs) / median(rounds.small[i]?.latenciesMs ?? [1])),
  );
  const s = summary(mergeRounds(rounds.small));
  const l = summary(mergeRounds(rounds.large));
  const x = sides.multiplier;
  run.row(`GET /v1/reports/portfolio p50, ${sides.projects} projects, 1x work`, `${s.latency_ms.p50} ms`);
  run.row(`GET /v1/reports/portfolio p50, ${sides.projects} projects, ${x}x work`, `${l.latency_ms.p50} ms`);
  run.row(
    `  ratio ${x}x / 1x (tasks, cost events, updates)`,
    `${round(growth)}`,
    `<= ${GOAL_REPORT_GROWTH_MAX}`,
    run.goal('portfolio report flat in the work per project', growth <= GOAL_REPORT_GROWTH_MAX),
  );
  return {
    projects: sides.projects,
    per_project_1x: sides.perProject,
    multiplier: x,
    small: s,
    large: l,
    p50_ratio_large_to_small: round(growth),
  };
}

/**
 * (b) A filtered page of the portfolio over HTTP against the same statements (page and total) on
 * the same driver (goal: throughput ratio >= 0.5).
 */
export async function measurePortfolioList(
  run: BenchRun,
  worker: GetLoadWorker,
  db: Db,
  server: BenchServer,
  k: LoadKnobs,
) {
  const filter: PortfolioFilter = { status: 'active', phase: 'pre_construction' };
  const pageSize = 50;
  const path = `/v1/development-projects?status=active&phase=pre_construction&pagination[pageSize]=${pageSize}`;
  const page = { page: 1, pageSize };
  const today = () => dayOf(new Date());
  const { total } = await listPortfolio(db, filter, today(), page);
  if (total === 0) throw new Error('the portfolio filter matches no project');
  // A full page at the default size (BENCH_PROJECTS of 1,000 matches about 300).
  const expected = Math.min(pageSize, total);
  const h: LoadResult[] = [];
  const r: LoadResult[] = [];
  const perRound = Math.ceil(k.count / k.rounds);
  for (let i = 0; i < k.rounds; i++) {
    const warmupMs = i === 0 ? k.warmupMs : 0;
    h.push(
      await worker.run({
        url: server.url,
        paths: [path],
        headers: server.headers,
        clients: k.clients,
        warmupMs,
        count: perRound,
        expectItems: expected,
      }),
    );
    r.push(
      await closedLoop(k.clients, warmupMs, perRound, async () => {
        const got = await listPortfolio(db, filter, today(), page);
        if (got.items.length !== expected) throw new Error(`raw portfolio page has ${got.items.length} rows`);
      }),
    );
  }
  const ratio = median(h.map((x, i) => x.perSecond / (r[i] as LoadResult).perSecond));
  const hs = summary(mergeRounds(h));
  const rs = summary(mergeRounds(r));
  run.row(
    'portfolio page of 50 (status=active, phase=pre_construction) over HTTP',
    `${hs.per_second}/s`,
    '',
    `p50 ${hs.latency_ms.p50} ms`,
  );
  run.row(
    '  HTTP / raw SQL of the same statements',
    `${round(ratio)}`,
    `>= ${GOAL_LIST_RATIO_MIN}`,
    run.goal('portfolio list against raw SQL', ratio >= GOAL_LIST_RATIO_MIN),
  );
  return { filter: path, matching: total, http: hs, raw_sql: rs, ratio: round(ratio) };
}
