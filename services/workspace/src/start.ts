import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type WorkspaceConfig, workspaceConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';

/** Starts workspace: database and migrations, outbox publisher, HTTP. */
export async function startWorkspace(config: WorkspaceConfig = workspaceConfig(), shared: SharedInfrastructure = {}) {
  const runtime = await startRuntime<DB>({
    service: 'workspace',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    auth: config,
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_WORKSPACE, host: config.HOST })) };
}
