import {
  type BenchKind,
  type BenchRun,
  benchDatabase,
  type GetLoadWorker,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { sql } from 'kysely';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';
import { BENCH_PERSON_ID, type BenchServer, startServer } from './lib.ts';

export const GOAL_LIST_GROWTH_MAX = 1.5;
/** The bench person's agents: this many owned, and as many again where they are a member. */
const OWNED = 30;
const MEMBER_OF = 20;

export interface LoadKnobs {
  clients: number;
  count: number;
  rounds: number;
  warmupMs: number;
}

export const summary = (r: LoadResult) => ({
  requests: r.count,
  per_second: round(r.perSecond, 1),
  latency_ms: {
    p50: round(median(r.latenciesMs)),
    p95: round(quantile(r.latenciesMs, 0.95)),
    p99: round(quantile(r.latenciesMs, 0.99)),
  },
});

/**
 * `total` top-level agents written straight to the table, as a bulk load would, spread over 5,000
 * other owners; the bench person owns OWNED of them and is a viewer of MEMBER_OF more.
 */
export async function seedAgents(db: Db, total: number) {
  // An access-gateway caller identity does not know is the gateway's subject (kit gateway authenticator).
  const me = BENCH_PERSON_ID;
  await sql`INSERT INTO agents (id, top_id, slug, name, instructions, owner_fid, created_by, email, harness_id,
      desired_state, created_at, updated_at)
    SELECT u, u, 'bench-' || i, 'Bench helper ' || i, 'Answers questions about property ' || (i % 97),
      CASE WHEN i <= ${OWNED} THEN ${me} ELSE 'owner-' || (i % 5000) END,
      CASE WHEN i <= ${OWNED} THEN ${me} ELSE 'owner-' || (i % 5000) END,
      'bench-' || i || '@agents.bench', 'platform', (ARRAY['stopped','running'])[1 + i % 2],
      now() - make_interval(secs => i), now()
    FROM (SELECT gen_random_uuid() AS u, i FROM generate_series(1, ${total}::int) i) s`.execute(db);
  await sql`INSERT INTO agent_members (agent_id, principal_fid, role, added_at)
    SELECT id, ${me}, 'viewer', now() FROM agents
    WHERE slug IN (SELECT 'bench-' || i FROM generate_series(${OWNED + 1}::int, ${OWNED + MEMBER_OF}::int) i)`.execute(
    db,
  );
  // As autovacuum would after a bulk load (PGlite has none): visibility map and statistics.
  await sql`VACUUM ANALYZE`.execute(db);
}

/**
 * GET /v1/agents?q= for a person with 50 agents, on a database of 10x the agents against 1x
 * (goal: p50 ratio <= 1.5: the list starts from the caller's own agents, not the table).
 */
export async function measureListGrowth(
  run: BenchRun,
  worker: GetLoadWorker,
  kind: BenchKind,
  sizes: { small: number; large: number },
  k: LoadKnobs,
) {
  const sides: Record<'small' | 'large', { server: BenchServer; drop(): Promise<void> }> = {} as never;
  for (const name of ['small', 'large'] as const) {
    const bench = await benchDatabase<DB>('agents', MIGRATIONS, kind);
    const t0 = performance.now();
    await seedAgents(bench.database.db, sizes[name]);
    run.log(`${kind}: ${sizes[name]} agents seeded (${round((performance.now() - t0) / 1000, 1)} s)`);
    const server = await startServer(bench.database);
    sides[name] = {
      server,
      drop: async () => {
        await server.close();
        await bench.drop();
      },
    };
  }
  const mine = OWNED + MEMBER_OF;
  const path = `/v1/agents?q=helper&pagination[pageSize]=${mine}`;
  try {
    for (const name of ['small', 'large'] as const) {
      const r = await sides[name].server.request('GET', path);
      const n = (r.data as unknown[]).length;
      if (n !== mine) throw new Error(`the list shows ${n} agents, not the caller's ${mine}`);
    }
    const rounds: Record<'small' | 'large', LoadResult[]> = { small: [], large: [] };
    const perRound = Math.ceil(k.count / k.rounds);
    for (let i = 0; i < k.rounds; i++) {
      for (const name of ['small', 'large'] as const) {
        rounds[name].push(
          await worker.run({
            url: sides[name].server.url,
            paths: [path],
            headers: sides[name].server.headers,
            clients: k.clients,
            warmupMs: i === 0 ? k.warmupMs : 0,
            count: perRound,
            expectItems: mine,
          }),
        );
      }
    }
    const growth = median(
      rounds.large.map((r, i) => median(r.latenciesMs) / median(rounds.small[i]?.latenciesMs ?? [1])),
    );
    const s = summary(mergeRounds(rounds.small));
    const l = summary(mergeRounds(rounds.large));
    run.row(`GET /v1/agents?q= p50, caller with ${mine} agents of ${sizes.small}`, `${s.latency_ms.p50} ms`);
    run.row(`GET /v1/agents?q= p50, caller with ${mine} agents of ${sizes.large}`, `${l.latency_ms.p50} ms`);
    run.row(
      `  ratio ${sizes.large} / ${sizes.small} agents`,
      `${round(growth)}`,
      `<= ${GOAL_LIST_GROWTH_MAX}`,
      run.goal("agent list flat in the table's size", growth <= GOAL_LIST_GROWTH_MAX),
    );
    return { path, caller_agents: mine, sizes, small: s, large: l, p50_ratio_large_to_small: round(growth) };
  } finally {
    for (const side of Object.values(sides)) await side.drop();
  }
}
