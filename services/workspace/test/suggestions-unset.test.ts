import { afterAll, beforeAll, expect, it } from 'vitest';
import { EDITOR, type Harness, harness } from './harness.ts';

/** A workspace without INTELLIGENCE_URL (its own file: one app per test file). */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

it('16 WS-367 without the intelligence service configured, suggestions answer degraded: true and an empty list', async () => {
  await h.team(); // EDITOR may file onto it
  const c = await h.call('POST', '/v1/conversations', EDITOR, { data: {} });
  const r = await h.call('GET', `/v1/conversations/${c.data.id}/suggestions`, EDITOR);
  expect(r.status).toBe(200);
  expect(r.data).toEqual({ conversation_id: c.data.id, degraded: true, suggestions: [] });
});
