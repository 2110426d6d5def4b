import { type Authenticator, chain, createServiceApp, type Database, schedulerTokenAuthenticator } from '@platform/kit';
import { withBreakGlass } from './auth/break-glass.ts';
import type { ModelClient } from './clients/broker.ts';
import type { Communications } from './clients/communications.ts';
import type { Documents } from './clients/documents.ts';
import type { Intelligence } from './clients/intelligence.ts';
import type { Recorder } from './clients/recorder.ts';
import type { Transcriber } from './clients/transcription.ts';
import { recordActivity } from './commands/activity.ts';
import { events } from './events.ts';
import { addAudioBodyParser } from './routes/audio-slices.ts';
import { type RouteDeps, register } from './routes/deps.ts';
import { ROUTES } from './routes/index.ts';
import { JOBS_PREFIX, jobRouteOn } from './routes/jobs.ts';
import type { JobSettings } from './routes/jobs-deps.ts';
import type { DB } from './store/db.ts';

export interface WorkspaceDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** The server clock; tests pass their own to stand at chosen instants. */
  clock?: () => Date;
  logLevel?: string;
  /** SWAGGER_ON: serve the interactive docs at /api-docs. */
  swaggerOn?: boolean;
  /** The intelligence service's client (INTELLIGENCE_URL); absent: conversation suggestions answer degraded. */
  intelligence?: Intelligence;
  /** REDACTION_APPROVAL_KEY; absent: approving a redaction is 503. */
  redactionApprovalKey?: string;
  /** The model broker's client (BROKER_URL); absent: digests and packs answer without model text, degraded. */
  model?: ModelClient;
  /** The documents service's client (DOCUMENTS_URL); absent: the output upload path answers 503. */
  documents?: Documents;
  /** The communications service's client (COMMUNICATIONS_URL); absent: sharing a presentation answers 503. */
  communications?: Communications;
  /** The recorder partner's client (RECORDER_URL and RECORDER_PARTNER_SECRET); absent: recorder tokens and devices answer 503. */
  recorder?: Recorder;
  /** Transcription through the broker (BROKER_URL and a transcription model); absent: audio slices answer 503. */
  transcriber?: Transcriber;
  /** SCHEDULER_TOKEN: X-Platform-Scheduler-Token opens the internal job routes; absent: they are not registered (404). */
  schedulerToken?: string;
  /** The internal jobs' releases and clients (used only with schedulerToken). */
  jobs?: JobSettings;
}

export async function buildApp(deps: WorkspaceDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    clock: deps.clock ?? (() => new Date()),
    events,
    intelligence: deps.intelligence,
    redactionApprovalKey: deps.redactionApprovalKey,
    // Every emitted feed event writes its activity row in the command's transaction.
    onEmit: recordActivity,
    model: deps.model,
    documents: deps.documents,
    communications: deps.communications,
    recorder: deps.recorder,
    transcriber: deps.transcriber,
    jobs: deps.schedulerToken ? (deps.jobs ?? { summarizer: false, questionMessaging: false }) : undefined,
  };
  const clock = routeDeps.clock;
  return createServiceApp({
    service: 'workspace',
    title: 'Workspace',
    description: 'Projects, tasks (items), goals with check-ins, saved views and change following',
    database: deps.database,
    // The scheduler's token opens only the job routes (DECISIONS item 8); a live break-glass grant
    // makes its holder a platform admin (issue 19, expire-grants).
    authenticator: chain(
      schedulerTokenAuthenticator({ token: deps.schedulerToken, routes: [`${JOBS_PREFIX}*`] }),
      withBreakGlass(deps.authenticator, deps.database, clock),
    ),
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    routes: (app) => {
      addAudioBodyParser(app);
      register(
        app,
        routeDeps,
        ROUTES.filter((r) => jobRouteOn(r.url, routeDeps.jobs)),
      );
    },
  });
}
