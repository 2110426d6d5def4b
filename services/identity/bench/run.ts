import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  MIGRATIONS as ACCOUNTING_MIGRATIONS,
  type AccountingDB,
  buildApp as buildAccounting,
} from '@platform/accounting';
import {
  authenticatorFromConfig,
  closePglite,
  devFid,
  freePort,
  KIT_MIGRATIONS,
  type KitTables,
  migrate,
  openDatabase,
  openPglite,
} from '@platform/kit';
import { closedLoop, round } from '@platform/kit/testing';
import type { JWK } from 'jose';
import { Pool } from 'undici';
import { buildApp } from '../src/app.ts';
import { loadClientDefinitions } from '../src/clients/load.ts';
import { toClientMetadata } from '../src/clients/metadata.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { newKeyMaterial } from '../src/oauth/keys.ts';
import type { DB } from '../src/store/db.ts';
import { seedDevPrincipals } from '../src/store/seed.ts';
import { signAccessToken } from '../test/tokens.ts';

/**
 * The identity benchmark: `npm run bench -w services/identity`.
 *
 * 1. Token verification at a service: requests per second of GET /v1/accounts on the accounting
 *    service with a platform bearer token (signature, issuer, audience, expiry, grants from
 *    identity over HTTP, cached) against the same route as a dev principal (DEV_AUTH, no token),
 *    same process, same run, alternating rounds. Goal: bearer / dev >= 0.8.
 * 2. client_credentials token issuance per second at POST /oauth2/token (information).
 *
 * Knobs: BENCH_REQUESTS (per round, 4000), BENCH_ROUNDS (3), BENCH_CLIENTS (16), BENCH_STRICT=1
 * (exit 1 when the goal is missed). Writes bench/results/identity.json.
 */
const env = process.env;
const REQUESTS = Number(env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(env.BENCH_CLIENTS ?? 16);
const AUDIENCE = 'urn:platform:api';
const SERVICE_TOKEN = 'bench-service-token';
const CLIENTS_DIR = fileURLToPath(new URL('../../../config/clients', import.meta.url));

const pglite = openPglite('memory://');
const open = async <T extends KitTables>(schema: string, migrations: typeof MIGRATIONS) => {
  const database = await openDatabase<T>({ schema, pglite: await pglite });
  await migrate(database.db, [...KIT_MIGRATIONS, ...migrations]);
  return database;
};

const identityDb = await open<DB>('identity', MIGRATIONS);
await seedDevPrincipals(identityDb.db);
// The issuer names the port, so it is chosen before the server listens.
const identityPort = await freePort();
const issuer = `http://127.0.0.1:${identityPort}`;
const keys = await newKeyMaterial();
const idApp = await buildApp({
  database: identityDb,
  issuer,
  audience: AUDIENCE,
  clients: loadClientDefinitions(CLIENTS_DIR, 'local', AUDIENCE).map((d) => toClientMetadata(d, {}, 'local')),
  keys,
  serviceToken: SERVICE_TOKEN,
  logLevel: 'silent',
});
await idApp.listen({ port: identityPort, host: '127.0.0.1' });

const accountingDb = await open<AccountingDB>('accounting', ACCOUNTING_MIGRATIONS);
const accounting = await buildAccounting({
  database: accountingDb,
  authenticator: authenticatorFromConfig({
    DEV_AUTH: true,
    AUTH_ISSUER: issuer,
    PLATFORM_AUDIENCE: AUDIENCE,
    SERVICE_TOKEN,
    GRANTS_CACHE_MS: 30_000,
  }),
  logLevel: 'silent',
});
await accounting.listen({ port: 0, host: '127.0.0.1' });
const accountingUrl = `http://127.0.0.1:${(accounting.server.address() as { port: number }).port}`;

// A person's token, as the sign-in would issue it: client_credentials is the quickest real token,
// but accounting lists accounts for finance roles only, so sign the controller's token with the
// issuer's own key instead (same key, same claims shape as oidc-provider's).
const bearer = await signAccessToken(keys.signing[0] as JWK, {
  issuer,
  audience: AUDIENCE,
  sub: devFid('controller@dev.local'),
});

const pool = new Pool(accountingUrl, { connections: CLIENTS, pipelining: 1, keepAliveTimeout: 60_000 });
const get = (headers: Record<string, string>) => async () => {
  const res = await pool.request({ method: 'GET', path: '/v1/accounts', headers });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`GET /v1/accounts: ${res.statusCode}`);
};
const dev = get({ 'x-dev-principal': 'controller@dev.local' });
const withToken = get({ authorization: `Bearer ${bearer}` });

const rounds: { dev: number; bearer: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const d = await closedLoop(CLIENTS, r === 0 ? 2000 : 300, REQUESTS, dev);
  const b = await closedLoop(CLIENTS, r === 0 ? 2000 : 300, REQUESTS, withToken);
  rounds.push({ dev: d.perSecond, bearer: b.perSecond });
}
const devRps = rounds.reduce((s, r) => s + r.dev, 0) / rounds.length;
const bearerRps = rounds.reduce((s, r) => s + r.bearer, 0) / rounds.length;
const ratio = bearerRps / devRps;

// client_credentials issuance.
const idPool = new Pool(issuer, { connections: 8, pipelining: 1 });
const basic = `Basic ${Buffer.from('payments:local-secret-payments').toString('base64')}`;
const issue = async () => {
  const res = await idPool.request({
    method: 'POST',
    path: '/oauth2/token',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode}`);
};
const cc = await closedLoop(8, 1000, Number(env.BENCH_TOKENS ?? 2000), issue);

const result = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version },
  verification: {
    route: 'GET /v1/accounts (accounting, PGlite)',
    clients: CLIENTS,
    requests_per_round: REQUESTS,
    rounds: rounds.map((r) => ({ dev: round(r.dev, 1), bearer: round(r.bearer, 1) })),
    dev_rps: round(devRps, 1),
    bearer_rps: round(bearerRps, 1),
    ratio: round(ratio, 3),
    goal: '>= 0.8',
    met: ratio >= 0.8,
  },
  client_credentials: { tokens_per_second: round(cc.perSecond, 1), clients: 8 },
};
console.table([
  { measure: 'dev header GET /v1/accounts (req/s)', value: result.verification.dev_rps },
  { measure: 'bearer token GET /v1/accounts (req/s)', value: result.verification.bearer_rps },
  { measure: 'ratio bearer/dev (goal >= 0.8)', value: result.verification.ratio },
  { measure: 'client_credentials tokens/s', value: result.client_credentials.tokens_per_second },
]);
mkdirSync(fileURLToPath(new URL('./results', import.meta.url)), { recursive: true });
writeFileSync(
  fileURLToPath(new URL('./results/identity.json', import.meta.url)),
  `${JSON.stringify(result, null, 2)}\n`,
);

await pool.close();
await idPool.close();
await accounting.close();
await idApp.close();
await closePglite(await pglite);
if (env.BENCH_STRICT === '1' && !result.verification.met) process.exit(1);
