import type { RouteModule } from './deps.ts';

/** The budgets routes (spec 3, Broker). */
export const budgetRoutes: RouteModule = (_app, _deps) => {};
