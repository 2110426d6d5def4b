import type { RouteModule } from './deps.ts';

export const viewRoutes: RouteModule = (_app, _deps) => {};
