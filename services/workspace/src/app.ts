import { type Authenticator, createServiceApp, type Database } from '@platform/kit';
import { recordActivity } from './commands/activity.ts';
import { events } from './events.ts';
import { changeRoutes } from './routes/changes.ts';
import type { RouteDeps } from './routes/deps.ts';
import { goalRoutes } from './routes/goals.ts';
import { itemEditRoutes } from './routes/item-edits.ts';
import { itemTypeRoutes } from './routes/item-types.ts';
import { itemRoutes } from './routes/items.ts';
import { memberRoutes } from './routes/members.ts';
import { projectRoutes } from './routes/projects.ts';
import { templateRoutes } from './routes/templates.ts';
import { viewRoutes } from './routes/views.ts';
import type { DB } from './store/db.ts';

export interface WorkspaceDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** The server clock; tests pass their own to stand at chosen instants. */
  clock?: () => Date;
  logLevel?: string;
  /** SWAGGER_ON: serve the interactive docs at /api-docs. */
  swaggerOn?: boolean;
}

/** Each area's routes; later areas (cases, handoffs, conversations, evidence, jobs) add theirs here. */
const AREAS = [
  projectRoutes,
  templateRoutes,
  memberRoutes,
  itemTypeRoutes,
  itemRoutes,
  itemEditRoutes,
  goalRoutes,
  viewRoutes,
  changeRoutes,
];

export async function buildApp(deps: WorkspaceDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    clock: deps.clock ?? (() => new Date()),
    events,
    // Every emitted feed event writes its activity row in the command's transaction.
    onEmit: recordActivity,
  };
  return createServiceApp({
    service: 'workspace',
    title: 'Workspace',
    description: 'Projects, tasks (items), goals with check-ins, saved views and change following',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    apiDocs: deps.swaggerOn ?? false,
    routes: (app) => {
      for (const routes of AREAS) routes(app, routeDeps);
    },
  });
}
