import type { RouteModule } from './deps.ts';

/** The people routes (spec 3, Broker). */
export const peopleRoutes: RouteModule = (_app, _deps) => {};
