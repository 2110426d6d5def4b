import { type Authenticator, createServiceApp, type Database, type PolicyInputs } from '@platform/kit';
import { agentsCan } from './domain/permissions.ts';
import { events } from './events.ts';
import { type RouteDeps, register } from './routes/deps.ts';
import { ROUTES } from './routes/index.ts';
import type { DB } from './store/db.ts';

export interface AgentsDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** The gateway audience (callerPolicy(config)). */
  callers: PolicyInputs;
  /** The mailbox domain of this environment (AGENTS_ENVIRONMENT: prod or not). */
  mailDomain: string;
  /** The server clock; tests pass their own. */
  clock?: () => Date;
  logLevel?: string;
  /** SWAGGER_ON: serve the interactive docs at /api-docs. */
  swaggerOn?: boolean;
  /** Wakes the reconciler after a command that changed what should run has committed. */
  nudge?: () => void;
}

export async function buildApp(deps: AgentsDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    can: agentsCan(deps.callers),
    clock: deps.clock ?? (() => new Date()),
    events,
    mailDomain: deps.mailDomain,
    nudge: deps.nudge,
  };
  return createServiceApp({
    service: 'agents',
    title: 'Agents',
    description:
      'Agents with owners, members, mailboxes, instructions, models, harnesses, skills and tools; their life cycle, ' +
      'wakes, runs, logs, memories, checkpoints and sources; skills with versions; the harness and tool registry; the audit log',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    security: ['gateway', 'bearer', 'serviceToken', 'devPrincipal'],
    routes: (app) => register(app, routeDeps, ROUTES),
  });
}
