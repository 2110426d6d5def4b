import { randomUUID } from 'node:crypto';
import {
  type App,
  type Authenticator,
  chain,
  DevPrincipals,
  devFid,
  devHeaderAuthenticator,
  serviceTokenAuthenticator,
} from '@platform/kit';
import { injectJson, rowCount, rowCounts, testDatabase } from '@platform/kit/testing';
import { exportPKCS8, generateKeyPair } from 'jose';
import { type BrokerDeps, buildApp } from '../src/app.ts';
import type { ProviderEndpoint } from '../src/config.ts';
import { BUILT_IN_CATALOG, type Catalog } from '../src/domain/catalog.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { credentialTokenAuthenticator, TokenSigner } from '../src/tokens.ts';

/** A platform admin of config/dev-principals.json; every other email is a person with no grants. */
export const ADMIN = 'admin@dev.local';
export const STAFF = 'staff@broker.test';
export const OTHER = 'other@broker.test';
/** The shared service token the harness's app accepts (the agents service and its harness). */
export const SERVICE_TOKEN = 'test-service-token';
/** A person's FID, as the dev header gives it (DECISIONS item 3). */
export const fid = devFid;

export const tag = () => randomUUID().slice(0, 8);

/** A fresh EC P-256 signing key as BROKER_SIGNING_KEY holds it (PKCS#8 PEM). */
export async function signingKeyPem(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportPKCS8(privateKey);
}

/**
 * How a request proves who it is: an email (the dev header); {token} for a credential token;
 * {service: onBehalfOf?} for the shared service token; {headers} for exactly these; null for nothing.
 */
export type As = string | { token: string } | { service: string | null } | { headers: Record<string, string> } | null;

export const headersFor = (as: As): Record<string, string> => {
  if (as === null) return {};
  if (typeof as === 'string') return { 'x-dev-principal': as };
  if ('token' in as) return { authorization: `Bearer ${as.token}` };
  if ('service' in as) {
    return {
      'x-platform-service-token': SERVICE_TOKEN,
      ...(as.service ? { 'x-platform-on-behalf-of': as.service } : {}),
    };
  }
  return as.headers;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HarnessOptions extends Partial<Omit<BrokerDeps, 'database' | 'authenticator' | 'clock'>> {
  now?: string;
  /** false: no signing key (token routes answer 503). */
  signing?: boolean;
  /** Extra authentication sources tried first (e.g. an access gateway with test keys). */
  authenticators?: Authenticator[];
}

/** Every provider of the catalog pointed at `baseUrl` with a key, unless given endpoints. */
export const endpointsAt = (catalog: Catalog, baseUrl: string, key = 'test-key'): ProviderEndpoint[] =>
  catalog.providers.map((p) => ({ id: p.id, baseUrl, apiKey: key }));

/**
 * One broker app per test file on a fresh database: the dev header, the shared service token and
 * credential tokens sign callers in; the clock is the test's. `call` sends a request as someone;
 * commands (POST, PUT, DELETE) get a fresh Idempotency-Key unless given one (null sends none).
 */
export async function harness(opts: HarnessOptions = {}) {
  const database = await testDatabase<DB>('broker', MIGRATIONS);
  let now = new Date(opts.now ?? '2025-06-16T15:00:00Z');
  const clock = () => now;
  const signer =
    opts.signing === false ? undefined : await TokenSigner.fromPem(await signingKeyPem(), 'urn:test:broker');
  const directory = DevPrincipals.load();
  const catalog = opts.catalog ?? BUILT_IN_CATALOG;
  const app = await buildApp({
    ...opts,
    database,
    catalog,
    endpoints: opts.endpoints ?? endpointsAt(catalog, 'http://127.0.0.1:9/v1'),
    signer,
    authenticator: chain(
      ...(opts.authenticators ?? []),
      credentialTokenAuthenticator(signer, directory, () => now.getTime()),
      serviceTokenAuthenticator({ tokens: [SERVICE_TOKEN], directory }),
      devHeaderAuthenticator(directory),
    ),
    clock,
    logLevel: opts.logLevel ?? 'silent',
  });
  await app.ready();

  const call = (
    method: Method,
    url: string,
    as: As,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => injectJson(app as App, method as 'GET', url, { headers: headersFor(as), body, key });

  const expectStatus = (what: string, r: { status: number; body: unknown }, status: number) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  };

  const h = {
    app: app as App,
    database,
    db: database.db,
    catalog,
    signer,
    call,
    expectStatus,
    setNow: (isoTime: string) => {
      now = new Date(isoTime);
    },
    now: () => now,
    count: (table: string) => rowCount(database.db, table),
    counts: () =>
      rowCounts(database.db, [
        'identities',
        'usage_events',
        'usage_daily',
        'budget_overrides',
        'outbox',
        'idempotency_keys',
      ]),
    async close_() {
      await app.close();
      await database.drop();
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof harness>>;
