import type { RouteModule } from './deps.ts';

/** The savings routes (spec 3, Broker). */
export const savingsRoutes: RouteModule = (_app, _deps) => {};
