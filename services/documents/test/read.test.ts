import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AZURITE_ACCOUNT_KEY, BlobStorage, freePort, type StorageCatalog } from '@platform/kit';
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
      expect(new URL(first.data.sas_url).searchParams.get('sr')).toBe('b');
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

  it('DOC-065 DOC-026 neither SAS URL nor the account key ever reaches the service log, even at trace level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'documents-log-'));
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const { DATABASE_URL: _d, BUS_URL: _b, ...env } = process.env;
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'services/documents/src/main.ts')], {
      env: {
        ...env,
        PORT_DOCUMENTS: '0',
        PLATFORM_DATA_DIR: dir,
        LOG_LEVEL: 'trace',
        DOCUMENTS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
        DOCUMENTS_STORAGE_CATALOG: JSON.stringify(testCatalog(h.azurite.blobEndpoint)),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (c: Buffer) => {
      log += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      log += c.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`documents did not start:\n${log}`)), 45_000);
        const look = () => {
          const m = /documents listening on (http:\/\/\S+)/.exec(log);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        };
        child.stdout.on('data', look);
        child.once('exit', () => reject(new Error(`documents exited:\n${log}`)));
      });
      const post = (path: string, body: unknown, key?: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
          body: JSON.stringify(body),
        }).then(async (r) => ({
          status: r.status,
          json: (await r.json()) as { payload: { data: Record<string, string> } },
        }));
      const minted = await post('/v1/documents/sas', {
        filename: 'logged.pdf',
        visibility: 'private',
        storage_account: 'local',
      });
      expect(minted.status).toBe(200);
      const sas = minted.json.payload.data;
      expect((await putBlob(sas.sas_url, 'bytes')).status).toBe(201);
      const renewed = await post('/v1/documents/sas', {
        filename: 'logged.pdf',
        visibility: 'private',
        storage_account: 'local',
        blob_name: sas.blob_name,
      });
      const { sas_url: _u, sas_expires_at: _e, ...location } = sas;
      const reg = await post(
        '/v1/documents',
        { data: { ...location, content_type: 'application/pdf', references: [], metadata: [] } },
        randomUUID(),
      );
      expect(reg.status).toBe(201);
      const read = await fetch(`${url}/v1/documents/${reg.json.payload.data.id}`);
      const readSas = ((await read.json()) as { payload: { data: { sas_url: string } } }).payload.data.sas_url;
      // Refusals too: a renewal of the registered blob (409), an unknown blob (422).
      expect((await post('/v1/documents/sas', { ...location, blob_name: sas.blob_name })).status).toBe(409);
      await post('/v1/documents', { data: { ...location, blob_name: `x_${sas.blob_name}` } }, randomUUID());
      child.kill('SIGTERM');
      await exited;
      // The log was on: it records the requests.
      expect(log).toContain('/v1/documents/sas');
      for (const signed of [sas.sas_url, renewed.json.payload.data.sas_url, readSas]) {
        const sig = new URL(signed).searchParams.get('sig') as string;
        expect(log).not.toContain(sig);
        expect(log).not.toContain(encodeURIComponent(sig));
      }
      expect(log).not.toContain('sig=');
      expect(log).not.toContain(AZURITE_ACCOUNT_KEY);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

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
