import { BUS_ROUTES } from './bus.ts';
import { CLUSTER_ROUTES, TERMINAL_ROUTE } from './cluster.ts';
import type { RawRouteModule, Routes } from './deps.ts';
import { ENVIRONMENT_ROUTES } from './environments.ts';
import { FLAG_ROUTES } from './flags.ts';
import { LOG_ROUTES } from './logs.ts';
import { OUTBOX_ROUTES } from './outbox.ts';
import { RELEASE_ROUTES } from './releases.ts';
import { SQL_ROUTES } from './sql.ts';

/**
 * Every route the console declares, registered together by app.ts; the role-matrix test walks
 * them. Each area appends its array here.
 */
export const ROUTES: Routes = [
  ...ENVIRONMENT_ROUTES,
  ...RELEASE_ROUTES,
  ...FLAG_ROUTES,
  ...LOG_ROUTES,
  ...OUTBOX_ROUTES,
  ...SQL_ROUTES,
  ...BUS_ROUTES,
  ...CLUSTER_ROUTES,
];

/**
 * Routes registered by hand (WebSocket upgrades): each calls `requires(role)` itself and sets
 * `config: { queryToken: true }` when it takes ?access_token=.
 */
export const RAW_ROUTES: readonly RawRouteModule[] = [TERMINAL_ROUTE];
