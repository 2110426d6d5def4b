import { type Authenticator, createServiceApp, type Database, type PolicyInputs } from '@platform/kit';
import type { Documents } from './clients/documents.ts';
import type { Vendors } from './clients/vendors.ts';
import { recordActivity } from './commands/activity.ts';
import { constructionCan } from './domain/permissions.ts';
import { events } from './events.ts';
import { type RouteDeps, register } from './routes/deps.ts';
import { ROUTES } from './routes/index.ts';
import type { DB } from './store/db.ts';

export interface ConstructionDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** The gateway audience and who may change (callerPolicy(config)). */
  callers: PolicyInputs;
  /** The server clock; tests pass their own to stand at chosen days. */
  clock?: () => Date;
  logLevel?: string;
  /** SWAGGER_ON: serve the interactive docs at /api-docs. */
  swaggerOn?: boolean;
  /** The vendors service's client (CONSTRUCTION_VENDORS_URL); absent: firm checks answer 502 vendors_unavailable. */
  vendors?: Vendors;
  /** The documents service's client (CONSTRUCTION_DOCUMENTS_URL); absent: attachment routes answer 503. */
  documents?: Documents;
}

export async function buildApp(deps: ConstructionDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    can: constructionCan(deps.callers),
    clock: deps.clock ?? (() => new Date()),
    events,
    vendors: deps.vendors,
    documents: deps.documents,
    // Every emitted event about a project writes its activity row in the command's transaction.
    onEmit: recordActivity,
  };
  return createServiceApp({
    service: 'construction',
    title: 'Construction',
    description:
      'Development projects through seven stages: plan, packages, milestones, tasks, document control, variations and baselines, budget, registers, vendor assignments and attachments',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    security: ['gateway', 'bearer', 'serviceToken', 'devPrincipal'],
    routes: (app) => register(app, routeDeps, ROUTES),
  });
}
