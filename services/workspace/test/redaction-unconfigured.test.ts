import { afterAll, beforeAll, expect, it } from 'vitest';
import { EDITOR, type Harness, harness, OWNER, REDACTION_KEY } from './harness.ts';

/** A workspace without REDACTION_APPROVAL_KEY (its own file: one app per test file). */
let h: Harness;
beforeAll(async () => {
  h = await harness({ app: { redactionApprovalKey: undefined } });
});
afterAll(async () => h.close_());

it('16 WS-374 redaction approval with the approval key unset is refused: 503, nothing destroyed', async () => {
  const p = await h.team();
  const c = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
  const turnsUrl = `/v1/conversations/${c.id}/turns`;
  h.expectStatus('turn', await h.call('POST', turnsUrl, EDITOR, { data: { text: 'Keep me' } }), 201);
  const request = (await h.call('POST', `${turnsUrl}/1/redaction`, EDITOR, { data: {} })).data;
  const before = await h.state();
  for (const key of [REDACTION_KEY, 'anything']) {
    const r = await h.call('POST', `/v1/redactions/${request.id}/approve`, OWNER, { data: { approval_key: key } });
    expect(r.status).toBe(503);
    expect(r.errors[0]?.code).toBe('redaction_approval_unconfigured');
  }
  expect(await h.state()).toEqual(before);
  const turns = await h.call('GET', turnsUrl, EDITOR);
  expect(turns.data[0]).toMatchObject({ text: 'Keep me', redacted: false });
  const listed = await h.call('GET', `/v1/projects/${p.id}/redactions`, OWNER);
  expect(listed.data[0]).toMatchObject({ id: request.id, status: 'pending' });
});
