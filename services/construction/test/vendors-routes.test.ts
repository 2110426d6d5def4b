import { routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { vendorRoutes } from '../src/routes/vendors.ts';
import { everyFirmActive } from './fakes/vendors.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';
import { VENDORS_EXAMPLES } from './route-examples/vendors.ts';

// The shared checks over this area's command routes alone (the lead's routes.test.ts runs every area's).
let h: Harness;
beforeAll(async () => {
  h = await harness({ app: { vendors: everyFirmActive } });
});
afterAll(async () => {
  await h.close_();
});
// The examples are declared before the harness exists: they reach it only when a check runs.
const later = new Proxy({} as Harness, { get: (_, key) => h[key as keyof Harness] });

describe('17 construction: the checks of the vendor-work command routes', () => {
  routeChecks('construction vendors', {
    app: () => h.app,
    routes: vendorRoutes,
    examples: VENDORS_EXAMPLES(later),
    allowed: EDITOR,
    denied: READER,
    state: () => h.state(),
  });
});
