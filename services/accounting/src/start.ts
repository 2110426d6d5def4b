import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type AccountingConfig, accountingConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';

/** Starts accounting: database and migrations, outbox publisher, HTTP. */
export async function startAccounting(
  config: AccountingConfig = accountingConfig(),
  shared: SharedInfrastructure = {},
) {
  const runtime = await startRuntime<DB>({
    service: 'accounting',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    auth: config,
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    logLevel: config.LOG_LEVEL,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_ACCOUNTING, host: config.HOST })) };
}
