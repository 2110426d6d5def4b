import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp as buildDocuments } from '../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../documents/src/store/db.ts';
import { testCatalog } from '../../documents/test/harness.ts';
import { HttpDocuments } from '../src/clients/documents.ts';
import { registerDocument, startRevision } from './fixtures/documents.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

/**
 * Real bytes through the real documents service (its app on a port, its own database, an
 * in-memory Azurite, as its own tests build it): upload link, PUT, register, download, same bytes.
 */
let h: Harness;
let azurite: Azurite;
let documents: App;
let closeDocuments: () => Promise<void>;

beforeAll(async () => {
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
    app: { documents: new HttpDocuments({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 10_000 }) },
  });
}, 120_000);
afterAll(async () => {
  await h?.close_();
  await closeDocuments?.();
  await azurite?.close();
});

it('17 CON-173 CON-174 CON-177 a file PUT to the upload link with x-ms-blob-type: BlockBlob, registered on a revision, downloads as the same bytes', async () => {
  const d = await registerDocument(h);
  const rev = await startRevision(h, d.id);
  const up = await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'site-plan.pdf' } }, null);
  expect(up.status).toBe(201);
  const bytes = Buffer.from(`%PDF-1.4 construction attachment ${Date.now()}`);
  const put = await fetch(up.data.upload_url, {
    method: 'PUT',
    headers: { 'x-ms-blob-type': up.data.upload_headers['x-ms-blob-type'] },
    body: bytes,
  });
  expect(put.status).toBe(201);

  const reg = await h.call('POST', '/v1/attachments', EDITOR, {
    data: {
      record_type: 'document_revision',
      record_id: rev.id,
      blob_name: up.data.blob_name,
      filename: 'site-plan.pdf',
      content_type: 'application/pdf',
    },
  });
  expect(reg.status).toBe(201);
  const held = await documents.inject({ method: 'GET', url: `/v1/documents/${reg.data.document_id}` });
  expect(held.json().payload.data).toMatchObject({ blob_name: up.data.blob_name, byte_size: bytes.length });

  const listed = await h.call('GET', `/v1/attachments?record_type=document_revision&record_id=${rev.id}`, READER);
  expect(listed.data.map((a: { id: string }) => a.id)).toEqual([reg.data.id]);

  const link = await h.call('GET', `/v1/attachments/${reg.data.id}/url`, READER);
  expect(link.status).toBe(200);
  const got = await fetch(link.data.url);
  expect(got.status).toBe(200);
  expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
});

it('17 CON-174 a blob never uploaded is refused by the documents service: 422, nothing written', async () => {
  const d = await registerDocument(h);
  const rev = await startRevision(h, d.id);
  const up = await h.call('POST', '/v1/attachments/upload-url', EDITOR, { data: { filename: 'gone.pdf' } }, null);
  const before = await h.state();
  const reg = await h.call('POST', '/v1/attachments', EDITOR, {
    data: { record_type: 'document_revision', record_id: rev.id, blob_name: up.data.blob_name, filename: 'gone.pdf' },
  });
  expect([reg.status, reg.errors[0].code]).toEqual([422, 'validation_failed']);
  expect(reg.errors[0].message).toContain('blob_not_found');
  expect(await h.state()).toEqual(before);
});
