import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/kit';
import { listenOnFreePort } from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { buildApp } from '../src/app.ts';
import { callerPolicy, constructionAuthenticator } from '../src/auth.ts';
import { constructionConfig } from '../src/config.ts';
import type { DB, Db } from '../src/store/db.ts';

const ISSUER = 'https://gateway.bench.test';
const AUD = 'construction-bench';
export const BENCH_EDITOR = 'bench.editor@construction.test';

/**
 * Construction on a free port with the production authenticator: access-gateway tokens verified
 * against a key set the bench holds, the bench's caller an editor.
 */
export async function startServer(database: Database<DB>) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const gatewayJwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256' }] });
  const config = constructionConfig({
    CONSTRUCTION_ACCESS_AUD: AUD,
    CONSTRUCTION_EDITORS: BENCH_EDITOR,
    GATEWAY_ISSUER: ISSUER,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({
    database,
    authenticator: constructionAuthenticator(config, { gatewayJwks }),
    callers: callerPolicy(config),
    logLevel: 'silent',
  });
  const server = await listenOnFreePort(app as never);
  const token = await new SignJWT({ email: BENCH_EDITOR })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(ISSUER)
    .setAudience(AUD)
    .setSubject(`gw-${BENCH_EDITOR}`)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const headers = { 'cf-access-jwt-assertion': token };
  const pool = new Pool(server.url, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });

  /** One request; throws unless the status is the expected one. Commands get a fresh Idempotency-Key. */
  const request = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, status = 200) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as { payload: { data: unknown; meta?: unknown } };
    if (res.statusCode !== status) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.payload as { data: Record<string, unknown>; meta?: Record<string, unknown> };
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
export type BenchServer = Awaited<ReturnType<typeof startServer>>;

const STAGE_VALUES = sql`(VALUES ('initiation', 1), ('feasibility', 2), ('design', 3), ('permitting', 4), ('award', 5),
  ('construction', 6), ('closeout', 7)) AS s(stage, seq)`;

/**
 * `count` projects written straight to the tables, as a bulk load would: kinds, statuses, stages,
 * owners and regions spread over the values; kept figures (progress, next milestone due, last
 * update) spread around today so every health and freshness occurs; seven stages each.
 */
export async function seedProjects(db: Db, count: number) {
  await sql`INSERT INTO development_projects (id, code, name, kind, status, stage, owner_fid, region, description,
      created_by, created_at, updated_at, progress, next_milestone_due, last_update_on)
    SELECT gen_random_uuid(), 'BP-' || lpad(i::text, 6, '0'), 'Bench project ' || i,
      (ARRAY['master_plan','ground_up','conversion','capital_improvement'])[1 + i % 4],
      CASE WHEN i % 10 = 9 THEN 'on_hold' WHEN i % 20 = 18 THEN 'cancelled' ELSE 'active' END,
      (ARRAY['initiation','feasibility','design','permitting','award','construction','closeout'])[1 + i % 7],
      'owner-' || (i % 25), (ARRAY['North','South','East','West'])[1 + i % 4], '', 'bench', now(), now(),
      i % 100, current_date + ((i % 60) - 30), current_date - (i % 25)
    FROM generate_series(1, ${count}) i`.execute(db);
  await sql`INSERT INTO project_stages (project_id, stage, seq)
    SELECT d.id, s.stage, s.seq FROM development_projects d CROSS JOIN ${STAGE_VALUES}`.execute(db);
}

/**
 * The work the report must not read, `perProject` of each kind per project: tasks (each with its
 * primary link), cost events (the budget triggers keep the lines and the project totals), weekly
 * updates at a quarter of that. Written in batches of one row per project per statement group.
 */
export async function seedWork(db: Db, perProject: number) {
  const step = 10;
  for (let from = 1; from <= perProject; from += step) {
    const to = Math.min(perProject, from + step - 1);
    await sql`WITH t AS (
        INSERT INTO tasks (id, project_id, title, status, percent_complete, created_by, created_at, updated_at)
        SELECT gen_random_uuid(), d.id, 'Task ' || g, (ARRAY['not_started','in_progress','blocked'])[1 + g % 3], g % 90,
          'bench', now(), now()
        FROM development_projects d CROSS JOIN generate_series(${from}::int, ${to}::int) g
        RETURNING id, project_id)
      INSERT INTO task_links (task_id, project_id, relationship_type, created_by, created_at)
      SELECT id, project_id, 'primary', 'bench', now() FROM t`.execute(db);
    await sql`INSERT INTO cost_events (id, project_id, category, kind, amount_minor, occurred_on, created_by, created_at)
      SELECT gen_random_uuid(), d.id, (ARRAY['design','construction','fees'])[1 + g % 3],
        CASE WHEN g % 2 = 0 THEN 'committed' ELSE 'actual' END, 1000 + g, current_date - g % 30, 'bench', now()
      FROM development_projects d CROSS JOIN generate_series(${from}::int, ${to}::int) g`.execute(db);
    await sql`INSERT INTO weekly_updates (id, project_id, week_of, summary, created_by, created_at)
      SELECT gen_random_uuid(), d.id, current_date - 7 * g, 'Bench update ' || g, 'bench', now()
      FROM development_projects d CROSS JOIN generate_series(${from}::int, ${to}::int) g WHERE g % 4 = 0`.execute(db);
  }
  // Budgets over the lines the events made: some projects over budget (health spread).
  await sql`UPDATE budget_lines SET budget_minor = CASE WHEN abs(hashtext(project_id::text)) % 7 = 0
    THEN actual_minor / 2 ELSE committed_minor * 2 END`.execute(db);
}

/** How many rows each seeded table holds. */
export async function seededCounts(db: Db) {
  const r = await sql<Record<string, number>>`SELECT
      (SELECT count(*)::int FROM development_projects) AS projects,
      (SELECT count(*)::int FROM tasks) AS tasks,
      (SELECT count(*)::int FROM cost_events) AS cost_events,
      (SELECT count(*)::int FROM weekly_updates) AS updates`.execute(db);
  return r.rows[0] as { projects: number; tasks: number; cost_events: number; updates: number };
}
