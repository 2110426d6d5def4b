import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { devFid, freePort } from '@platform/kit';
import { rowCounts, testDatabase } from '@platform/kit/testing';
import type { ClientMetadata } from 'oidc-provider';
import { buildApp } from '../src/app.ts';
import { loadClientDefinitions } from '../src/clients/load.ts';
import { toClientMetadata } from '../src/clients/metadata.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { newKeyMaterial } from '../src/oauth/keys.ts';
import type { UpstreamSettings } from '../src/oauth/upstream.ts';
import type { DB } from '../src/store/db.ts';
import { seedDevPrincipals } from '../src/store/seed.ts';

export const AUDIENCE = 'urn:platform:api';
export const SERVICE_TOKEN = 'test-service-token';
export const GATEWAY_AUDIENCE = 'vendors-app';
export const CLIENTS_DIR = fileURLToPath(new URL('../../../config/clients', import.meta.url));
export const ADMIN = 'admin@dev.local';
export const SUPERADMIN = 'superadmin@dev.local';
export const CONTROLLER = 'controller@dev.local';
export const STAFF = 'staff@dev.local';
export const fid = devFid;

/**
 * Identity on a fresh database with the local client definitions and the dev principals seeded,
 * listening on a real loopback port (the issuer names it). Extra clients (e.g. one that is not
 * first-party, which the definition file would refuse) are registered unchecked.
 */
export async function identityHarness(
  opts: {
    extraClients?: ClientMetadata[];
    clock?: () => Date;
    /** A port chosen beforehand, when an upstream must know identity's callback first. */
    port?: number;
    upstream?: UpstreamSettings;
  } = {},
) {
  const database = await testDatabase<DB>('identity', MIGRATIONS);
  const port = opts.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clients = loadClientDefinitions(CLIENTS_DIR, 'local', AUDIENCE).map((d) => toClientMetadata(d, {}, 'local'));
  const devPeople = await seedDevPrincipals(database.db);
  const keys = await newKeyMaterial();
  const app = await buildApp({
    database,
    issuer,
    audience: AUDIENCE,
    clients: [...clients, ...(opts.extraClients ?? [])],
    keys,
    gatewayAudiences: [GATEWAY_AUDIENCE],
    serviceToken: SERVICE_TOKEN,
    devAuth: true,
    devPeople: async () => devPeople,
    upstream: opts.upstream,
    clock: opts.clock,
    logLevel: 'silent',
  });
  await app.listen({ port, host: '127.0.0.1' });

  /** A request as a dev principal (or none); commands get a fresh Idempotency-Key unless given one. */
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    as: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const h: Record<string, string> = { ...headers };
    if (as) h['x-dev-principal'] = as;
    if (method !== 'GET' && !('idempotency-key' in h)) h['idempotency-key'] = randomUUID();
    const res = await app.inject({
      method,
      url,
      headers: h,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the answer holds
    return { status: res.statusCode, body: res.json() as any, headers: res.headers };
  };

  return {
    app,
    database,
    issuer,
    keys,
    call,
    /** Everything an identity command could write. */
    state: () => rowCounts(database.db, ['people', 'grants', 'outbox', 'idempotency_keys']),
    async close() {
      await app.close();
      await database.close();
    },
  };
}
