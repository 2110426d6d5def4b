import { type Authenticator, createServiceApp, type Database } from '@platform/kit';
import { events } from './events.ts';
import { accountRoutes } from './routes/accounts.ts';
import { type RouteDeps, type Routes, register } from './routes/deps.ts';
import { journalRoutes } from './routes/journal.ts';
import { legalEntityRoutes } from './routes/legal-entities.ts';
import { periodRoutes } from './routes/periods.ts';
import { reportRoutes } from './routes/reports.ts';
import type { DB } from './store/db.ts';

/** Every route accounting serves, as declarations (issue 15.4): the route checks run over them. */
export const ROUTES: Routes = [
  ...accountRoutes,
  ...legalEntityRoutes,
  ...journalRoutes,
  ...periodRoutes,
  ...reportRoutes,
];

export interface AccountingDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** The server clock; tests pass their own to stand at chosen instants. */
  clock?: () => Date;
  logLevel?: string;
}

export async function buildApp(deps: AccountingDeps) {
  const routeDeps: RouteDeps = { database: deps.database, clock: deps.clock ?? (() => new Date()), events };
  return createServiceApp({
    service: 'accounting',
    title: 'Accounting',
    description: 'Charts of accounts, journal entries, legal-entity calendars, periods, balances and reports',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    routes: (app) => register(app, routeDeps, ROUTES),
  });
}
