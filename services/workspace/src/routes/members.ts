import type { RouteModule } from './deps.ts';

export const memberRoutes: RouteModule = (_app, _deps) => {};
