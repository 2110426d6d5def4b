import { defineEvents, type EventOf } from '@platform/kit';
import { BUDGET_EVENTS } from './events/budget.ts';
import { DOCUMENT_EVENTS } from './events/documents.ts';
import { PLAN_ITEM_EVENTS } from './events/plan-items.ts';
import { PROJECT_EVENTS } from './events/projects.ts';
import { REGISTER_EVENTS } from './events/registers.ts';
import { TASK_EVENTS } from './events/tasks.ts';
import { VARIATION_EVENTS } from './events/variations.ts';
import { VENDOR_EVENTS } from './events/vendors.ts';

/**
 * The construction service's events (spec 3 shows none; docs/decisions.md lists them): the only
 * ones its commands may emit. Each area declares its own in src/events/<area>.ts.
 */
export const events = defineEvents('construction', {
  ...PROJECT_EVENTS,
  ...REGISTER_EVENTS,
  ...PLAN_ITEM_EVENTS,
  ...BUDGET_EVENTS,
  ...DOCUMENT_EVENTS,
  ...TASK_EVENTS,
  ...VARIATION_EVENTS,
  ...VENDOR_EVENTS,
});
export type ConstructionEvent = EventOf<typeof events>;
