import { randomUUID } from 'node:crypto';
import { type Database, devFid } from '@platform/kit';
import {
  type BenchKind,
  type BenchRun,
  benchDatabase,
  benchEnv,
  GetLoadWorker,
  type LoadResult,
  listenOnFreePort,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { buildApp } from '../src/app.ts';
import { callerPolicy, constructionAuthenticator } from '../src/auth.ts';
import { constructionConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/**
 * The budget benchmark: GET /v1/development-projects/{id}/budget on a project of 100,000 cost
 * events against one of 1,000 (goal: p50 latency ratio <= 1.5). A budget read costs its lines and
 * the totals kept on the project row, never its events, so it is flat in their number.
 *
 * Events are seeded with one INSERT ... SELECT generate_series, through the triggers that keep the
 * lines, and the lines are checked against the sums of the events before measuring. HTTP loads
 * come from keep-alive clients in a worker thread; rounds alternate between the two projects and
 * the ratio is the median of the rounds' p50 ratios.
 *
 * Knobs: BENCH_BUDGET_LARGE (100000), BENCH_BUDGET_SMALL (1000), BENCH_CLIENTS (8), BENCH_COUNT
 * (requests per side, 600), BENCH_ROUNDS (3), BENCH_WARMUP_MS (1000).
 */

const { num } = benchEnv;
const LARGE = num('BENCH_BUDGET_LARGE', 100_000);
const SMALL = num('BENCH_BUDGET_SMALL', 1_000);
const CLIENTS = num('BENCH_CLIENTS', 8);
const COUNT = num('BENCH_COUNT', 600);
const ROUNDS = num('BENCH_ROUNDS', 3);
const WARMUP_MS = num('BENCH_WARMUP_MS', 1_000);
export const GOAL_BUDGET_GROWTH_MAX = 1.5;
const CATEGORIES = ['construction', 'design', 'contingency', 'legal', 'permits', 'fit-out', 'landscaping', 'fees'];

const EDITOR = 'bench.editor@construction.test';
const ISSUER = 'https://gateway.construction.bench';
const AUD = 'construction-bench';

/** Construction on a free port with the production authenticator: access-gateway tokens over a key set the bench holds. */
export async function startBudgetServer(database: Database<DB>) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const gatewayJwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256' }] });
  const config = constructionConfig({
    CONSTRUCTION_ACCESS_AUD: AUD,
    CONSTRUCTION_EDITORS: EDITOR,
    GATEWAY_ISSUER: ISSUER,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({
    database,
    authenticator: constructionAuthenticator(config, { gatewayJwks }),
    callers: callerPolicy(config),
    logLevel: 'silent',
  });
  const server = await listenOnFreePort(app);
  const token = await new SignJWT({ email: EDITOR })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(ISSUER)
    .setAudience(AUD)
    .setSubject(`gw-${EDITOR}`)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const headers = { 'cf-access-jwt-assertion': token };
  const pool = new Pool(server.url, { connections: 4, pipelining: 1, keepAliveTimeout: 60_000 });
  const request = async (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, status = 200) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as { payload: { data: unknown } };
    if (res.statusCode !== status) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.payload.data as Record<string, unknown>;
  };
  return {
    url: server.url,
    headers,
    request,
    close: async () => {
      await pool.close();
      await server.close();
    },
  };
}

/** A project written straight to its table, as a bulk load would. */
async function seedProject(db: Database<DB>['db'], name: string) {
  const id = randomUUID();
  await sql`INSERT INTO development_projects (id, code, name, kind, created_by, created_at, updated_at)
    VALUES (${id}, ${`BENCH-${name}-${id.slice(0, 8)}`}, ${name}, 'ground_up', ${devFid(EDITOR)}, now(), now())`.execute(
    db,
  );
  return id;
}

/** `count` cost events over the categories, in one statement: the triggers add each to its line and the totals. */
export async function seedCostEvents(db: Database<DB>['db'], projectId: string, count: number) {
  await sql`INSERT INTO cost_events (id, project_id, category, kind, amount_minor, occurred_on, description, created_by,
      created_at)
    SELECT gen_random_uuid(), ${projectId},
      (${sql.val(CATEGORIES)}::text[])[1 + i % ${CATEGORIES.length}],
      CASE WHEN i % 3 = 0 THEN 'committed' ELSE 'actual' END,
      CASE WHEN i % 17 = 0 THEN -(i % 5000) ELSE 1000 + i % 90000 END,
      date '2024-01-01' + (i % 700), 'Seeded cost ' || i, ${devFid(EDITOR)},
      timestamptz '2024-01-01T00:00:00Z' + make_interval(secs => i)
    FROM generate_series(1, ${count}::int) AS i`.execute(db);
}

/** Lines whose committed or actual differ from the sums of their events, and projects whose totals differ from their lines. */
async function drift(db: Database<DB>['db']) {
  const lines = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM budget_lines l
    LEFT JOIN (SELECT project_id, category,
                      sum(amount_minor) FILTER (WHERE kind = 'committed') AS c,
                      sum(amount_minor) FILTER (WHERE kind = 'actual') AS a
               FROM cost_events GROUP BY project_id, category) e USING (project_id, category)
    WHERE l.committed_minor <> COALESCE(e.c, 0) OR l.actual_minor <> COALESCE(e.a, 0)`.execute(db);
  const totals = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM development_projects d
    JOIN (SELECT project_id, sum(budget_minor) b, sum(committed_minor) c, sum(actual_minor) a
          FROM budget_lines GROUP BY project_id) l ON l.project_id = d.id
    WHERE d.budget_minor <> l.b OR d.committed_minor <> l.c OR d.actual_minor <> l.a`.execute(db);
  return { lines: lines.rows[0]?.n ?? 0, totals: totals.rows[0]?.n ?? 0 };
}

/** EXPLAIN of the budget read's two statements (store/budget.ts readBudget): which tables they read. */
async function explainBudget(db: Database<DB>['db'], projectId: string) {
  const plans: string[] = [];
  for (const q of [
    sql`SELECT budget_minor, committed_minor, actual_minor FROM development_projects WHERE id = ${projectId}`,
    sql`SELECT category, budget_minor, committed_minor, actual_minor, updated_at FROM budget_lines
      WHERE project_id = ${projectId} ORDER BY category`,
  ]) {
    const r = await sql<Record<string, string>>`EXPLAIN (COSTS OFF) ${q}`.execute(db);
    plans.push(...r.rows.map((x) => Object.values(x)[0] as string));
  }
  return { plan: plans, reads_cost_events: plans.join('\n').includes('cost_events') };
}

const summary = (r: LoadResult) => ({
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
 * Runs the budget benchmark on one kind of database (its own fresh database and server), adds its
 * rows to `run`'s table and returns its results for the results file.
 */
export async function benchBudget(kind: BenchKind, run: BenchRun): Promise<Record<string, unknown>> {
  const { log, goal, row } = run;
  const bench = await benchDatabase<DB>('construction', MIGRATIONS, kind);
  const db = bench.database.db;
  const server = await startBudgetServer(bench.database);
  const worker = new GetLoadWorker();
  try {
    const small = await seedProject(db, 'Small');
    const large = await seedProject(db, 'Large');
    for (const id of [small, large]) {
      for (const category of CATEGORIES) {
        await server.request('PUT', `/v1/development-projects/${id}/budget/lines`, {
          data: { category, budget_minor: 50_000_000 },
        });
      }
    }
    const t0 = performance.now();
    await seedCostEvents(db, small, SMALL);
    await seedCostEvents(db, large, LARGE);
    // As autovacuum would after a bulk load (PGlite has none).
    await sql`VACUUM ANALYZE cost_events`.execute(db);
    await sql`VACUUM ANALYZE budget_lines`.execute(db);
    await sql`VACUUM ANALYZE development_projects`.execute(db);
    log(`${kind}: ${SMALL} + ${LARGE} cost events seeded (${round((performance.now() - t0) / 1000, 1)} s)`);
    const drifted = await drift(db);
    if (drifted.lines || drifted.totals) throw new Error(`budget drifted after seeding: ${JSON.stringify(drifted)}`);

    const rounds: Record<'small' | 'large', LoadResult[]> = { small: [], large: [] };
    const perRound = Math.ceil(COUNT / ROUNDS);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, id] of [
        ['small', small],
        ['large', large],
      ] as const) {
        rounds[name].push(
          await worker.run({
            url: server.url,
            paths: [`/v1/development-projects/${id}/budget`],
            headers: server.headers,
            clients: CLIENTS,
            warmupMs: i === 0 ? WARMUP_MS : 0,
            count: perRound,
            expectItems: CATEGORIES.length,
            itemsAt: 'lines',
          }),
        );
      }
    }
    const s = summary(mergeRounds(rounds.small));
    const l = summary(mergeRounds(rounds.large));
    const growth = median(
      rounds.large.map((r, i) => median(r.latenciesMs) / median(rounds.small[i]?.latenciesMs ?? [1])),
    );
    run.section(`${kind} budget`);
    row(`GET .../budget p50, ${SMALL} cost events`, `${s.latency_ms.p50} ms`);
    row(`GET .../budget p50, ${LARGE} cost events`, `${l.latency_ms.p50} ms`);
    row(
      `  ratio ${LARGE} / ${SMALL} (${CATEGORIES.length} lines each)`,
      `${round(growth)}`,
      `<= ${GOAL_BUDGET_GROWTH_MAX}`,
      goal(`${kind}: budget read flat in cost events`, growth <= GOAL_BUDGET_GROWTH_MAX),
    );
    row('  lines equal to the sums of their events', 'yes');
    const plan = await explainBudget(db, large);
    row('  budget read plan touches cost_events', String(plan.reads_cost_events));
    return {
      small_events: SMALL,
      large_events: LARGE,
      lines: CATEGORIES.length,
      small: s,
      large: l,
      p50_ratio_large_to_small: round(growth),
      goal: `<= ${GOAL_BUDGET_GROWTH_MAX}`,
      drift: drifted,
      plan,
    };
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
  }
}
