import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { callerPolicy, type VendorsAuthOptions, vendorsAuthenticator } from './auth.ts';
import { type VendorsConfig, vendorsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';

/** Starts vendors: its authenticator (a bad configuration stops here), database and migrations, outbox publisher, HTTP. */
export async function startVendors(
  config: VendorsConfig = vendorsConfig(),
  shared: SharedInfrastructure = {},
  auth: VendorsAuthOptions = {},
) {
  const runtime = await startRuntime<DB>({
    service: 'vendors',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    authenticator: vendorsAuthenticator(config, auth),
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    callers: callerPolicy(config),
    logLevel: config.LOG_LEVEL,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_VENDORS, host: config.HOST })) };
}
