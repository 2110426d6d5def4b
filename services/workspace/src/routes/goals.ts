import type { RouteModule } from './deps.ts';

export const goalRoutes: RouteModule = (_app, _deps) => {};
