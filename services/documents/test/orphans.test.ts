import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, BlobStorage, openPglite } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { markRegistrationInFlight } from '../src/commands/documents.ts';
import { documentsConfig } from '../src/config.ts';
import { OrphanReaper, type ReapRun } from '../src/reaper.ts';
import { startDocuments } from '../src/start.ts';
import { type Harness, harness, MAX_UPLOAD, putBlob, send, type Uploaded } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const HOUR = 3_600_000;
/** An instant `hours` from now: blobs uploaded now are that old then. */
const later = (hours: number) => new Date(Date.now() + hours * HOUR);

/** A reaper whose clock stands at `at`, with the default grace of 24 hours unless told. */
const reaper = (at: Date, o: { graceHours?: number; batchSize?: number } = {}) =>
  new OrphanReaper(h.db, h.storage, {
    graceHours: o.graceHours ?? 24,
    intervalMs: HOUR,
    batchSize: o.batchSize,
    clock: () => at,
  });
const reap = (at: Date, o: { graceHours?: number; batchSize?: number } = {}) => reaper(at, o).run();

const exists = async (u: Pick<Uploaded, 'storage_account' | 'container' | 'blob_name'>) =>
  (await h.storage.properties(u.storage_account, u.container, u.blob_name)) !== null;
const removedNames = (r: ReapRun) => r.removed.map((b) => b.name);

describe('14.8 the orphan reaper', () => {
  it('14.8 DOC-043 DOC-045 an oversized blob refused with 413 stays, then the reaper removes it once older than the grace', async () => {
    const u = await h.upload(randomBytes(MAX_UPLOAD + 1));
    const r = await h.register(h.registration(u));
    expect(r.status).toBe(413);
    // DOC-045: the refusal itself leaves the blob where it is.
    expect(await exists(u)).toBe(true);
    expect(removedNames(await reap(new Date()))).not.toContain(u.blob_name);
    expect(await exists(u)).toBe(true);
    const run = await reap(later(25));
    expect(run.removed).toContainEqual({ account: 'local', container: 'documents', name: u.blob_name });
    expect(await exists(u)).toBe(false);
  });

  it('14.8 a never-registered blob younger than DOCUMENTS_ORPHAN_GRACE_HOURS is kept; older, it is removed', async () => {
    const u = await h.upload('never registered');
    expect(removedNames(await reap(later(23)))).not.toContain(u.blob_name);
    expect(await exists(u)).toBe(true);
    // Another grace: 2 hours.
    expect(removedNames(await reap(later(1), { graceHours: 2 }))).not.toContain(u.blob_name);
    expect(removedNames(await reap(later(3), { graceHours: 2 }))).toContain(u.blob_name);
    expect(await exists(u)).toBe(false);
  });

  it('14.8 DOC-009 a blob a document records is never removed, however old; its document still reads', async () => {
    const doc = await h.document({}, { bytes: 'kept' });
    expect(removedNames(await reap(later(10_000)))).not.toContain(doc.blob_name);
    expect(await exists(doc)).toBe(true);
    const read = await h.call('GET', `/v1/documents/${doc.id}`);
    expect(read.status).toBe(200);
    expect(await (await fetch(read.data.sas_url)).text()).toBe('kept');
  });

  it('14.8 DOC-009 a registered name is kept in every container and under every catalog account that shows it', async () => {
    // local and local-multi are one storage account: the blob of a local-multi document is also
    // listed under local's documents container.
    const doc = await h.document({}, { bytes: 'filed', storage_account: 'local-multi', container: 'documents' });
    // A copy under the same name in another container (an upload there under a SAS minted for it).
    const copy = { storage_account: 'local-multi', container: 'evidence', blob_name: doc.blob_name };
    const put = await putBlob(
      h.storage.uploadSas('local-multi', 'evidence', doc.blob_name, { ttlSeconds: 600 }).url,
      'x',
    );
    expect(put.status).toBe(201);
    expect(removedNames(await reap(later(10_000)))).not.toContain(doc.blob_name);
    expect(await exists(doc)).toBe(true);
    expect(await exists(copy)).toBe(true);
    expect(await exists({ ...doc, storage_account: 'local' })).toBe(true);
  });

  it('14.8 DOC-038 a blob whose registration is in flight is kept; the registration then succeeds', async () => {
    const u = await h.upload('in flight');
    const at = later(25);
    // Storage that holds the registration at its HEAD of this blob until the test lets it go.
    let entered!: () => void;
    const atHead = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    class HeldStorage extends BlobStorage {
      override async properties(account: string, container: string, blob: string) {
        if (blob === u.blob_name) {
          entered();
          await gate;
        }
        return super.properties(account, container, blob);
      }
    }
    const app = await buildApp({
      database: h.database,
      storage: new HeldStorage(h.catalog),
      maxUploadBytes: MAX_UPLOAD,
      clock: () => at,
      logLevel: 'silent',
    });
    await app.ready();
    try {
      const registering = send(app as App, 'POST', '/v1/documents', { data: h.registration(u) });
      await atHead;
      const run = await reap(at);
      expect(removedNames(run)).not.toContain(u.blob_name);
      expect(await exists(u)).toBe(true);
      release();
      const r = await registering;
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.data.byte_size).toBe('in flight'.length);
      // Registered now: kept for good, and the mark is gone.
      expect(removedNames(await reap(at))).not.toContain(u.blob_name);
      expect(await exists(u)).toBe(true);
      const marks = await sql`SELECT 1 FROM registrations_in_flight WHERE blob_name = ${u.blob_name}`.execute(h.db);
      expect(marks.rows).toEqual([]);
    } finally {
      release();
      await app.close();
    }
  });

  it('14.8 DOC-042 a registration after the reaper removed its blob is 422 blob_not_found and writes nothing', async () => {
    const u = await h.upload('too late');
    expect(removedNames(await reap(later(25)))).toContain(u.blob_name);
    const before = await h.state();
    const r = await h.register(h.registration(u));
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('blob_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('14.8 a mark left by a registration that never ended stops counting after an hour, and the reaper drops it', async () => {
    const u = await h.upload('abandoned');
    const at = later(25);
    await markRegistrationInFlight(h.db, u.blob_name, new Date(at.getTime() - 30 * 60_000));
    expect(removedNames(await reap(at))).not.toContain(u.blob_name);
    const stale = await reap(new Date(at.getTime() + 31 * 60_000));
    expect(removedNames(stale)).toContain(u.blob_name);
    expect(stale.staleMarks).toBe(1);
    const marks = await sql`SELECT 1 FROM registrations_in_flight WHERE blob_name = ${u.blob_name}`.execute(h.db);
    expect(marks.rows).toEqual([]);
  });

  it('14.8 DOC-008 a blob whose name the service did not mint is never touched', async () => {
    const name = 'notes-from-elsewhere.txt';
    const put = await putBlob(h.storage.uploadSas('local', 'documents', name, { ttlSeconds: 600 }).url, 'foreign');
    expect(put.status).toBe(201);
    expect(removedNames(await reap(later(10_000)))).not.toContain(name);
    expect(await h.storage.properties('local', 'documents', name)).not.toBeNull();
  });

  it('14.8 small batches: a page of listed blobs at a time, one transaction each, across accounts and containers', async () => {
    const mine: Uploaded[] = [];
    for (let i = 0; i < 5; i++) mine.push(await h.upload(`batch ${i}`));
    mine.push(await h.upload('evidence', { storage_account: 'local-multi', container: 'evidence' }));
    const run = await reap(later(25), { batchSize: 2 });
    for (const u of mine) {
      expect(run.removed).toContainEqual({ account: u.storage_account, container: u.container, name: u.blob_name });
      expect(await exists(u)).toBe(false);
    }
    expect(run.batches).toBeGreaterThanOrEqual(4);
    expect(run.failed).toEqual([]);
  });

  it('14.8 started, the reaper runs at once and again on its interval until stopped', async () => {
    const u = await h.upload('scheduled');
    const runs: ReapRun[] = [];
    let second!: () => void;
    const twice = new Promise<void>((r) => {
      second = r;
    });
    const job = new OrphanReaper(h.db, h.storage, {
      graceHours: 24,
      intervalMs: 10,
      clock: () => later(25),
      onRun: (r) => {
        runs.push(r);
        if (runs.length === 2) second();
      },
    });
    job.start();
    await twice;
    await job.stop();
    expect(removedNames(runs[0] as ReapRun)).toContain(u.blob_name);
    expect(removedNames(runs[1] as ReapRun)).not.toContain(u.blob_name);
    expect(await exists(u)).toBe(false);
  });

  it('14.8 startDocuments starts the reaper with the configured grace and interval, close stops it; interval 0: no reaper', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'documents-reaper-'));
    const pglite = openPglite('memory://');
    const env = {
      PORT_DOCUMENTS: '0',
      PLATFORM_DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      DOCUMENTS_STORAGE_CATALOG: JSON.stringify(h.catalog),
    };
    try {
      const started = await startDocuments(documentsConfig({ ...env, DOCUMENTS_ORPHAN_GRACE_HOURS: '6' }), { pglite });
      try {
        expect(started.reaper).toBeInstanceOf(OrphanReaper);
        // Blobs uploaded moments ago are younger than six hours: the real clock's run removes none.
        const run = await (started.reaper as OrphanReaper).run();
        expect(run.failed).toEqual([]);
        expect(run.listed).toBeGreaterThan(0);
        expect(run.removed).toEqual([]);
      } finally {
        await started.close();
      }
      const off = await startDocuments(documentsConfig({ ...env, DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES: '0' }), {
        pglite,
      });
      expect(off.reaper).toBeUndefined();
      await off.close();
    } finally {
      await (await pglite).pg.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('14.8 DOCUMENTS_ORPHAN_GRACE_HOURS defaults to 24 and DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES to 60 (0: off); a grace under an hour is refused', () => {
    const c = documentsConfig({});
    expect(c.DOCUMENTS_ORPHAN_GRACE_HOURS).toBe(24);
    expect(c.DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES).toBe(60);
    const set = documentsConfig({ DOCUMENTS_ORPHAN_GRACE_HOURS: '48', DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES: '0' });
    expect(set.DOCUMENTS_ORPHAN_GRACE_HOURS).toBe(48);
    expect(set.DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES).toBe(0);
    expect(() => documentsConfig({ DOCUMENTS_ORPHAN_GRACE_HOURS: '0' })).toThrow(/DOCUMENTS_ORPHAN_GRACE_HOURS/);
    expect(() => documentsConfig({ DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES: 'soon' })).toThrow(
      /DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES/,
    );
  });
});
