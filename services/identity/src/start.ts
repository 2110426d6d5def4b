import { join } from 'node:path';
import { policyInputs, runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { POLICIES } from '@platform/policies';
import type { ClientMetadata, default as Provider } from 'oidc-provider';
import { buildApp } from './app.ts';
import { ClientRegistrationError } from './clients/definition.ts';
import { loadClientDefinitions } from './clients/load.ts';
import { toClientMetadata } from './clients/metadata.ts';
import { type IdentityConfig, identityConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import { keysFromConfig, loadOrCreateKeys } from './oauth/keys.ts';
import type { DB } from './store/db.ts';
import { sweepExpired } from './store/oidc-adapter.ts';
import { seedDevPrincipals } from './store/seed.ts';

/**
 * The authorization server checks a client's metadata only when the client is first used; check
 * every one now, so a definition it cannot serve stops start-up instead of a sign-in.
 */
async function checkRegistered(provider: Provider, clients: ClientMetadata[]) {
  for (const c of clients) {
    try {
      await provider.Client.find(c.client_id);
    } catch (e) {
      const why = (e as { error_description?: string }).error_description ?? (e as Error).message;
      throw new ClientRegistrationError(`client "${c.client_id}": the authorization server refuses it: ${why}`);
    }
  }
}

export const keysFile = (config: IdentityConfig) => join(config.PLATFORM_DATA_DIR, 'identity', 'keys.json');

/**
 * Starts identity: client definitions checked first (a bad file stops start-up naming the client
 * and the rule), then database, keys, the authorization server and HTTP.
 */
export async function startIdentity(
  config: IdentityConfig = identityConfig(),
  shared: SharedInfrastructure = {},
  env: Record<string, string | undefined> = process.env,
) {
  const definitions = loadClientDefinitions(config.CLIENTS_DIR, config.CLIENTS_ENV, config.PLATFORM_AUDIENCE);
  const clients = definitions.map((d) => toClientMetadata(d, env, config.CLIENTS_ENV));
  const stored = await loadOrCreateKeys(keysFile(config));
  const keys = config.SIGNING_KEYS ? keysFromConfig(config.SIGNING_KEYS, config.COOKIE_KEYS, stored.gateway) : stored;

  const runtime = await startRuntime<DB>({
    service: 'identity',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
  });
  const seeded = config.SEED_DEV_PRINCIPALS
    ? await seedDevPrincipals(runtime.database.db, config.DEV_PRINCIPALS_FILE)
    : [];
  const app = await buildApp({
    database: runtime.database,
    issuer: config.AUTH_ISSUER,
    audience: config.PLATFORM_AUDIENCE,
    clients,
    keys,
    sessionTtlSeconds: config.SESSION_TTL_SECONDS,
    gatewayAudiences: config.GATEWAY_AUDIENCES?.split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    serviceToken: config.SERVICE_TOKEN,
    serviceTokenPrevious: config.SERVICE_TOKEN_PREVIOUS,
    devAuth: config.DEV_AUTH,
    policyInputs: Object.fromEntries(Object.entries(POLICIES).map(([name, p]) => [name, policyInputs(p, config)])),
    devPeople: seeded.length ? async () => seeded : undefined,
    upstream: config.upstream,
    logLevel: config.LOG_LEVEL,
  });
  await checkRegistered(app.provider, clients);
  const sweep = setInterval(() => void sweepExpired(runtime.database.db).catch(() => {}), 10 * 60_000);
  sweep.unref();
  const started = await serve(app, runtime, { port: config.PORT_IDENTITY, host: config.HOST }, () =>
    clearInterval(sweep),
  );
  return { ...started, issuer: config.AUTH_ISSUER };
}
