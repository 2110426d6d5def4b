import { runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { agentsAuthenticator, callerPolicy } from './auth.ts';
import { type AgentsConfig, agentsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { DB } from './store/db.ts';

/** The mailbox domain of this environment (AGT-024). */
export const mailDomainOf = (cfg: AgentsConfig) =>
  cfg.AGENTS_ENVIRONMENT === 'prod' ? cfg.AGENTS_MAIL_DOMAIN_PROD : cfg.AGENTS_MAIL_DOMAIN;

/** Starts the agents service: its authenticator (a bad configuration stops here), database and migrations, outbox publisher, HTTP. */
export async function startAgents(config: AgentsConfig = agentsConfig(), shared: SharedInfrastructure = {}) {
  const runtime = await startRuntime<DB>({
    service: 'agents',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    authenticator: agentsAuthenticator(config),
  });
  const app = await buildApp({
    database: runtime.database,
    authenticator: runtime.authenticator,
    callers: callerPolicy(config),
    mailDomain: mailDomainOf(config),
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_AGENTS, host: config.HOST })) };
}
