import type { RouteModule } from './deps.ts';

export const itemTypeRoutes: RouteModule = (_app, _deps) => {};
