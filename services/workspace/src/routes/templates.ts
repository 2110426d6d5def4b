import type { RouteModule } from './deps.ts';

export const templateRoutes: RouteModule = (_app, _deps) => {};
