import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { callerPolicy, constructionAuthenticator } from './auth.ts';
import { HttpDocuments } from './clients/documents.ts';
import { HttpVendors } from './clients/vendors-http.ts';
import { type ConstructionConfig, constructionConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';

/** Starts construction: its authenticator (a bad configuration stops here), database and migrations, outbox publisher, HTTP. */
export async function startConstruction(
  config: ConstructionConfig = constructionConfig(),
  shared: SharedInfrastructure = {},
) {
  const runtime = await startRuntime<DB>({
    service: 'construction',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    authenticator: constructionAuthenticator(config),
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    callers: callerPolicy(config),
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
    vendors: config.CONSTRUCTION_VENDORS_URL
      ? new HttpVendors({
          baseUrl: config.CONSTRUCTION_VENDORS_URL,
          serviceToken: config.CONSTRUCTION_VENDORS_SERVICE_TOKEN,
          timeoutMs: config.CONSTRUCTION_UPSTREAM_TIMEOUT_MS,
        })
      : undefined,
    documents: config.CONSTRUCTION_DOCUMENTS_URL
      ? new HttpDocuments({
          baseUrl: config.CONSTRUCTION_DOCUMENTS_URL,
          timeoutMs: config.CONSTRUCTION_UPSTREAM_TIMEOUT_MS,
        })
      : undefined,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_CONSTRUCTION, host: config.HOST })) };
}
