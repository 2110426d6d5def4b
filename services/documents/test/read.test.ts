import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlobStorage, freePort, type StorageCatalog } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ARCHIVE_TTL, type Harness, harness, LOCAL_TTL, MAX_UPLOAD, putBlob, send, testCatalog } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const plus = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();

/** The same database and clock with another catalog: what a service configured otherwise would answer. */
const appWith = async (catalog: StorageCatalog | undefined) => {
  const app = await buildApp({
    database: h.database,
    storage: catalog ? new BlobStorage(catalog, { maxTries: 1 }) : undefined,
    maxUploadBytes: MAX_UPLOAD,
    clock: h.clock,
    logLevel: 'silent',
  });
  await app.ready();
  return app;
};

describe('GET /v1/documents/{id}', () => {
  it('DOC-061 the record with all its references and metadata', async () => {
    const references = [
      { ref_type: 'project', ref_id: 'P-1', ref_category: 'drawing', is_external: false },
      { ref_type: 'vendor', ref_id: 'V-2', ref_category: 'quote', is_external: true },
      { ref_type: 'invoice', ref_id: 'I-3', ref_category: 'scan', is_external: false },
    ];
    const metadata = [
      { meta_name: 'uploaded_by', meta_value: 'ann@example.com' },
      { meta_name: 'sheet', meta_value: 'A-101' },
    ];
    const doc = await h.document({ references, metadata, content_type: 'application/pdf' });
    const r = await h.call('GET', `/v1/documents/${doc.id}`);
    expect(r.status).toBe(200);
    const { sas_url, sas_expires_at, ...record } = r.data;
    expect(record).toEqual(doc);
    expect(record.references).toEqual(references);
    expect(record.metadata).toEqual(metadata);
    expect(typeof sas_url).toBe('string');
    expect(typeof sas_expires_at).toBe('string');
  });

  it("DOC-062 DOC-063 a read SAS is signed at each read and lives for the account's TTL", async () => {
    const doc = await h.document();
    const pub = await h.document({}, { storage_account: 'archive', visibility: 'public' });
    try {
      const t1 = h.pin();
      const first = await h.call('GET', `/v1/documents/${doc.id}`);
      expect(first.data.sas_expires_at).toBe(plus(t1, LOCAL_TTL));
      expect(new URL(first.data.sas_url).searchParams.get('sp')).toBe('r');
      const archived = await h.call('GET', `/v1/documents/${pub.id}`);
      expect(archived.data.sas_expires_at).toBe(plus(t1, ARCHIVE_TTL));
      const t2 = h.pin(5);
      const second = await h.call('GET', `/v1/documents/${doc.id}`);
      expect(second.data.sas_expires_at).toBe(plus(t2, LOCAL_TTL));
      expect(second.data.sas_url).not.toBe(first.data.sas_url);
    } finally {
      h.unpin();
    }
  });

  it('DOC-064 the read sas_url downloads the bytes before sas_expires_at; it cannot write', async () => {
    const bytes = randomBytes(40);
    const doc = await h.document({}, { bytes });
    const r = await h.call('GET', `/v1/documents/${doc.id}`);
    expect(new Date(r.data.sas_expires_at).getTime()).toBeGreaterThan(Date.now());
    const get = await fetch(r.data.sas_url);
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await putBlob(r.data.sas_url, 'overwrite')).status).toBe(403);
  });

  it('DOC-065 the read SAS is never stored', async () => {
    const doc = await h.document();
    const r = await h.call('GET', `/v1/documents/${doc.id}`);
    const signature = new URL(r.data.sas_url).searchParams.get('sig') as string;
    const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(h.db);
    expect(tables.rows.map((t) => t.table_name)).toContain('documents');
    for (const { table_name } of tables.rows) {
      const rows = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table_name)} t`.execute(h.db);
      for (const { row } of rows.rows) {
        expect(row, table_name).not.toContain(signature);
        expect(row, table_name).not.toContain('sig=');
      }
    }
    const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_name LIKE '%sas%' OR column_name LIKE '%expires%')`.execute(
      h.db,
    );
    expect(columns.rows).toEqual([]);
  });

  it('DOC-066 a document id that does not exist is 404', async () => {
    const r = await h.call('GET', `/v1/documents/${randomUUID()}`);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('document_not_found');
  });

  it('DOC-067 a stored document whose storage account cannot be reached, or is no longer configured, is 503', async () => {
    const doc = await h.document();
    const closed = await freePort();
    const unreachable = await appWith(testCatalog(`http://127.0.0.1:${closed}/devstoreaccount1`));
    const r = await send(unreachable, 'GET', `/v1/documents/${doc.id}`);
    expect(r.status).toBe(503);
    expect(r.errors[0].code).toBe('storage_unavailable');
    await unreachable.close();
    const catalog = testCatalog(h.azurite.blobEndpoint);
    const withoutLocal = await appWith({ accounts: catalog.accounts.filter((a) => a.name !== 'local') });
    const gone = await send(withoutLocal, 'GET', `/v1/documents/${doc.id}`);
    expect(gone.status).toBe(503);
    expect(gone.errors[0].code).toBe('storage_unavailable');
    await withoutLocal.close();
  });
});

describe('the service never reads the bytes', () => {
  let proxy: Server;
  const seen: { method: string; url: string }[] = [];

  beforeAll(async () => {
    const target = new URL(h.azurite.blobEndpoint);
    // A recording pass-through between the service and Azurite.
    proxy = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '' });
      const out = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('DOC-020 registration and reads only ask storage for blob properties (HEAD), never for content', async () => {
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const direct = new URL(h.azurite.blobEndpoint).origin;
    const app = await appWith(testCatalog(`${proxied}/devstoreaccount1`));
    try {
      const minted = await send(app, 'POST', '/v1/documents/sas', {
        filename: 'Watched.pdf',
        visibility: 'private',
        storage_account: 'local',
      });
      expect(minted.data.sas_url.startsWith(proxied)).toBe(true);
      // The client talks to storage itself (not through the recording proxy).
      const bytes = randomBytes(20);
      expect((await putBlob(minted.data.sas_url.replace(proxied, direct), bytes)).status).toBe(201);
      const { sas_url: _s, sas_expires_at: _e, ...location } = minted.data;
      const reg = await send(app, 'POST', '/v1/documents', {
        data: { ...location, content_type: 'application/pdf', references: [], metadata: [] },
      });
      expect(reg.status).toBe(201);
      expect(reg.data.byte_size).toBe(20);
      const read = await send(app, 'GET', `/v1/documents/${reg.data.id}`);
      expect(read.status).toBe(200);
      await send(app, 'GET', '/v1/documents?ref_type=none');
      const downloaded = await fetch(read.data.sas_url.replace(proxied, direct));
      expect(Buffer.from(await downloaded.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await app.close();
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const r of seen) expect(r.method, r.url).toBe('HEAD');
  });
});
