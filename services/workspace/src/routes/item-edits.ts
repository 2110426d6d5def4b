import type { RouteModule } from './deps.ts';

export const itemEditRoutes: RouteModule = (_app, _deps) => {};
