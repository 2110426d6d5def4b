import { type RouteExample, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import { type Harness, harness, OWNER } from './harness.ts';
import { AGENTS_EXAMPLES } from './route-examples/agents.ts';
import { BRIEFS_EXAMPLES } from './route-examples/briefs.ts';
import { COACHING_EXAMPLES } from './route-examples/coaching.ts';
import { LIFECYCLE_EXAMPLES } from './route-examples/lifecycle.ts';
import { MEMBERS_EXAMPLES } from './route-examples/members.ts';
import { RECORDS_EXAMPLES } from './route-examples/records.ts';
import { SKILLS_EXAMPLES } from './route-examples/skills.ts';
import { SWARMS_EXAMPLES } from './route-examples/swarms.ts';
import { startTrackerFakes, TRACKER_EXAMPLES, type TrackerFakes } from './route-examples/tracker.ts';
import { WAKES_EXAMPLES } from './route-examples/wakes.ts';

/**
 * The kit's route checks over every command the agents service declares: 401 without identity,
 * 400 without an Idempotency-Key, a replay of the same request, 409 for a key reused with another
 * body or on another path, and nothing written on each refusal. Every signed-in person passes the
 * policy (staff); a route whose role check refuses a viewer names one as `denied` in its example.
 */
let h: Harness;
// The examples are built before beforeAll runs: they reach the harness through this forwarder.
// biome-ignore lint/suspicious/noExplicitAny: forwarding to the harness made in beforeAll
const lazy = new Proxy({}, { get: (_t, k) => (h as any)[k] }) as Harness;
let trackerFakes: TrackerFakes;
beforeAll(async () => {
  trackerFakes = await startTrackerFakes();
  h = await harness({ app: { ...trackerFakes.deps } });
});
afterAll(async () => {
  await h.close_();
  await trackerFakes.close();
});

const examples: Record<string, RouteExample> = {
  ...AGENTS_EXAMPLES(lazy),
  ...LIFECYCLE_EXAMPLES(lazy),
  ...MEMBERS_EXAMPLES(lazy),
  ...RECORDS_EXAMPLES(lazy),
  ...SKILLS_EXAMPLES(lazy),
  ...SWARMS_EXAMPLES(lazy),
  ...TRACKER_EXAMPLES(lazy, () => trackerFakes),
  ...WAKES_EXAMPLES(lazy),
  ...COACHING_EXAMPLES(lazy),
  ...BRIEFS_EXAMPLES(lazy),
};
const rules = { unauthenticated: 'AGT-311', forbidden: 'AGT-325', missingKey: 'AGT-003' };

routeChecks('18 agents', {
  app: () => h.app,
  routes: ROUTES,
  examples: Object.fromEntries(Object.entries(examples).map(([k, ex]) => [k, { rules, ...ex }])),
  allowed: OWNER,
  denied: null,
  state: () => h.state(),
});
