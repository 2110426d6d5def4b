import type { RouteModule } from './deps.ts';

/** The routing routes (spec 3, Broker). */
export const routingRoutes: RouteModule = (_app, _deps) => {};
