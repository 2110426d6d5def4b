import { APPROVAL_ROUTES } from './approvals.ts';
import { attachmentRoutes } from './attachments.ts';
import { BUDGET_ROUTES } from './budget.ts';
import { DECISION_ROUTES } from './decisions.ts';
import type { Routes } from './deps.ts';
import { documentRoutes } from './documents.ts';
import { PLAN_ITEM_ROUTES } from './plan-items.ts';
import { PROJECT_ROUTES } from './project-area.ts';
import { RISK_ROUTES } from './risks.ts';
import { TASK_ROUTES } from './tasks.ts';
import { VARIATION_ROUTES } from './variations.ts';
import { vendorRoutes } from './vendors.ts';

/**
 * Every route construction serves, as declarations: the route checks run over them. Each area's
 * module adds its array here.
 */
export const ROUTES: Routes = [
  ...PROJECT_ROUTES,
  ...VARIATION_ROUTES,
  ...DECISION_ROUTES,
  ...APPROVAL_ROUTES,
  ...RISK_ROUTES,
  ...PLAN_ITEM_ROUTES,
  ...BUDGET_ROUTES,
  ...TASK_ROUTES,
  ...documentRoutes,
  ...attachmentRoutes,
  ...vendorRoutes,
];
