import { type Authenticator, createServiceApp, type Database, type EmitHook, type PolicyInputs } from '@platform/kit';
import type { BrokerClient } from './clients/broker.ts';
import type { ReadOnlyChecks } from './clients/checks.ts';
import type { ResidentDirectory } from './clients/directory.ts';
import type { SkillDocuments } from './clients/documents.ts';
import type { GitHost } from './clients/git-host.ts';
import type { PropertyConnector } from './clients/property-management.ts';
import type { TrackerClient } from './clients/tracker.ts';
import type { WorkspaceReader } from './clients/workspace.ts';
import type { BriefSettings } from './commands/briefs.ts';
import type { CoachingSettings } from './commands/coaching-job.ts';
import { agentsCan } from './domain/permissions.ts';
import { events } from './events.ts';
import { JOBS_PREFIX, type RouteDeps, register } from './routes/deps.ts';
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
  /** The issue tracker (TRACKER_URL, TRACKER_EMAIL, TRACKER_API_TOKEN); unset: tracker tools answer 503 tracker_not_configured. */
  tracker?: TrackerClient;
  /** The git host (GITHUB_TOKEN, TRACKER_GITHUB_ORG); unset: tracker/reports answers 503 git_host_not_configured. */
  gitHost?: GitHost;
  /** The read-only checks of tracker/investigate (CHECK_<KIND>_URL and _TOKEN); any unset: 503 checks_not_configured. */
  checks?: ReadOnlyChecks;
  /** The workspace API read on a person's behalf (briefs, coaching); unset: their jobs cannot read anyone's data. */
  workspace?: WorkspaceReader;
  /** SCHEDULER_TOKEN: set, the internal job routes (/internal/jobs/*) are registered; unset, they are absent (404). */
  schedulerToken?: string;
  /** Weekly coaching's COACH_* settings (recipients, communication recipients, model). */
  coaching?: CoachingSettings;
  /** Daily briefs' BRIEF_* settings (recipients, model, concurrency). */
  briefs?: BriefSettings;
  /** The property-management connector (PM_CONNECTOR_URL + PM_CONNECTOR_TOKEN); unset: its tools answer 503. */
  propertyConnector?: PropertyConnector;
  /** The resident directory (DIRECTORY_URL + DIRECTORY_TOKEN); unset: fill_pms_emails_from_directory answers 503. */
  directory?: ResidentDirectory;
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
    tracker: deps.tracker,
    gitHost: deps.gitHost,
    checks: deps.checks,
    workspace: deps.workspace,
    coaching: deps.coaching,
    briefs: deps.briefs,
    propertyConnector: deps.propertyConnector,
    directory: deps.directory,
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
      // The internal jobs exist only while the scheduler has a token to call them with.
      return register(
        app,
        routeDeps,
        ROUTES.filter((r) => deps.schedulerToken || !r.url.startsWith(JOBS_PREFIX)),
      );
    },
  });
}
