import type { RouteModule } from './deps.ts';

export const changeRoutes: RouteModule = (_app, _deps) => {};
