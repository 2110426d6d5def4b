import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

describe('17 construction serves the platform routes', () => {
  it('17 CON-005 GET / answers the discovery document', async () => {
    const r = await h.call('GET', '/', EDITOR);
    expect(r.status).toBe(200);
  });
  it('17 CON-009 GET /healthz answers 200', async () => {
    const r = await h.call('GET', '/healthz', null);
    expect(r.status).toBe(200);
  });
  it('17 harness state counts every table of the schema', async () => {
    const s = (await h.state()) as Record<string, number>;
    expect(Object.keys(s)).toContain('development_projects');
  });
});
