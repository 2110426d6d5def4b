import { type Authenticator, createServiceApp, type Database, type EmitHook, type PolicyInputs } from '@platform/kit';
import type { BrokerClient } from './clients/broker.ts';
import type { SkillDocuments } from './clients/documents.ts';
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
  /** Waits, at most boundMs, for a reconcile pass begun after the call (start and restart answer after one). */
  settle?: (boundMs: number) => Promise<void>;
  /** Runs after every emit of a command, in its transaction (tests inject a fault after the outbox insert). */
  onEmit?: EmitHook<DB>;
  /** The model broker's relay (on-demand calls); unset: 503 broker_not_configured. */
  broker?: BrokerClient;
  /** The documents service (skill archives); unset: archive routes answer 503 skills_storage_unavailable. */
  documents?: SkillDocuments;
}

export async function buildApp(deps: AgentsDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    can: agentsCan(deps.callers),
    clock: deps.clock ?? (() => new Date()),
    events,
    mailDomain: deps.mailDomain,
    nudge: deps.nudge,
    settle: deps.settle,
    onEmit: deps.onEmit,
    broker: deps.broker,
    documents: deps.documents,
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
    routes: (app) => {
      const nudge = deps.nudge;
      // Every command that answered 2xx has committed: the reconciler looks at once (starts, stops,
      // saves, deletes, swarms all change what should run; a pass with nothing to do only reads).
      if (nudge) {
        app.addHook('onResponse', async (req, reply) => {
          if (req.method !== 'GET' && req.method !== 'HEAD' && reply.statusCode < 300) nudge();
        });
      }
      return register(app, routeDeps, ROUTES);
    },
  });
}
