import { join } from 'node:path';
import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { brokerAuthenticator } from './auth.ts';
import { type BrokerConfig, brokerConfig, loadCatalog, providerEndpoints } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';
import { TokenSigner } from './tokens.ts';

/** Starts the broker: database and migrations, outbox publisher, HTTP. */
export async function startBroker(config: BrokerConfig = brokerConfig(), shared: SharedInfrastructure = {}) {
  const catalog = loadCatalog(config);
  const endpoints = providerEndpoints(catalog, config.env);
  const signer = config.BROKER_SIGNING_KEY
    ? await TokenSigner.fromPem(config.BROKER_SIGNING_KEY, config.BROKER_TOKEN_ISSUER)
    : undefined;
  const runtime = await startRuntime<DB>({
    service: 'broker',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    authenticator: brokerAuthenticator(config, { signer }),
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    catalog,
    endpoints,
    signer,
    workspaceUrl: config.WORKSPACE_URL,
    serviceToken: config.SERVICE_TOKEN,
    budgetCacheMs: config.BROKER_BUDGET_CACHE_MS,
    usageSyncCommit: config.BROKER_USAGE_SYNC_COMMIT,
    usageJournalDir: config.BROKER_USAGE_JOURNAL ? join(config.PLATFORM_DATA_DIR, 'broker-usage-journal') : undefined,
    relay: {
      anthropicVersion: config.ANTHROPIC_VERSION,
      connectTimeoutMs: config.BROKER_UPSTREAM_CONNECT_MS,
      headersTimeoutMs: config.BROKER_UPSTREAM_HEADERS_MS,
    },
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_BROKER, host: config.HOST })) };
}
