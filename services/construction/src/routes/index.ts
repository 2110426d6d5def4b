import { BUDGET_ROUTES } from './budget.ts';
import type { Routes } from './deps.ts';
import { PLAN_ITEM_ROUTES } from './plan-items.ts';

/**
 * Every route construction serves, as declarations: the route checks run over them. Each area's
 * module adds its array here.
 */
export const ROUTES: Routes = [...PLAN_ITEM_ROUTES, ...BUDGET_ROUTES];
