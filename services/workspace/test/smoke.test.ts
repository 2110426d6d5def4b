import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, fid, type Harness, harness, OUTSIDER, OWNER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('projects', () => {
  it('WS-030 WS-031 any signed-in person creates a project and becomes its owner', async () => {
    const p = await h.project();
    expect(p.role).toBe('owner');
    expect(p.created_by).toBe(fid(OWNER));
    expect(p.workflow).toBe('product_development');
    const r = await h.call('GET', `/v1/projects/${p.id}`, OUTSIDER);
    expect(r.status).toBe(404);
    const a = await h.call('GET', `/v1/projects/${p.id}`, ADMIN);
    expect(a.status).toBe(200);
    expect(a.data.role).toBeNull();
  });
});
