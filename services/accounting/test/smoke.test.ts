import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER, type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('smoke', () => {
  it('creates, posts and reports', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    expect(p.post_month).toBe('2025-06-01');
    const tb = await h.call('GET', `/v1/trial-balance?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(tb.status).toBe(200);
    expect(tb.data.totals).toEqual({ debit: 1000, credit: 1000 });
  });
});
