import { BUDGET_ROUTES } from './budgets.ts';
import { CATALOG_ROUTES } from './catalog.ts';
import { CREDENTIAL_ROUTES } from './credentials.ts';
import type { Routes } from './deps.ts';
import { PEOPLE_ROUTES } from './people.ts';
import { ROUTING_ROUTES } from './routing.ts';
import { SAVINGS_ROUTES } from './savings.ts';
import { USAGE_ROUTES } from './usage.ts';

/**
 * Every route the broker serves as declarations (issue 15.4), registered together by app.ts; the
 * route checks run over them. The relay's (RELAY_ROUTES, routes/relay.ts) are declared too but
 * registered in their own scope, which reads bodies as raw bytes; the OAuth token exchange and the
 * JWKS (routes/oauth.ts) are not declarations (see there).
 */
export const ROUTES: Routes = [
  ...CATALOG_ROUTES,
  ...PEOPLE_ROUTES,
  ...USAGE_ROUTES,
  ...SAVINGS_ROUTES,
  ...BUDGET_ROUTES,
  ...ROUTING_ROUTES,
  ...CREDENTIAL_ROUTES,
];
