import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

describe('platform conventions', () => {
  it('BRK-005 GET / answers the discovery document', async () => {
    const r = await h.call('GET', '/', null);
    expect(r.status).toBe(200);
    expect(r.data.service).toBe('broker');
  });
  it('BRK-009 GET /healthz answers 200', async () => {
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
  });
});
