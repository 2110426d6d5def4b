import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp as buildDocuments } from '../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../documents/src/store/db.ts';
import { LOCAL_TTL, putBlob, testCatalog } from '../../documents/test/harness.ts';
import { HttpDocuments } from '../src/clients/documents.ts';
import {
  BlocksExpiredError,
  RecordingUpload,
  StorageRefusedError,
  type WriteUrl,
} from '../src/clients/recording-upload.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, SERVICE_TOKEN, VIEWER } from './harness.ts';

/**
 * The file routes (WS-017, WS-018, WS-460…WS-469) against the real documents service on an
 * in-memory Azurite, as outputs-upload.test.ts starts them; bytes go to the write URLs as a client
 * sends them (a whole PUT, or blocks through the recording upload client). The documents service
 * runs on a clock the tests move (`docsAt`): a SAS is checked by Azurite against real time, so an
 * URL signed on a clock hours behind is an expired one.
 */
let h: Harness;
let bare: Harness;
let azurite: Azurite;
let documents: App;
let closeDocuments: () => Promise<void>;
/** The documents service's clock offset from real time. */
let docsOffsetMs = 0;
const docsNow = () => new Date(Date.now() + docsOffsetMs);

beforeAll(async () => {
  azurite = await startAzurite({ port: 0, timeoutMs: 60_000 });
  const storage = new BlobStorage(testCatalog(azurite.blobEndpoint));
  await storage.ensureContainers();
  const database = await testDatabase<DocumentsDB>('documents', DOCUMENT_MIGRATIONS);
  documents = (await buildDocuments({ database, storage, logLevel: 'silent', clock: docsNow })) as App;
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
  bare = await harness();
}, 120_000);
afterAll(async () => {
  await h?.close_();
  await bare?.close_();
  await closeDocuments?.();
  await azurite?.close();
});

const uploadUrl = (as: string, data: Record<string, unknown>, on: Harness = h) =>
  on.call('POST', '/v1/files/upload-url', as, { data: { filename: 'board-meeting.m4a', ...data } });
const renew = (as: string, uploadId: string, on: Harness = h) =>
  on.call('POST', '/v1/files/upload-url/renew', as, { data: { upload_id: uploadId } });
const register = (as: string, uploadId: string, on: Harness = h) =>
  on.call('POST', '/v1/files', as, { data: { upload_id: uploadId } });
const documentOf = async (id: string) =>
  (await documents.inject({ method: 'GET', url: `/v1/documents/${id}` })).json().payload.data;
const expiresIn = (data: { expires_at: string }, from: Date) => Date.parse(data.expires_at) - from.getTime();
/** The write URL's own expiry (se) and its blob path. */
const urlParts = (url: string) => ({ se: new URL(url).searchParams.get('se'), path: new URL(url).pathname });

/** A write URL, then bytes PUT to it, as a client does. */
async function uploaded(as: string, data: Record<string, unknown> = {}, bytes = 'recorded audio bytes') {
  const up = await uploadUrl(as, data);
  h.expectStatus('upload-url', up, 201);
  const put = await putBlob(up.data.upload_url, bytes);
  expect(put.status).toBe(201);
  return up.data as WriteUrl & { blob_name: string };
}

describe('write URLs', () => {
  it('19 WS-460 upload-url returns a write URL; the bytes PUT there are stored; the upload is recorded', async () => {
    docsOffsetMs = 0;
    const up = await uploadUrl(EDITOR, { content_type: 'audio/mp4' });
    expect(up.status).toBe(201);
    expect(up.data).toMatchObject({
      purpose: 'file',
      project_id: null,
      filename: 'board-meeting.m4a',
      content_type: 'audio/mp4',
      upload_method: 'PUT',
      upload_headers: { 'x-ms-blob-type': 'BlockBlob' },
      document_id: null,
      renewals: 0,
    });
    expect(up.data.blob_name).toMatch(/^board-meeting_.+\.m4a$/);
    expect(urlParts(up.data.upload_url).path).toContain(up.data.blob_name);
    // The documents service's default lifetime for a file (the test catalog's 15 minutes).
    expect(Math.abs(expiresIn(up.data, docsNow()) - LOCAL_TTL * 1000)).toBeLessThan(60_000);
    expect((await putBlob(up.data.upload_url, 'bytes')).status).toBe(201);
    const row = await h.db
      .selectFrom('file_uploads')
      .selectAll()
      .where('id', '=', up.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      requested_by: fid(EDITOR),
      blob_name: up.data.blob_name,
      purpose: 'file',
      document_id: null,
    });
    expect(new Date(row.expires_at).toISOString()).toBe(up.data.expires_at);
  });

  it('19 WS-461 purpose=live_recording makes the write URL valid six hours after issue', async () => {
    docsOffsetMs = -60_000; // the documents clock is the issuer's: a minute behind, exactly known per call
    const before = docsNow();
    const live = await uploadUrl(EDITOR, { purpose: 'live_recording' });
    const after = docsNow();
    h.expectStatus('live', live, 201);
    const expires = Date.parse(live.data.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before.getTime() - 1000 + 6 * 3600_000);
    expect(expires).toBeLessThanOrEqual(after.getTime() + 6 * 3600_000);
    expect(Date.parse(urlParts(live.data.upload_url).se as string)).toBe(Math.floor(expires / 1000) * 1000);
    expect(live.data.renew_at).toBe(new Date(expires - 30 * 60_000).toISOString());
    // Any other purpose takes the documents default (15 minutes here), not six hours.
    const recording = await uploadUrl(EDITOR, { purpose: 'recording' });
    expect(Date.parse(recording.data.expires_at) - docsNow().getTime()).toBeLessThanOrEqual(LOCAL_TTL * 1000);
    docsOffsetMs = 0;
  });

  it('19 WS-462 renew returns a new write URL for the same blob name with a later expiry', async () => {
    docsOffsetMs = 0;
    const up = await uploaded(EDITOR, { purpose: 'live_recording' });
    docsOffsetMs = 10 * 60_000; // ten minutes on
    const r = await renew(EDITOR, up.id);
    expect(r.status).toBe(200);
    expect(r.data.blob_name).toBe(up.blob_name);
    expect(r.data.renewals).toBe(1);
    expect(Date.parse(r.data.expires_at)).toBeGreaterThan(Date.parse(up.expires_at) + 9 * 60_000);
    expect(r.data.upload_url).not.toBe(up.upload_url);
    expect(urlParts(r.data.upload_url).path).toBe(urlParts(up.upload_url).path);
    // The new URL writes the same blob.
    expect((await putBlob(r.data.upload_url, 'the whole recording')).status).toBe(201);
    docsOffsetMs = 0;
  });

  it('19 WS-463 renewal for a different principal is refused: 403, no new URL, nothing written', async () => {
    const up = await uploaded(EDITOR);
    const before = await h.state();
    const r = await renew(VIEWER, up.id);
    expect([r.status, r.errors[0].code]).toEqual([403, 'not_uploader']);
    expect(r.data).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain('sig=');
    expect(await h.state()).toEqual(before);
    const unknown = await renew(EDITOR, '01900000-0000-7000-8000-000000000000');
    expect([unknown.status, unknown.errors[0].code]).toEqual([404, 'file_upload_not_found']);
  });

  it('19 WS-464 renewal once a document is recorded against the upload is refused: 409, no new URL', async () => {
    const up = await uploaded(EDITOR);
    h.expectStatus('register', await register(EDITOR, up.id), 201);
    const before = await h.state();
    const r = await renew(EDITOR, up.id);
    expect([r.status, r.errors[0].code]).toEqual([409, 'upload_registered']);
    expect(JSON.stringify(r.body)).not.toContain('sig=');
    expect(await h.state()).toEqual(before);
  });
});

describe('registering files', () => {
  it('19 WS-465 POST /v1/files registers the file: 201, recorded here and in the documents service', async () => {
    const up = await uploaded(EDITOR, { purpose: 'recording', content_type: 'audio/mp4' }, 'twenty bytes of a wav');
    const r = await register(EDITOR, up.id);
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ id: up.id, blob_name: up.blob_name, purpose: 'recording' });
    expect(r.data.document_id).toMatch(/^[0-9a-f-]{36}$/);
    const doc = await documentOf(r.data.document_id);
    expect(doc).toMatchObject({ blob_name: up.blob_name, byte_size: 21, content_type: 'audio/mp4' });
    expect(doc.references).toEqual([expect.objectContaining({ ref_type: 'person', ref_id: fid(EDITOR) })]);
    const row = await h.db.selectFrom('file_uploads').selectAll().where('id', '=', up.id).executeTakeFirstOrThrow();
    expect(row.document_id).toBe(r.data.document_id);
    const [event] = (await h.events('file.registered')).filter((e) => e.payload.data.uploadId === up.id);
    expect(event.payload.data).toEqual({
      uploadId: up.id,
      documentId: r.data.document_id,
      projectId: null,
      purpose: 'recording',
      actor: fid(EDITOR),
    });
    // Registering again is the same file: 200, no second document.
    const again = await register(EDITOR, up.id);
    expect([again.status, again.data.document_id]).toEqual([200, r.data.document_id]);
  });

  it('19 WS-465 nothing uploaded yet is 422 upload_not_received; another principal 403; nothing written', async () => {
    const up = await uploadUrl(EDITOR, {});
    const before = await h.state();
    const early = await register(EDITOR, up.data.id);
    expect([early.status, early.errors[0].code]).toEqual([422, 'upload_not_received']);
    const other = await register(OUTSIDER, up.data.id);
    expect([other.status, other.errors[0].code]).toEqual([403, 'not_uploader']);
    expect(await h.state()).toEqual(before);
  });

  it('19 WS-017 an editor writes the project’s files: upload-url, renew and register answer 2xx', async () => {
    const p = await h.team();
    const up = await uploaded(EDITOR, { project_id: p.id });
    expect(up).toMatchObject({ project_id: p.id });
    expect((await renew(EDITOR, up.id)).status).toBe(200);
    const r = await register(EDITOR, up.id);
    expect(r.status).toBe(201);
    expect((await documentOf(r.data.document_id)).references).toEqual([
      expect.objectContaining({ ref_type: 'project', ref_id: p.id }),
    ]);
    expect((await h.events('file.registered')).some((e) => e.payload.data.projectId === p.id)).toBe(true);
  });

  it('19 WS-018 a viewer may not write the project’s files: 403 and nothing written', async () => {
    const p = await h.team();
    const before = await h.state();
    const r = await uploadUrl(VIEWER, { project_id: p.id });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
    // An editor made a viewer after asking for the URL can neither renew nor register it.
    const editor = 'files-demoted@ws.test';
    await h.member(p.id, editor, 'editor');
    const up = await uploaded(editor, { project_id: p.id });
    await h.member(p.id, editor, 'viewer');
    const mid = await h.state();
    expect((await renew(editor, up.id)).status).toBe(403);
    expect((await register(editor, up.id)).status).toBe(403);
    expect(await h.state()).toEqual(mid);
  });

  it('19 WS-466 file routes without a configured documents service are refused: 503, nothing written', async () => {
    const before = await bare.state();
    for (const r of [
      await uploadUrl(EDITOR, {}, bare),
      await renew(EDITOR, '01900000-0000-7000-8000-000000000000', bare),
      await register(EDITOR, '01900000-0000-7000-8000-000000000000', bare),
    ]) {
      expect([r.status, r.errors[0].code]).toEqual([503, 'documents_not_configured']);
    }
    expect(await bare.state()).toEqual(before);
  });
});

describe('the recording upload client', () => {
  /** A live-recording upload by EDITOR and a client for it whose clock the test sets. */
  async function client(clockAt: () => Date) {
    const up = await uploadUrl(EDITOR, { purpose: 'live_recording', content_type: 'audio/wav' });
    h.expectStatus('upload-url', up, 201);
    const renewCalls: string[] = [];
    const c = new RecordingUpload(up.data as WriteUrl, {
      clock: clockAt,
      renew: async (id) => {
        renewCalls.push(id);
        const r = await renew(EDITOR, id);
        h.expectStatus('renew', r, 200);
        return r.data as WriteUrl;
      },
    });
    return { up: up.data as WriteUrl, c, renewCalls };
  }

  it('19 WS-467 the client renews the write URL half an hour before it expires', async () => {
    docsOffsetMs = 0;
    let clientNow = new Date();
    const { up, c, renewCalls } = await client(() => clientNow);
    const renewAt = Date.parse(up.expires_at) - 30 * 60_000;
    // 31 minutes before expiry: no renewal.
    clientNow = new Date(renewAt - 60_000);
    await c.putBlock(Buffer.from('minute one '));
    expect(renewCalls).toHaveLength(0);
    // 30 minutes before expiry: renewed before the block is sent.
    clientNow = new Date(renewAt);
    docsOffsetMs = 5 * 60_000;
    await c.putBlock(Buffer.from('minute two'));
    expect(renewCalls).toEqual([up.id]);
    expect(c.renewals).toEqual({ scheduled: 1, afterRefusal: 0 });
    expect(Date.parse(c.currentUrl.expires_at)).toBeGreaterThan(Date.parse(up.expires_at));
    await c.commit('audio/wav');
    docsOffsetMs = 0;
    const r = await register(EDITOR, up.id);
    expect((await documentOf(r.data.document_id)).byte_size).toBe('minute one minute two'.length);
  });

  it('19 WS-468 when storage refuses a block as expired the client renews once more and the block goes in', async () => {
    // The URL is signed seven hours in the past (the documents clock behind): Azurite refuses it as
    // expired, while the client's clock (as far behind) says no renewal is due yet.
    docsOffsetMs = -7 * 3600_000;
    const clientBehind = new Date(Date.now() - 7 * 3600_000);
    const { up, c, renewCalls } = await client(() => clientBehind);
    expect(Date.parse(up.expires_at)).toBeLessThan(Date.now());
    expect(c.renewAt.getTime()).toBeGreaterThan(clientBehind.getTime());
    docsOffsetMs = 0; // the renewal is signed on time
    await c.putBlock(Buffer.from('slice after a sleep'));
    expect(renewCalls).toEqual([up.id]);
    expect(c.renewals).toEqual({ scheduled: 0, afterRefusal: 1 });
    await c.commit();
    const r = await register(EDITOR, up.id);
    expect((await documentOf(r.data.document_id)).byte_size).toBe('slice after a sleep'.length);
  });

  it('19 WS-468 only one extra renewal: a renewed URL refused again is an error, not another renewal', async () => {
    // Both URLs are signed seven hours in the past: the retry is refused too.
    docsOffsetMs = -7 * 3600_000;
    const clientBehind = new Date(Date.now() - 7 * 3600_000);
    const { up, c, renewCalls } = await client(() => clientBehind);
    try {
      await expect(c.putBlock(Buffer.from('a slice'))).rejects.toBeInstanceOf(StorageRefusedError);
    } finally {
      docsOffsetMs = 0;
    }
    expect(renewCalls).toEqual([up.id]);
    expect(c.renewals).toEqual({ scheduled: 0, afterRefusal: 1 });
    expect(c.stagedBlocks).toHaveLength(0);
  });

  it('19 WS-469 blocks already written stay valid: staged under one URL, committed under a renewed one', async () => {
    docsOffsetMs = 0;
    h.setNow('2025-06-16T15:00:00Z');
    let clientNow = new Date();
    const { up, c } = await client(() => clientNow);
    await c.putBlock(Buffer.from('first hour; '));
    await c.putBlock(Buffer.from('second hour; '));
    // Days later (the phone was offline) the client renews its URL for the same blob before the
    // next block; the blocks staged under the first URL are kept.
    h.setNow('2025-06-23T14:59:59Z'); // six days, 23:59:59 after the upload began
    clientNow = new Date(clientNow.getTime() + 6 * 86_400_000 + 23 * 3600_000);
    docsOffsetMs = 60_000;
    const first = c.currentUrl;
    await c.putBlock(Buffer.from('last minutes'));
    expect(c.renewals).toEqual({ scheduled: 1, afterRefusal: 0 });
    expect(c.currentUrl.upload_url).not.toBe(first.upload_url);
    expect(c.currentUrl.blob_name).toBe(first.blob_name);
    expect(c.stagedBlocks).toHaveLength(3);
    await c.commit();
    const r = await register(EDITOR, up.id);
    expect((await documentOf(r.data.document_id)).byte_size).toBe('first hour; second hour; last minutes'.length);
    docsOffsetMs = 0;
  });

  it('19 WS-469 after seven days the blocks are gone: the server gives no URL, the client does not commit', async () => {
    h.setNow('2025-06-16T15:00:00Z');
    let clientNow = new Date();
    const { up, c } = await client(() => clientNow);
    await c.putBlock(Buffer.from('a block'));
    h.setNow('2025-06-23T15:00:00Z');
    const before = await h.state();
    const late = await renew(EDITOR, up.id);
    expect([late.status, late.errors[0].code]).toEqual([409, 'upload_blocks_expired']);
    expect(await h.state()).toEqual(before);
    clientNow = new Date(clientNow.getTime() + 7 * 86_400_000);
    await expect(c.commit()).rejects.toBeInstanceOf(BlocksExpiredError);
  });
});
