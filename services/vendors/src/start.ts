import { join } from 'node:path';
import { type Bus, type SharedPglite, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { callerPolicy, type VendorsAuthOptions, vendorsAuthenticator } from './auth.ts';
import { type VendorsConfig, vendorsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';

/** Starts vendors: its authenticator (a bad configuration stops here), database and migrations, outbox publisher, HTTP. */
export async function startVendors(
  config: VendorsConfig = vendorsConfig(),
  shared: { pglite?: Promise<SharedPglite>; bus?: Bus } = {},
  auth: VendorsAuthOptions = {},
) {
  const runtime = await startRuntime({
    service: 'vendors',
    migrations: MIGRATIONS,
    databaseUrl: config.DATABASE_URL,
    dataDir: join(config.PLATFORM_DATA_DIR, 'pglite'),
    pglite: shared.pglite,
    busUrl: config.BUS_URL,
    bus: shared.bus,
    authenticator: vendorsAuthenticator(config, auth),
    outboxPollMs: config.OUTBOX_POLL_MS,
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    callers: callerPolicy(config),
    logLevel: config.LOG_LEVEL,
  });
  await app.listen({ port: config.PORT_VENDORS, host: config.HOST });
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
