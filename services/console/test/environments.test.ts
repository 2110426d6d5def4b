import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await consoleHarness({ env: { EU_CORE_DATABASE_URL: '' } });
});
afterAll(() => h.close());

describe('GET /v1/environments', () => {
  it('21 OPS-001 OPS-002 OPS-005 OPS-006 OPS-009 lists ENV and every catalog leaf; eu/core not ready', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/environments', headers: h.headers('viewer') });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.header).toBeDefined();
    const data = body.payload.data;
    expect(data.env).toBe('dev');
    expect(data.caller).toEqual({ email: 'viewer@ops.test', role: 'viewer' });
    const leaves = data.subscriptions.map(
      (s: { region: string; subscription: string }) => `${s.region}/${s.subscription}`,
    );
    expect(leaves).toEqual(h.registry.leaves().map((l) => `${l.region}/${l.subscription}`));
    const eu = data.subscriptions.find((s: { region: string }) => s.region === 'eu');
    expect(eu.ready).toBe(false);
    expect(eu.parts.flags).toBeNull();
  });
});
