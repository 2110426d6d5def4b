import type { RouteModule } from './deps.ts';

/** The usage routes (spec 3, Broker). */
export const usageRoutes: RouteModule = (_app, _deps) => {};
