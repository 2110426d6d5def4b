import type { RouteModule } from './deps.ts';

/** The credentials routes (spec 3, Broker). */
export const credentialRoutes: RouteModule = (_app, _deps) => {};
