import type { RouteModule } from './deps.ts';

/** The catalog routes (spec 3, Broker). */
export const catalogRoutes: RouteModule = (_app, _deps) => {};
