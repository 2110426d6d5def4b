/**
 * The real documents service for the connector tests (WS-534): its app on a port, on its own
 * database and an in-memory Azurite, as outputs-upload.test.ts builds it. `list(ref)` asks it what
 * it holds; `text(id)` reads a document's bytes back through its read URL.
 */
import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { buildApp as buildDocuments } from '../../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../../documents/src/store/db.ts';
import { testCatalog } from '../../../documents/test/harness.ts';

export async function startDocumentsOnAzurite() {
  const azurite: Azurite = await startAzurite({ port: 0, timeoutMs: 60_000 });
  const storage = new BlobStorage(testCatalog(azurite.blobEndpoint));
  await storage.ensureContainers();
  const database = await testDatabase<DocumentsDB>('documents', DOCUMENT_MIGRATIONS);
  const app = (await buildDocuments({ database, storage, logLevel: 'silent' })) as App;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    /** Documents holding a reference of this type (ref_id optional). */
    async list(ref: { ref_type: string; ref_id?: string }) {
      const q = new URLSearchParams({ ...ref, 'pagination[pageSize]': '100' });
      const r = await app.inject({ method: 'GET', url: `/v1/documents?${q}` });
      return (r.json() as { payload: { data: { id: string; references: { ref_id: string }[] }[] } }).payload.data;
    },
    async text(id: string) {
      const r = await app.inject({ method: 'GET', url: `/v1/documents/${id}` });
      const doc = (r.json() as { payload: { data: { sas_url: string } } }).payload.data;
      return (await fetch(doc.sas_url)).text();
    },
    async close() {
      await app.close();
      await database.drop();
      await azurite.close();
    },
  };
}
export type DocumentsOnAzurite = Awaited<ReturnType<typeof startDocumentsOnAzurite>>;
