import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { project, task } from './fixtures/documents.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

/** Construction without CONSTRUCTION_DOCUMENTS_URL (no documents client): issue 17. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close_();
});

it('17 CON-178 CONSTRUCTION_DOCUMENTS_URL unset: every attachment route answers 503 attachments_unavailable, nothing written', async () => {
  const t = await task(h, await project(h));
  const before = await h.state();
  const answers = [
    await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'plan.pdf' } }, null),
    await h.call('POST', '/v1/attachments', EDITOR, {
      data: { record_type: 'task', record_id: t, blob_name: 'plan_x.pdf', filename: 'plan.pdf' },
    }),
    await h.call('GET', `/v1/attachments?record_type=task&record_id=${t}`, READER),
    await h.call('GET', `/v1/attachments/${randomUUID()}/url`, READER),
  ];
  expect(answers.map((r) => [r.status, r.errors[0].code])).toEqual(
    Array.from({ length: 4 }, () => [503, 'attachments_unavailable']),
  );
  expect(await h.state()).toEqual(before);
});
