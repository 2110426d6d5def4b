import { randomBytes } from 'node:crypto';
import {
  closePglite,
  type Database,
  KIT_MIGRATIONS,
  migrate,
  openDatabase,
  openPglite,
  type SharedPglite,
} from '@platform/kit';
import { type BenchRun, benchEnv, gatewayKeys, median, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { consoleAuthenticator } from '../src/auth.ts';
import { consoleConfig } from '../src/config.ts';
import { outboxCounts } from '../src/outbox/store.ts';
import { ScopeDatabases } from '../src/scope/databases.ts';
import { registryFromConfig } from '../src/start.ts';

/**
 * Outbox counts: BENCH_OUTBOX_ROWS (1,000,000) outbox rows spread over BENCH_OUTBOX_SCHEMAS (4)
 * services' schemas (nine in ten published), then GET P/outbox through the console over HTTP
 * against the same counting statement run straight on the database; the ratio is direct time /
 * HTTP time, the median of BENCH_OUTBOX_ROUNDS (5) rounds (goal >= 0.5). On the embedded PGlite,
 * and on PostgreSQL (a fresh database on DATABASE_URL's server) when DATABASE_URL is set.
 */

const ISSUER = 'https://gateway.bench.test';
const AUD = 'console-bench';

async function fill(database: Database, rows: number) {
  await sql`
    INSERT INTO outbox (event_id, subject, event_type, payload, occurred_at, published_at)
    SELECT gen_random_uuid(), 'bench.thing.happened', 'thing.happened',
           jsonb_build_object('n', g), now() - make_interval(secs => g),
           CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
    FROM generate_series(1, ${rows}::int) g`.execute(database.db);
}

async function benchOne(run: BenchRun, kind: 'pglite' | 'postgres') {
  const total = benchEnv.num('BENCH_OUTBOX_ROWS', 1_000_000);
  const schemas = benchEnv.num('BENCH_OUTBOX_SCHEMAS', 4);
  const rounds = benchEnv.num('BENCH_OUTBOX_ROUNDS', 5);
  let pglite: SharedPglite | undefined;
  let url: string | undefined;
  let admin: pg.Client | undefined;
  const dbName = `console_bench_${randomBytes(4).toString('hex')}`;
  if (kind === 'pglite') pglite = await openPglite('memory://');
  else {
    const base = new URL(process.env.DATABASE_URL as string);
    admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    base.pathname = `/${dbName}`;
    url = base.toString();
  }
  const databases: Database[] = [];
  try {
    for (let i = 0; i < schemas; i++) {
      const d = await openDatabase({ schema: `svc${i}`, url, pglite, poolSize: 2 });
      await migrate(d.db, KIT_MIGRATIONS);
      await fill(d, Math.ceil(total / schemas));
      if (kind === 'postgres') await sql`ANALYZE outbox`.execute(d.db);
      databases.push(d);
    }
    if (pglite) await pglite.analyze();
    run.log(`outbox ${kind}: ${total} rows in ${schemas} schemas`);

    const keys = await gatewayKeys({ issuer: ISSUER, audience: AUD });
    const config = consoleConfig({
      ENV: 'dev',
      LOG_LEVEL: 'silent',
      CONSOLE_ACCESS_AUD: AUD,
      GATEWAY_ISSUER: ISSUER,
      ...(url ? { US_CORE_DATABASE_URL: url } : {}),
    });
    const registry = registryFromConfig(config, pglite ? { pglite: Promise.resolve(pglite) } : {});
    const app = await buildApp({
      config,
      authenticator: consoleAuthenticator(config, { gatewayJwks: keys.jwks }),
      registry,
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await keys.token('bench.viewer@ops.test');
    const direct = new ScopeDatabases();
    const scope = registry.resolve('us', 'core');
    try {
      const viaHttp = async () => {
        const t0 = performance.now();
        const res = await fetch(`${base}/v1/environments/us/core/outbox`, {
          headers: { 'cf-access-jwt-assertion': token },
        });
        const body = (await res.json()) as { payload: { data: { total: number }[] } };
        const ms = performance.now() - t0;
        const counted = body.payload.data.reduce((n, c) => n + c.total, 0);
        if (res.status !== 200 || counted < total) throw new Error(`outbox bench: HTTP ${res.status}, ${counted} rows`);
        return ms;
      };
      const straight = async () => {
        const t0 = performance.now();
        const counts = await direct.of(scope).session((s) => outboxCounts(s));
        const ms = performance.now() - t0;
        if (counts.reduce((n, c) => n + c.total, 0) < total) throw new Error('outbox bench: direct count short');
        return ms;
      };
      await viaHttp();
      await straight();
      const httpMs: number[] = [];
      const directMs: number[] = [];
      const ratios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const a = r % 2 === 0 ? await straight() : undefined;
        const h = await viaHttp();
        const d = a ?? (await straight());
        httpMs.push(h);
        directMs.push(d);
        ratios.push(d / h);
        run.log(`outbox ${kind} round ${r + 1}: direct ${round(d, 0)} ms, HTTP ${round(h, 0)} ms`);
      }
      const ratio = round(median(ratios));
      run.section(kind === 'pglite' ? 'PGlite' : 'PostgreSQL');
      run.row(`outbox counts, ${total} rows / ${schemas} schemas: the SQL direct`, `${round(median(directMs), 0)} ms`);
      run.row('outbox counts via GET P/outbox', `${round(median(httpMs), 0)} ms`);
      run.row('outbox direct / HTTP', String(ratio), '>= 0.5', run.goal(`outbox_ratio_${kind}`, ratio >= 0.5));
      return {
        rows: total,
        schemas,
        rounds,
        direct_ms: round(median(directMs), 0),
        http_ms: round(median(httpMs), 0),
        ratio,
        goal: 0.5,
      };
    } finally {
      await direct.close();
      await app.close();
    }
  } finally {
    for (const d of databases) await d.close();
    if (pglite) await closePglite(pglite);
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

/** The outbox section of the console benchmark: PGlite, then PostgreSQL when DATABASE_URL is set. */
export async function benchOutbox(run: BenchRun) {
  const out: Record<string, unknown> = { pglite: await benchOne(run, 'pglite') };
  if (process.env.DATABASE_URL) out.postgres = await benchOne(run, 'postgres');
  return out;
}
