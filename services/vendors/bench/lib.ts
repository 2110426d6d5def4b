import { type Database, emptyDirectory } from '@platform/kit';
import { type BenchKind, benchDatabase as kitBenchDatabase, listenOnFreePort } from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { callerPolicy, vendorsAuthenticator } from '../src/auth.ts';
import { vendorsConfig } from '../src/config.ts';
import { DISCIPLINES, KINDS } from '../src/domain/firms.ts';
import { COVERAGES } from '../src/domain/insurance.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';

/** Shared pieces of the vendors benchmark: databases, the server, seeding. */

export type Kind = BenchKind;

/** A freshly migrated vendors database: in-memory PGlite, or a fresh schema on DATABASE_URL. */
export const benchDatabase = (kind: Kind) => kitBenchDatabase<DB>('vendors', MIGRATIONS, kind);

export const BENCH_AUD = 'vendors-bench-app';
export const BENCH_EMAIL = 'reader@bench.test';

/**
 * The real app on 127.0.0.1 (a free port), its callers proving themselves as in production: an
 * access-gateway token for the internal application, verified against the gateway's keys.
 */
export async function startServer(database: Database<DB>, clock: () => Date) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256' }] });
  const config = vendorsConfig({ VENDORS_ACCESS_AUD: BENCH_AUD, LOG_LEVEL: 'silent' });
  const app = await buildApp({
    database,
    authenticator: vendorsAuthenticator(config, { gatewayJwks: jwks, directory: emptyDirectory }),
    callers: callerPolicy(config),
    clock,
    logLevel: 'silent',
  });
  const server = await listenOnFreePort(app);
  const token = await new SignJWT({ email: BENCH_EMAIL })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setAudience(BENCH_AUD)
    .setSubject('bench-reader')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  return {
    url: server.url,
    headers: { 'cf-access-jwt-assertion': token },
    close: () => app.close(),
  };
}

const list = (values: readonly string[]) => sql`${sql.lit(`{${values.join(',')}}`)}::text[]`;

/**
 * Firms [from, to) written straight to the tables, as a bulk load would: every tenth inactive;
 * each with 1-4 coverages and 1-3 certificates per coverage, yearly from 2023 on, starting on a
 * day spread over half a year. Like any bulk load it sets the current-certificate trigger aside
 * and rebuilds the kept tables afterwards (rebuildCurrent); the tests prove the triggers keep
 * the same rows one write at a time.
 */
export async function seedFirms(db: Db, seed: string, from: number, to: number) {
  await db.transaction().execute(async (trx) => {
    await sql`ALTER TABLE certificates DISABLE TRIGGER certificates_current`.execute(trx);
    await sql`INSERT INTO firms (id, name, kind, discipline, status, created_by)
      SELECT md5(${seed} || 'f' || g)::uuid, 'Bench firm ' || ${seed} || ' ' || lpad(g::text, 7, '0'),
        (${list(KINDS)})[1 + g % ${KINDS.length}], (${list(DISCIPLINES)})[1 + g % ${DISCIPLINES.length}],
        CASE WHEN g % 10 = 0 THEN 'inactive' ELSE 'active' END, 'bench'
      FROM generate_series(${from}::int, ${to - 1}::int) g`.execute(trx);
    await sql`INSERT INTO certificates (id, firm_id, coverage, policy_number, insurer, starts_on, expires_on, recorded_by)
      SELECT md5(${seed} || 'c' || g || '-' || c || '-' || k)::uuid, md5(${seed} || 'f' || g)::uuid,
        (${list(COVERAGES)})[1 + (g + c * 3) % ${COVERAGES.length}], 'P-' || g || '-' || c || '-' || k, 'Bench Mutual',
        s.starts_on, s.starts_on + 364 + (g * 7 + c) % 90, 'bench'
      FROM generate_series(${from}::int, ${to - 1}::int) g
        CROSS JOIN LATERAL generate_series(1, 1 + g % 4) c
        CROSS JOIN LATERAL generate_series(1, 1 + (g + c) % 3) k
        CROSS JOIN LATERAL (SELECT (date '2023-01-01' + (k - 1) * 365 + (g * 13 + c * 29) % 180) AS starts_on) s`.execute(
      trx,
    );
    await sql`ALTER TABLE certificates ENABLE TRIGGER certificates_current`.execute(trx);
  });
}

/**
 * The kept tables rebuilt set-based from certificates and firms, by the same definition the
 * triggers keep (latest start, then latest recorded, then id; active = firm active).
 */
export async function rebuildCurrent(db: Db) {
  await db.transaction().execute(async (trx) => {
    await sql`ALTER TABLE current_certificates DISABLE TRIGGER current_certificates_counted`.execute(trx);
    await sql`TRUNCATE current_certificates, current_expiry_counts`.execute(trx);
    await sql`INSERT INTO current_certificates (firm_id, coverage, certificate_id, starts_on, expires_on, recorded_at, active)
      SELECT DISTINCT ON (c.firm_id, c.coverage) c.firm_id, c.coverage, c.id, c.starts_on, c.expires_on, c.recorded_at,
        f.status = 'active'
      FROM certificates c JOIN firms f ON f.id = c.firm_id
      ORDER BY c.firm_id, c.coverage, c.starts_on DESC, c.recorded_at DESC, c.id DESC`.execute(trx);
    await sql`INSERT INTO current_expiry_counts (coverage, expires_on, certificates)
      SELECT coverage, expires_on, count(*) FROM current_certificates WHERE active GROUP BY 1, 2`.execute(trx);
    await sql`ALTER TABLE current_certificates ENABLE TRIGGER current_certificates_counted`.execute(trx);
  });
}

/** Row counts, and whether the kept counts agree with the current certificates of active firms. */
export async function seededCounts(db: Db) {
  const r = await sql<{ firms: number; certificates: number; current: number; listed: number; counted: number }>`
    SELECT (SELECT count(*)::int FROM firms) AS firms,
      (SELECT count(*)::int FROM certificates) AS certificates,
      (SELECT count(*)::int FROM current_certificates) AS current,
      (SELECT count(*)::int FROM current_certificates WHERE active) AS listed,
      (SELECT coalesce(sum(certificates), 0)::int FROM current_expiry_counts) AS counted`.execute(db);
  return r.rows[0];
}
