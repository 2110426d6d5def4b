import { type Authenticator, createServiceApp, type Database } from '@platform/kit';
import type { ModelClient } from './clients/broker.ts';
import type { Communications } from './clients/communications.ts';
import type { Documents } from './clients/documents.ts';
import type { Intelligence } from './clients/intelligence.ts';
import type { Recorder } from './clients/recorder.ts';
import { recordActivity } from './commands/activity.ts';
import { events } from './events.ts';
import { type RouteDeps, register } from './routes/deps.ts';
import { ROUTES } from './routes/index.ts';
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
  };
  return createServiceApp({
    service: 'workspace',
    title: 'Workspace',
    description: 'Projects, tasks (items), goals with check-ins, saved views and change following',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    routes: (app) => register(app, routeDeps, ROUTES),
  });
}
