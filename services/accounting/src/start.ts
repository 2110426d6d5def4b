import { join } from 'node:path';
import { type Bus, type SharedPglite, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type AccountingConfig, accountingConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';

/** Starts accounting: database and migrations, outbox publisher, HTTP. */
export async function startAccounting(
  config: AccountingConfig = accountingConfig(),
  shared: { pglite?: Promise<SharedPglite>; bus?: Bus } = {},
) {
  const runtime = await startRuntime({
    service: 'accounting',
    migrations: MIGRATIONS,
    databaseUrl: config.DATABASE_URL,
    dataDir: join(config.PLATFORM_DATA_DIR, 'pglite'),
    pglite: shared.pglite,
    busUrl: config.BUS_URL,
    bus: shared.bus,
    auth: config,
    devPrincipalsFile: config.DEV_PRINCIPALS_FILE,
    outboxPollMs: config.OUTBOX_POLL_MS,
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    logLevel: config.LOG_LEVEL,
  });
  await app.listen({ port: config.PORT_ACCOUNTING, host: config.HOST });
  return {
    app,
    runtime,
    url: `http://${config.HOST}:${(app.server.address() as { port: number }).port}`,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
