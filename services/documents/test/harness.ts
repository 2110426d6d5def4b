import { randomUUID } from 'node:crypto';
import {
  type App,
  AZURITE_ACCOUNT_KEY,
  AZURITE_ACCOUNT_NAME,
  type Azurite,
  BlobStorage,
  type Database,
  localStorageCatalog,
  type StorageCatalog,
  startAzurite,
} from '@platform/kit';
import { injectJson, outboxEvents, type Reply, rowCount, rowCounts, testDatabase } from '@platform/kit/testing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/** Lifetime of the test catalog's accounts `local` and `local-multi`. */
export const LOCAL_TTL = 900;
/** Lifetime of the test catalog's public account `archive`. */
export const ARCHIVE_TTL = 300;
/** DOCUMENTS_MAX_UPLOAD_BYTES of the harness: small, so oversized blobs are cheap. */
export const MAX_UPLOAD = 64;

/**
 * The test catalog on one Azurite: the local catalog (`local`: private, [documents];
 * `local-multi`: private, [documents, evidence]) with a 15-minute lifetime, plus `archive`
 * (public, [archive], 5 minutes).
 */
export function testCatalog(blobEndpoint: string): StorageCatalog {
  const local = localStorageCatalog(blobEndpoint, { sasTtlSeconds: LOCAL_TTL });
  return {
    accounts: [
      ...local.accounts,
      {
        name: 'archive',
        visibility: 'public',
        containers: ['archive'],
        sas_ttl_seconds: ARCHIVE_TTL,
        endpoint: blobEndpoint,
        account_name: AZURITE_ACCOUNT_NAME,
        key: AZURITE_ACCOUNT_KEY,
      },
    ],
  };
}

export type { Reply };

type Method = 'GET' | 'POST' | 'PUT';

/** Sends a request to an app: commands (POST except the SAS route) get a fresh Idempotency-Key unless given one. */
export async function send(
  app: App,
  method: Method,
  url: string,
  body?: unknown,
  key: string | null = method === 'POST' && url !== '/v1/documents/sas' ? randomUUID() : null,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return injectJson(app, method, url, { headers, body, key });
}

export interface Uploaded {
  sas_url: string;
  sas_expires_at: string;
  storage_account: string;
  visibility: string;
  container: string;
  blob_name: string;
  filename: string;
}

/**
 * One documents app per test file: its own in-memory Azurite on a free port with the test
 * catalog (containers created), a fresh database, and a clock that reads real time unless a
 * test pins it (SAS URLs must stay valid for real uploads, so pinned instants stay near now).
 */
export async function harness() {
  const azurite: Azurite = await startAzurite({ port: 0 });
  const catalog = testCatalog(azurite.blobEndpoint);
  const storage = new BlobStorage(catalog);
  await storage.ensureContainers();
  const database = await testDatabase<DB>('documents', MIGRATIONS);
  let pinned: Date | undefined;
  const clock = () => pinned ?? new Date();
  const app = await buildApp({
    database,
    storage,
    maxUploadBytes: MAX_UPLOAD,
    clock,
    logLevel: 'silent',
  });
  await app.ready();

  const call = (method: Method, url: string, body?: unknown, key?: string | null, headers?: Record<string, string>) =>
    send(app, method, url, body, key, headers);

  const h = {
    app: app as App,
    azurite,
    catalog,
    storage,
    database,
    db: database.db,
    clock,
    call,
    /** Pins the clock at a whole second near now (plus `offsetSeconds`); returns it. */
    pin(offsetSeconds = 0) {
      pinned = new Date(Math.floor(Date.now() / 1000) * 1000 + offsetSeconds * 1000);
      return pinned;
    },
    unpin() {
      pinned = undefined;
    },
    /** Mints an upload SAS (bare body). */
    sas: (body: Record<string, unknown>, headers?: Record<string, string>) =>
      call('POST', '/v1/documents/sas', body, null, headers),
    /** Mints a SAS and PUTs the bytes to it as a block blob, as a browser would. */
    async upload(
      bytes: Uint8Array | string,
      o: { filename?: string; storage_account?: string; visibility?: string; container?: string } = {},
    ): Promise<Uploaded> {
      const minted = await h.sas({
        filename: o.filename ?? 'report.pdf',
        visibility: o.visibility ?? 'private',
        storage_account: o.storage_account ?? 'local',
        ...(o.container ? { container: o.container } : {}),
      });
      if (minted.status !== 200) throw new Error(`sas: ${JSON.stringify(minted.body)}`);
      const put = await putBlob(minted.data.sas_url, bytes);
      if (put.status !== 201) throw new Error(`upload: ${put.status} ${await put.text()}`);
      return minted.data as Uploaded;
    },
    /** A registration body's data for an uploaded blob. */
    registration(u: Uploaded, extra: Record<string, unknown> = {}) {
      return {
        filename: u.filename,
        visibility: u.visibility,
        storage_account: u.storage_account,
        container: u.container,
        blob_name: u.blob_name,
        content_type: 'application/pdf',
        references: [],
        metadata: [],
        ...extra,
      };
    },
    register: (data: Record<string, unknown>, key?: string) => call('POST', '/v1/documents', { data }, key),
    /** Uploads bytes and registers them; returns the record. */
    async document(
      extra: Record<string, unknown> = {},
      o: {
        bytes?: Uint8Array | string;
        filename?: string;
        storage_account?: string;
        visibility?: string;
        container?: string;
      } = {},
    ) {
      const u = await h.upload(o.bytes ?? 'hello', o);
      const r = await h.register(h.registration(u, extra));
      if (r.status !== 201) throw new Error(`register: ${JSON.stringify(r.body)}`);
      return r.data;
    },
    /** Rows of the outbox, oldest first. */
    events: (type?: string) => outboxEvents(database.db, type),
    count: (table: string) => rowCount(database.db, table),
    /** How many rows each table documents writes holds. */
    counts: () =>
      rowCounts(database.db, ['documents', 'document_references', 'document_metadata', 'outbox', 'idempotency_keys']),
    /** A fingerprint of everything documents writes. */
    async state() {
      const out: Record<string, unknown> = await h.counts();
      const docs = await sql`SELECT id, filename, visibility, storage_account, container, blob_name, content_type,
        content_hash, byte_size, updated_at, updated_by FROM documents ORDER BY id`.execute(database.db);
      const refs = await sql`SELECT * FROM document_references ORDER BY document_id, position`.execute(database.db);
      const meta = await sql`SELECT * FROM document_metadata ORDER BY document_id, position`.execute(database.db);
      return { ...out, docs: docs.rows, refs: refs.rows, meta: meta.rows };
    },
    async close_() {
      await app.close();
      await database.drop();
      await azurite.close();
    },
  };
  return h;
}

/** PUT bytes to a SAS URL as one block blob (what a browser does with a minted URL). */
export const putBlob = (url: string, bytes: Uint8Array | string) =>
  fetch(url, { method: 'PUT', headers: { 'x-ms-blob-type': 'BlockBlob' }, body: bytes });

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** {stem}_{uuidv7}.{ext} */
export const MINTED = /^[A-Za-z0-9_-]+_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.[a-z0-9]+$/;

export type Harness = Awaited<ReturnType<typeof harness>>;
export type { Database };
