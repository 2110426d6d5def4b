import {
  devFid,
  principalDirectory,
  runtimeFromConfig,
  type SharedInfrastructure,
  serve,
  startRuntime,
} from '@platform/kit';
import { buildApp } from './app.ts';
import { auditOnPublished, startAuditListener } from './audit/listener.ts';
import { agentsAuthenticator, callerPolicy } from './auth.ts';
import { httpBroker } from './clients/broker.ts';
import { httpResidentDirectory } from './clients/directory.ts';
import { HttpDocuments } from './clients/documents.ts';
import { httpPropertyConnector } from './clients/property-management.ts';
import { trackerClientsFromConfig } from './clients/tracker-config.ts';
import { httpWorkspace } from './clients/workspace.ts';
import { COACHING_CONCURRENCY } from './commands/coaching-job.ts';
import { type AgentsConfig, agentsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import type { Runner } from './runner/port.ts';
import type { RunnerLog } from './runner/process.ts';
import { Reconciler } from './runner/reconciler.ts';
import { runnerFromConfig } from './runner/select.ts';
import type { DB } from './store/db.ts';

/** The mailbox domain of this environment (AGT-024). */
export const mailDomainOf = (cfg: AgentsConfig) =>
  cfg.AGENTS_ENVIRONMENT === 'prod' ? cfg.AGENTS_MAIL_DOMAIN_PROD : cfg.AGENTS_MAIL_DOMAIN;

/**
 * A person's FID by email for the workspace reads (tasks name assignees by FID): the identity
 * service's directory when configured, else the platform's stable FID of the email (DECISIONS item 3).
 */
function personIdOf(config: AgentsConfig): (email: string) => Promise<string> {
  const directory = principalDirectory(config, { devPrincipalsFile: config.DEV_PRINCIPALS_FILE });
  return async (email) => {
    const known = await directory?.byEmail(email).catch(() => null);
    return known?.kind === 'person' ? known.id : devFid(email);
  };
}

/** Starts the agents service: its authenticator (a bad configuration stops here), database and migrations, outbox publisher, HTTP. */
export async function startAgents(config: AgentsConfig = agentsConfig(), shared: SharedInfrastructure = {}) {
  const runtime = await startRuntime<DB>({
    service: 'agents',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
    authenticator: agentsAuthenticator(config),
    // The audit log: one row per published event, by the publisher or the bus listener below (AGT-345).
    onPublished: auditOnPublished,
  });
  // The runner needs this server's address (the process runner's default), known once it listens;
  // commands committed before then are picked up by the reconciler's first pass.
  let reconciler: Reconciler | undefined;
  let runner: Runner | undefined;
  const app = await buildApp({
    nudge: () => reconciler?.nudge(),
    settle: (boundMs) => reconciler?.settle(boundMs) ?? Promise.resolve(),
    database: runtime.database,
    authenticator: runtime.authenticator,
    callers: callerPolicy(config),
    mailDomain: mailDomainOf(config),
    logLevel: config.LOG_LEVEL,
    swaggerOn: config.SWAGGER_ON,
    schedulerToken: config.SCHEDULER_TOKEN,
    briefs: {
      recipients: config.BRIEF_RECIPIENTS,
      model: config.BRIEF_MODEL,
      concurrency: config.BRIEF_CONCURRENCY,
      personId: personIdOf(config),
    },
    workspace: config.AGENTS_WORKSPACE_URL
      ? httpWorkspace({
          baseUrl: config.AGENTS_WORKSPACE_URL,
          serviceToken: config.SERVICE_TOKEN,
          timeoutMs: config.AGENTS_UPSTREAM_TIMEOUT_MS,
        })
      : undefined,
    coaching: {
      recipients: config.COACH_RECIPIENTS,
      communication: config.COACH_COMMUNICATION_RECIPIENTS,
      model: config.COACH_MODEL,
      concurrency: COACHING_CONCURRENCY,
    },
    broker: config.AGENTS_BROKER_URL
      ? httpBroker({
          baseUrl: config.AGENTS_BROKER_URL,
          serviceToken: config.SERVICE_TOKEN,
          timeoutMs: config.AGENTS_UPSTREAM_TIMEOUT_MS,
        })
      : undefined,
    documents: config.AGENTS_DOCUMENTS_URL
      ? new HttpDocuments({
          baseUrl: config.AGENTS_DOCUMENTS_URL,
          serviceToken: config.SERVICE_TOKEN,
          timeoutMs: config.AGENTS_UPSTREAM_TIMEOUT_MS,
        })
      : undefined,
    ...trackerClientsFromConfig(config),
    // Each outside system only with its address and its credential: either missing is 503 on its tools.
    propertyConnector:
      config.PM_CONNECTOR_URL && config.PM_CONNECTOR_TOKEN
        ? httpPropertyConnector({
            baseUrl: config.PM_CONNECTOR_URL,
            token: config.PM_CONNECTOR_TOKEN,
            timeoutMs: config.AGENTS_UPSTREAM_TIMEOUT_MS,
          })
        : undefined,
    directory:
      config.DIRECTORY_URL && config.DIRECTORY_TOKEN
        ? httpResidentDirectory({
            baseUrl: config.DIRECTORY_URL,
            token: config.DIRECTORY_TOKEN,
            timeoutMs: config.AGENTS_UPSTREAM_TIMEOUT_MS,
          })
        : undefined,
  });
  const stopAuditListener = await startAuditListener(runtime.bus, runtime.database.db);
  app.addHook('onClose', async () => {
    await stopAuditListener();
  });
  // Requests in flight finish first (app.close), then the reconciler's last pass, then the runner
  // (the process runner reaps its children); the database closes after (serve's close).
  app.addHook('onClose', async () => {
    await reconciler?.stop();
    await runner?.close?.();
  });
  const served = await serve(app, runtime, { port: config.PORT_AGENTS, host: config.HOST });
  try {
    runner = runnerFromConfig(config, served.url, app.log as unknown as RunnerLog);
  } catch (e) {
    await served.close();
    throw e;
  }
  reconciler = new Reconciler({
    database: runtime.database,
    runner,
    intervalMs: config.AGENTS_RECONCILE_MS,
    onError: (e) => app.log.warn({ err: e }, 'agents reconcile pass failed; the next one tries again'),
  });
  reconciler.start();
  return { ...served, reconciler, runner };
}
