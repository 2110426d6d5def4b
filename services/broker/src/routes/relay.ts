import type { RouteModule } from './deps.ts';

/** The relay routes (spec 3, Broker). */
export const relayRoutes: RouteModule = (_app, _deps) => {};
