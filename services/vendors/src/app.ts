import { type Authenticator, createServiceApp, type Database, type PolicyInputs } from '@platform/kit';
import { vendorsCan } from './domain/permissions.ts';
import { events } from './events.ts';
import { contactRoutes } from './routes/contacts.ts';
import type { RouteDeps } from './routes/deps.ts';
import { firmRoutes } from './routes/firms.ts';
import { insuranceRoutes } from './routes/insurance.ts';
import { portalRoutes } from './routes/portal.ts';
import type { DB } from './store/db.ts';

export interface VendorsDeps {
  database: Database<DB>;
  authenticator: Authenticator;
  /** Which gateway audiences are employees' and contacts', and who may change (callerPolicy(config)). */
  callers: PolicyInputs;
  /** The server clock; tests pass their own to stand at chosen days. */
  clock?: () => Date;
  logLevel?: string;
}

export async function buildApp(deps: VendorsDeps) {
  const routeDeps: RouteDeps = {
    database: deps.database,
    can: vendorsCan(deps.callers),
    clock: deps.clock ?? (() => new Date()),
    events,
  };
  return createServiceApp({
    service: 'vendors',
    title: 'Vendors',
    description: 'Firms, the contacts who sign in to the vendor portal, and insurance certificates',
    database: deps.database,
    authenticator: deps.authenticator,
    logLevel: deps.logLevel,
    // The caller table of spec 1, plus the platform access token spec 2 makes valid everywhere (issue 14.2).
    security: ['gateway', 'bearer', 'serviceToken', 'devPrincipal'],
    routes: (app) => {
      for (const routes of [firmRoutes, contactRoutes, insuranceRoutes, portalRoutes]) routes(app, routeDeps);
    },
  });
}
