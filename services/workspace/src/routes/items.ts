import type { RouteModule } from './deps.ts';

export const itemRoutes: RouteModule = (_app, _deps) => {};
