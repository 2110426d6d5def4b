import { createHash, randomUUID } from 'node:crypto';
import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp as buildDocuments } from '../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../documents/src/store/db.ts';
import { putBlob, testCatalog } from '../../documents/test/harness.ts';
import { HttpDocuments } from '../src/clients/documents.ts';
import { EDITOR, type Harness, harness, SERVICE_TOKEN, tag, VIEWER } from './harness.ts';

/**
 * The two-step path for larger outputs (WS-382, WS-383) against the real documents service: its
 * app on a port, on its own database and an in-memory Azurite, as its own tests build it. The
 * workspace asks it for a write URL, the test PUTs the bytes there as a client would, and
 * finalize registers the blob, reads it back, hashes and scans it before saving the output.
 */
let h: Harness;
let azurite: Azurite;
let documents: App;
let closeDocuments: () => Promise<void>;

beforeAll(async () => {
  // A shared machine can be slow to start the emulator.
  azurite = await startAzurite({ port: 0, timeoutMs: 60_000 });
  const storage = new BlobStorage(testCatalog(azurite.blobEndpoint));
  await storage.ensureContainers();
  const database = await testDatabase<DocumentsDB>('documents', DOCUMENT_MIGRATIONS);
  documents = (await buildDocuments({ database, storage, logLevel: 'silent' })) as App;
  await documents.listen({ port: 0, host: '127.0.0.1' });
  const { port } = documents.server.address() as { port: number };
  closeDocuments = async () => {
    await documents.close();
    await database.drop();
  };
  h = await harness({
    app: {
      documents: new HttpDocuments({
        baseUrl: `http://127.0.0.1:${port}`,
        serviceToken: SERVICE_TOKEN,
        storageAccount: 'local',
      }),
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close_();
  await closeDocuments?.();
  await azurite?.close();
});

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

async function filed() {
  const p = await h.team();
  const r = await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: { title: `Conv ${tag()}` } });
  h.expectStatus('conversation', r, 201);
  return { project: p, conversationId: r.data.id as string };
}

/** Upload step, then the bytes PUT to the URL given, as a client does. */
async function uploaded(
  conversationId: string,
  bytes: Buffer,
  slug = 'site-plan',
  extra: Record<string, unknown> = {},
) {
  const up = await h.call('POST', `/v1/conversations/${conversationId}/outputs/upload`, EDITOR, {
    data: { slug, filename: 'site-plan.pdf', content_type: 'application/pdf', ...extra },
  });
  h.expectStatus('upload', up, 201);
  const put = await putBlob(up.data.upload_url, bytes);
  expect(put.status).toBe(201);
  return up.data as { id: string; upload_url: string; blob_name: string; upload_headers: Record<string, string> };
}

const finalize = (conversationId: string, data: Record<string, unknown>, key?: string) =>
  h.call('POST', `/v1/conversations/${conversationId}/outputs/finalize`, EDITOR, { data }, key);

/** A file larger than the inline limit: 300 KiB of bytes. */
const large = (seed: string) => Buffer.alloc(300 * 1024, seed);

describe('the two-step upload path', () => {
  it('16 WS-382 upload then finalize commits the output: versioned, a document, listed with the conversation’s files', async () => {
    const { project, conversationId } = await filed();
    const bytes = large('a');
    const up = await uploaded(conversationId, bytes);
    expect(up.upload_headers).toMatchObject({ 'x-ms-blob-type': 'BlockBlob' });
    expect(up.blob_name).toMatch(/^site-plan_.+\.pdf$/);
    const r = await finalize(conversationId, { upload_id: up.id, sha256: sha(bytes) });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: project.id,
      conversation_id: conversationId,
      slug: 'site-plan',
      version: 1,
      status: 'active',
      sha256: sha(bytes),
      size_bytes: bytes.length,
      content_type: 'application/pdf',
      filename: 'site-plan.pdf',
    });
    expect(r.data.document_id).toMatch(/^[0-9a-f-]{36}$/);
    // The document the documents service now holds is this one.
    const doc = await documents.inject({ method: 'GET', url: `/v1/documents/${r.data.document_id}` });
    expect(doc.json().payload.data).toMatchObject({ byte_size: bytes.length, blob_name: up.blob_name });
    const files = await h.call('GET', `/v1/conversations/${conversationId}/files`, VIEWER);
    expect(files.data).toEqual([
      expect.objectContaining({ document_id: r.data.document_id, filename: 'site-plan.pdf', size_bytes: bytes.length }),
    ]);
    const read = await h.call('GET', `/v1/outputs/${r.data.id}`, VIEWER);
    expect(read.data).toMatchObject({ body: null, document_id: r.data.document_id });
    // A finalized upload is finished: 409 upload_finalized.
    const again = await finalize(conversationId, { upload_id: up.id, sha256: sha(bytes) });
    expect([again.status, again.errors[0].code]).toEqual([409, 'upload_finalized']);
  });

  it('16 WS-382 another file on the same slug writes version 2; the same bytes again are a no-op (200)', async () => {
    const { project, conversationId } = await filed();
    const first = large('b');
    await finalize(conversationId, { upload_id: (await uploaded(conversationId, first)).id, sha256: sha(first) });
    const second = large('c');
    const v2 = await finalize(conversationId, {
      upload_id: (await uploaded(conversationId, second)).id,
      sha256: sha(second),
    });
    expect(v2.data).toMatchObject({ version: 2, status: 'active' });
    const same = await finalize(conversationId, {
      upload_id: (await uploaded(conversationId, second)).id,
      sha256: sha(second),
    });
    expect(same.status).toBe(200);
    expect(same.data.id).toBe(v2.data.id);
    const rows = await h.db
      .selectFrom('saved_outputs')
      .select(['version', 'status'])
      .where('project_id', '=', project.id)
      .execute();
    expect(rows.map((r) => [Number(r.version), r.status]).sort()).toEqual([
      [1, 'superseded'],
      [2, 'active'],
    ]);
  });

  it('16 WS-383 finalize rejects a sha256 mismatch (422) and commits nothing', async () => {
    const { conversationId } = await filed();
    const bytes = large('d');
    const up = await uploaded(conversationId, bytes);
    const before = await h.state();
    const r = await finalize(conversationId, { upload_id: up.id, sha256: sha('something else') });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({
      code: 'sha256_mismatch',
      value: { claimed: sha('something else'), actual: sha(bytes) },
    });
    expect(await h.state()).toEqual(before);
    const pending = await h.db
      .selectFrom('output_uploads')
      .selectAll()
      .where('id', '=', up.id)
      .executeTakeFirstOrThrow();
    expect(pending.finalized_at).toBeNull();
  });

  it('16 WS-379 uploaded bytes are scanned too: a private key in the file is refused, nothing committed', async () => {
    const { conversationId } = await filed();
    const bytes = Buffer.concat([large('e'), Buffer.from('\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n')]);
    const up = await uploaded(conversationId, bytes, 'keys');
    const before = await h.state();
    const r = await finalize(conversationId, { upload_id: up.id, sha256: sha(bytes) });
    expect([r.status, r.errors[0].code, r.errors[0].value.found]).toEqual([422, 'credential_in_output', 'private_key']);
    expect(await h.state()).toEqual(before);
  });

  it('16 WS-382 finalize before any bytes were uploaded is 422 upload_not_received; a stranger’s upload id is 404', async () => {
    const { conversationId } = await filed();
    const up = await h.call('POST', `/v1/conversations/${conversationId}/outputs/upload`, EDITOR, {
      data: { slug: 'empty', filename: 'empty.csv' },
    });
    const before = await h.state();
    const r = await finalize(conversationId, { upload_id: up.data.id, sha256: sha('') });
    expect([r.status, r.errors[0].code]).toEqual([422, 'upload_not_received']);
    const unknown = await finalize(conversationId, { upload_id: randomUUID(), sha256: sha('') });
    expect([unknown.status, unknown.errors[0].code]).toEqual([404, 'upload_not_found']);
    expect(await h.state()).toEqual(before);
  });

  it('16 WS-382 the upload step refuses bad input with nothing written: unsafe filename, viewer, unfiled without project_id', async () => {
    const { conversationId } = await filed();
    const before = await h.state();
    const bad = await h.call('POST', `/v1/conversations/${conversationId}/outputs/upload`, EDITOR, {
      data: { slug: 'x', filename: '../etc/passwd' },
    });
    expect([bad.status, bad.errors[0].code]).toEqual([422, 'invalid_filename']);
    const viewer = await h.call('POST', `/v1/conversations/${conversationId}/outputs/upload`, VIEWER, {
      data: { slug: 'x', filename: 'a.pdf' },
    });
    expect(viewer.status).toBe(403);
    const unfiled = await h.call('POST', '/v1/conversations', EDITOR, { data: { title: 'Unfiled' } });
    const after = await h.state();
    const noProject = await h.call('POST', `/v1/conversations/${unfiled.data.id}/outputs/upload`, EDITOR, {
      data: { slug: 'x', filename: 'a.pdf' },
    });
    expect([noProject.status, noProject.errors[0].code]).toEqual([422, 'project_id_required']);
    expect(await h.state()).toEqual(after);
    expect(before).not.toEqual(after);
  });
});
