import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpDocuments } from '../src/clients/documents.ts';
import { fakeDocumentsServer } from './fakes/documents.ts';
import { act, project, registerDocument, startRevision, task } from './fixtures/documents.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

/**
 * Attachments through a documents service on a port (test/fakes/documents.ts) that answers as the
 * real one, fails with 500 or hangs: issue 17, spec 3 "Vendors and files".
 */
let h: Harness;
let docs: Awaited<ReturnType<typeof fakeDocumentsServer>>;
beforeAll(async () => {
  docs = await fakeDocumentsServer();
  h = await harness({ app: { documents: new HttpDocuments({ baseUrl: docs.url, timeoutMs: 300 }) } });
});
afterAll(async () => {
  await h?.close_();
  await docs?.close();
});
beforeEach(() => {
  docs.state.mode = 'ok';
});

const attach = (data: Record<string, unknown>, as = EDITOR) => h.call('POST', '/v1/attachments', as, { data });
const file = (record_type: string, record_id: string) => ({
  record_type,
  record_id,
  blob_name: `plan_${randomUUID()}.pdf`,
  filename: 'plan.pdf',
  content_type: 'application/pdf',
});
const listOf = async (record_type: string, record_id: string) => {
  const r = await h.call('GET', `/v1/attachments?record_type=${record_type}&record_id=${record_id}`, READER);
  expect(r.status).toBe(200);
  return r.data as { id: string; record_type: string; record_id: string; document_id: string }[];
};

describe('attachments', () => {
  it('17 CON-173 upload-url answers a short-lived link from the documents service, to PUT with x-ms-blob-type: BlockBlob', async () => {
    const r = await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'plan.pdf' } }, null);
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ upload_headers: { 'x-ms-blob-type': 'BlockBlob' } });
    expect(r.data.upload_url).toMatch(/^http:\/\/blob\.test\//);
    expect(Date.parse(r.data.expires_at)).toBeGreaterThan(Date.now());
    expect(docs.state.calls).toContain('POST /v1/documents/sas');
  });

  it('17 CON-174 CON-175 a file registered on a task and on a document revision is listed for its record; another record type is refused, nothing written', async () => {
    const p = await project(h);
    const t = await task(h, p);
    const d = await registerDocument(h);
    const rev = await startRevision(h, d.id);
    const onTask = await attach(file('task', t));
    expect(onTask.status).toBe(201);
    expect(onTask.data).toMatchObject({ record_type: 'task', record_id: t, filename: 'plan.pdf' });
    const onRevision = await attach(file('document_revision', rev.id));
    expect(onRevision.status).toBe(201);
    expect((await listOf('task', t)).map((a) => a.id)).toEqual([onTask.data.id]);
    expect((await listOf('document_revision', rev.id)).map((a) => a.id)).toEqual([onRevision.data.id]);
    for (const other of ['project', 'milestone', 'document']) {
      const before = await h.state();
      const calls = docs.state.calls.length;
      const r = await attach(file(other, t));
      expect([r.status, r.errors[0].code]).toEqual([422, 'validation_failed']);
      expect(await h.state()).toEqual(before);
      expect(docs.state.calls.length).toBe(calls);
    }
  });

  it('17 CON-176 GET /v1/attachments lists only that record’s files', async () => {
    const p = await project(h);
    const [a, b] = [await task(h, p), await task(h, p)];
    await attach(file('task', a));
    h.setNow('2026-03-02T12:00:01Z');
    await attach(file('task', a));
    await attach(file('task', b));
    const listed = await listOf('task', a);
    expect(listed).toHaveLength(2);
    expect(listed.every((x) => x.record_type === 'task' && x.record_id === a)).toBe(true);
    expect(await listOf('task', b)).toHaveLength(1);
  });

  it('17 CON-177 GET /v1/attachments/{id}/url asks the documents service for a fresh link', async () => {
    const p = await project(h);
    const t = await task(h, p);
    const a = await attach(file('task', t));
    const r = await h.call('GET', `/v1/attachments/${a.data.id}/url`, READER);
    expect(r.status).toBe(200);
    expect(r.data.url).toBe('http://blob.test/read?sig=r');
    expect(docs.state.calls).toContain(`GET /v1/documents/${a.data.document_id}`);
    const missing = await h.call('GET', `/v1/attachments/${randomUUID()}/url`, READER);
    expect([missing.status, missing.errors[0].code]).toEqual([404, 'attachment_not_found']);
  });

  it('17 CON-122 a revision past internal review takes no file: 409 revision_locked, nothing written', async () => {
    const d = await registerDocument(h);
    const rev = await startRevision(h, d.id, { straight_to_review: true });
    expect((await attach(file('document_revision', rev.id))).status).toBe(201);
    await act(h, rev.id, 'reviewed');
    for (const step of [null, 'submitted_for_approval', 'approved']) {
      if (step) await act(h, rev.id, step);
      const before = await h.state();
      const calls = docs.state.calls.length;
      const r = await attach(file('document_revision', rev.id));
      expect([r.status, r.errors[0].code]).toEqual([409, 'revision_locked']);
      expect(await h.state()).toEqual(before);
      expect(docs.state.calls.length).toBe(calls);
    }
  });

  it('17 CON-174 a retried registration (same Idempotency-Key) answers the stored attachment without asking documents again', async () => {
    const d = await registerDocument(h);
    const rev = await startRevision(h, d.id);
    const key = randomUUID();
    const body = { data: file('document_revision', rev.id) };
    const first = await h.call('POST', '/v1/attachments', EDITOR, body, key);
    expect(first.status).toBe(201);
    await act(h, rev.id, 'prepared');
    await act(h, rev.id, 'reviewed');
    const calls = docs.state.calls.length;
    const before = await h.state();
    const again = await h.call('POST', '/v1/attachments', EDITOR, body, key);
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    expect(docs.state.calls.length).toBe(calls);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-125 the documents service failing (500) is 502 documents_unavailable, nothing written', async () => {
    const p = await project(h);
    const t = await task(h, p);
    const a = await attach(file('task', t));
    docs.state.mode = 'fail';
    const before = await h.state();
    const reg = await attach(file('task', t));
    expect([reg.status, reg.errors[0].code]).toEqual([502, 'documents_unavailable']);
    expect(await h.state()).toEqual(before);
    const up = await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'x.pdf' } }, null);
    expect([up.status, up.errors[0].code]).toEqual([502, 'documents_unavailable']);
    const url = await h.call('GET', `/v1/attachments/${a.data.id}/url`, READER);
    expect([url.status, url.errors[0].code]).toEqual([502, 'documents_unavailable']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-125 the documents service hanging past the timeout is 502 documents_unavailable, nothing written', async () => {
    const p = await project(h);
    const t = await task(h, p);
    docs.state.mode = 'hang';
    const before = await h.state();
    const started = Date.now();
    const reg = await attach(file('task', t));
    expect([reg.status, reg.errors[0].code]).toEqual([502, 'documents_unavailable']);
    expect(Date.now() - started).toBeLessThan(5_000);
    const up = await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'x.pdf' } }, null);
    expect([up.status, up.errors[0].code]).toEqual([502, 'documents_unavailable']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-183 a reader may list files but not attach them (403), nothing written', async () => {
    const p = await project(h);
    const t = await task(h, p);
    const before = await h.state();
    const r = await attach(file('task', t), READER);
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-034 a task of a completed project takes no file: 409 project_closed, nothing written', async () => {
    const p = await project(h, 'completed');
    const t = await task(h, p);
    const before = await h.state();
    const r = await attach(file('task', t));
    expect([r.status, r.errors[0].code]).toEqual([409, 'project_closed']);
    expect(await h.state()).toEqual(before);
  });
});
