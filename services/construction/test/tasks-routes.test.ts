import { routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll } from 'vitest';
import { TASK_ROUTES } from '../src/routes/tasks.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';
import { TASK_EXAMPLES } from './route-examples/tasks.ts';

let h: Harness;
// biome-ignore lint/suspicious/noExplicitAny: forwarding to the harness made in beforeAll
const lazy = new Proxy({}, { get: (_t, k) => (h as any)[k] }) as Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());
routeChecks('17 construction tasks', {
  app: () => h.app,
  routes: TASK_ROUTES,
  examples: TASK_EXAMPLES(lazy),
  allowed: EDITOR,
  denied: READER,
  state: () => h.state(),
});
