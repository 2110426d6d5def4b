import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { callerPolicy, constructionAuthenticator } from './auth.ts';
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
  });
  return { ...(await serve(app, runtime, { port: config.PORT_CONSTRUCTION, host: config.HOST })) };
}
