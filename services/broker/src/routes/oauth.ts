import type { RouteModule } from './deps.ts';

/** The oauth routes (spec 3, Broker). */
export const oauthRoutes: RouteModule = (_app, _deps) => {};
