import { type RouteExample, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import { memoryDocuments } from './fakes/documents.ts';
import { everyFirmActive } from './fakes/vendors.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';
import { ATTACHMENTS_EXAMPLES } from './route-examples/attachments.ts';
import { BUDGET_EXAMPLES } from './route-examples/budget.ts';
import { DOCUMENTS_EXAMPLES } from './route-examples/documents.ts';
import { PLAN_ITEMS_EXAMPLES } from './route-examples/plan-items.ts';
import { PROJECTS_EXAMPLES } from './route-examples/projects.ts';
import { REGISTERS_EXAMPLES } from './route-examples/registers.ts';
import { TASK_EXAMPLES } from './route-examples/tasks.ts';
import { VARIATIONS_EXAMPLES } from './route-examples/variations.ts';
import { VENDORS_EXAMPLES } from './route-examples/vendors.ts';

/**
 * The kit's route checks over every command construction declares (issue 15.4): 401 without
 * identity, 403 for a reader outside CONSTRUCTION_EDITORS, 400 without an Idempotency-Key, a replay
 * of the same request, 409 for a key reused with another body, and nothing written on each refusal.
 */
let h: Harness;
// The examples are built before beforeAll runs: they reach the harness through this forwarder.
// biome-ignore lint/suspicious/noExplicitAny: forwarding to the harness made in beforeAll
const lazy = new Proxy({}, { get: (_t, k) => (h as any)[k] }) as Harness;
beforeAll(async () => {
  h = await harness({ app: { documents: memoryDocuments(), vendors: everyFirmActive } });
});
afterAll(async () => h.close_());

const examples: Record<string, RouteExample> = {
  ...PROJECTS_EXAMPLES(lazy),
  ...PLAN_ITEMS_EXAMPLES(lazy),
  ...BUDGET_EXAMPLES(lazy),
  ...TASK_EXAMPLES(lazy),
  ...DOCUMENTS_EXAMPLES(lazy),
  ...ATTACHMENTS_EXAMPLES(lazy),
  ...VARIATIONS_EXAMPLES(lazy),
  ...REGISTERS_EXAMPLES(lazy),
  ...VENDORS_EXAMPLES(lazy),
};
const rules = { unauthenticated: 'CON-179', forbidden: 'CON-183', missingKey: 'CON-003' };

routeChecks('17 construction', {
  app: () => h.app,
  routes: ROUTES,
  examples: Object.fromEntries(Object.entries(examples).map(([k, ex]) => [k, { rules, ...ex }])),
  allowed: EDITOR,
  denied: READER,
  state: () => h.state(),
});
