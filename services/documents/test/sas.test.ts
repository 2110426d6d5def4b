import { BlockBlobClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, LOCAL_TTL, MINTED, putBlob } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const body = (extra: Record<string, unknown> = {}) => ({
  filename: 'Site plan.pdf',
  visibility: 'private',
  storage_account: 'local',
  ...extra,
});
const plus = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();
/** The expiry a SAS URL itself carries (`se`). */
const signedExpiry = (url: string) => new Date(new URL(url).searchParams.get('se') as string).toISOString();

describe('POST /v1/documents/sas', () => {
  it('DOC-021 DOC-022 DOC-023 DOC-025 a bare body without Idempotency-Key mints all seven fields and writes nothing', async () => {
    const before = await h.state();
    const r = await h.sas(body({ container: 'documents' }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.data).sort()).toEqual(
      ['blob_name', 'container', 'filename', 'sas_expires_at', 'sas_url', 'storage_account', 'visibility'].sort(),
    );
    expect(r.data).toMatchObject({
      storage_account: 'local',
      visibility: 'private',
      container: 'documents',
      filename: 'Site plan.pdf',
    });
    expect(await h.state()).toEqual(before);
  });

  it('DOC-023 the SAS body is bare: a {data: ...} command body is 422', async () => {
    const r = await h.sas({ data: body() });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('validation_failed');
  });

  it('DOC-024 a filename without an extension is 422', async () => {
    for (const filename of ['Site plan', 'archive.', 'notes.t-x-t']) {
      const r = await h.sas(body({ filename }));
      expect(r.status, filename).toBe(422);
      expect(['filename_extension_required', 'unsafe_filename']).toContain(r.errors[0].code);
    }
    expect((await h.sas(body({ filename: 'Site plan' }))).errors[0]).toMatchObject({
      code: 'filename_extension_required',
      field: 'body/filename',
    });
  });

  it('DOC-026 the sas_url is a write URL: an upload to blob_name succeeds before sas_expires_at; it cannot read', async () => {
    const r = await h.sas(body());
    expect(new Date(r.data.sas_expires_at).getTime()).toBeGreaterThan(Date.now());
    const put = await putBlob(r.data.sas_url, 'plan bytes');
    expect(put.status).toBe(201);
    expect(new URL(r.data.sas_url).pathname).toBe(`/devstoreaccount1/documents/${r.data.blob_name}`);
    expect(await h.storage.properties('local', 'documents', r.data.blob_name)).toEqual({ size: 10 });
    // Write-only ('cw'): the same URL does not download.
    const get = await fetch(r.data.sas_url);
    expect(get.status).toBe(403);
    // Signed for that one blob (sr=b), create and write only (sp=cw), with an expiry.
    const url = new URL(r.data.sas_url);
    expect(url.searchParams.get('sp')).toBe('cw');
    expect(url.searchParams.get('sr')).toBe('b');
    expect(url.searchParams.get('se')).not.toBeNull();
    // Its signature does not open any other blob, nor the container.
    const other = new URL(r.data.sas_url);
    other.pathname = other.pathname.replace(r.data.blob_name, `other_${r.data.blob_name}`);
    expect((await putBlob(other.toString(), 'x')).status).toBe(403);
    const listing = new URL(r.data.sas_url);
    listing.pathname = listing.pathname.replace(`/${r.data.blob_name}`, '');
    listing.searchParams.set('restype', 'container');
    listing.searchParams.set('comp', 'list');
    expect((await fetch(listing)).status).toBe(403);
    // Nor can it delete the blob it wrote.
    expect((await fetch(r.data.sas_url, { method: 'DELETE' })).status).toBe(403);
  });

  it('DOC-027 DOC-008 without blob_name the service chooses a fresh {stem}_{uuidv7}.{ext}', async () => {
    const a = await h.sas(body());
    const b = await h.sas(body());
    expect(a.data.blob_name).toMatch(MINTED);
    expect(a.data.blob_name.startsWith('Site-plan_')).toBe(true);
    expect(a.data.blob_name.endsWith('.pdf')).toBe(true);
    expect(b.data.blob_name).not.toBe(a.data.blob_name);
    const odd = await h.sas(body({ filename: 'Évaluation (final) — v2.PDF' }));
    expect(odd.data.blob_name).toMatch(/^Evaluation-final-v2_[0-9a-f-]{36}\.pdf$/);
  });

  it('DOC-028 without ttl_seconds the lifetime is the account default', async () => {
    const now = h.pin();
    try {
      const r = await h.sas(body());
      expect(r.data.sas_expires_at).toBe(plus(now, LOCAL_TTL));
      expect(signedExpiry(r.data.sas_url)).toBe(r.data.sas_expires_at);
    } finally {
      h.unpin();
    }
  });

  it('DOC-029 ttl_seconds up to 24 hours sets the lifetime', async () => {
    const now = h.pin();
    try {
      for (const ttl of [60, 7200, 86_400]) {
        const r = await h.sas(body({ ttl_seconds: ttl }));
        expect(r.data.sas_expires_at).toBe(plus(now, ttl));
        expect(signedExpiry(r.data.sas_url)).toBe(r.data.sas_expires_at);
      }
    } finally {
      h.unpin();
    }
  });

  it('DOC-030 ttl_seconds over 24 hours is shortened to 24 hours', async () => {
    const now = h.pin();
    try {
      for (const ttl of [86_401, 604_800]) {
        const r = await h.sas(body({ ttl_seconds: ttl }));
        expect(r.status).toBe(200);
        expect(r.data.sas_expires_at).toBe(plus(now, 86_400));
        expect(signedExpiry(r.data.sas_url)).toBe(plus(now, 86_400));
      }
    } finally {
      h.unpin();
    }
    expect((await h.sas(body({ ttl_seconds: 0 }))).status).toBe(422);
  });

  it('DOC-031 container is required when the account has several', async () => {
    const r = await h.sas(body({ storage_account: 'local-multi' }));
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'container_required', field: 'body/container' });
    const named = await h.sas(body({ storage_account: 'local-multi', container: 'evidence' }));
    expect(named.status).toBe(200);
    expect(named.data.container).toBe('evidence');
  });

  it('DOC-032 container is optional when the account has one: the response names it', async () => {
    const r = await h.sas(body());
    expect(r.status).toBe(200);
    expect(r.data.container).toBe('documents');
  });

  it("DOC-033 a container that is not one of the account's is 422", async () => {
    for (const [account, container] of [
      ['local', 'evidence'],
      ['local-multi', 'archive'],
      ['local', 'nope'],
    ]) {
      const r = await h.sas(body({ storage_account: account, container }));
      expect(r.status, `${account}/${container}`).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'unknown_container', field: 'body/container' });
    }
  });

  it('DOC-034 an earlier blob_name is signed again: same name, fresh URL and expiry; the upload continues with it', async () => {
    h.pin(-10);
    const first = await h.sas(body());
    h.pin();
    const renewed = await h.sas(body({ blob_name: first.data.blob_name }));
    h.unpin();
    expect(renewed.status).toBe(200);
    expect(renewed.data.blob_name).toBe(first.data.blob_name);
    expect(renewed.data.sas_url).not.toBe(first.data.sas_url);
    expect(new Date(renewed.data.sas_expires_at).getTime()).toBeGreaterThan(
      new Date(first.data.sas_expires_at).getTime(),
    );
    // A block staged with the first URL, committed with the renewed one: one upload, two URLs.
    const id = Buffer.from('block-0').toString('base64');
    await new BlockBlobClient(first.data.sas_url).stageBlock(id, Buffer.from('part one'), 8);
    await new BlockBlobClient(renewed.data.sas_url).commitBlockList([id]);
    expect(await h.storage.properties('local', 'documents', first.data.blob_name)).toEqual({ size: 8 });
  });

  it('DOC-035 a renewed blob_name that does not look service-minted is 422', async () => {
    for (const blob_name of [
      'report.pdf',
      'report_5f0c2a4e-8d3b-4c7e-9a51-2b6f1d3e4a5c.pdf', // a version-4 uuid: not minted here
      'x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60',
      '../x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      // Path tricks pointing at another container or account: never a blob name.
      'evidence/x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      '/documents/x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      'x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf/../../other/y.pdf',
      '..\\evidence\\x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      '%2e%2e%2fx_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      'https://attacker.example/devstoreaccount1/documents/x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf',
      'x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.pdf?comp=list',
      'x_0190f3a2-7b1c-7d4e-8f5a-1b2c3d4e5f60.PDF',
      'x_0190F3A2-7B1C-7D4E-8F5A-1B2C3D4E5F60.pdf',
    ]) {
      const r = await h.sas(body({ blob_name }));
      expect(r.status, blob_name).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'blob_not_service_minted', field: 'body/blob_name' });
    }
  });

  it('DOC-036 renewing a blob that already has a document is 409', async () => {
    const doc = await h.document();
    const r = await h.sas(body({ blob_name: doc.blob_name }));
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('blob_already_registered');
  });

  it('DOC-036 a blob_name registered in another container or account is not signed again anywhere: 409', async () => {
    const doc = await h.document({}, { storage_account: 'local-multi', container: 'documents' });
    for (const [storage_account, container] of [
      ['local-multi', 'evidence'],
      ['local-multi', 'documents'],
      ['local', undefined],
    ]) {
      const r = await h.sas(body({ storage_account, ...(container ? { container } : {}), blob_name: doc.blob_name }));
      expect(r.status, `${storage_account}/${container}`).toBe(409);
      expect(r.errors[0].code).toBe('blob_already_registered');
    }
  });

  it('DOC-037 documents signs a renewal of a service-minted, unregistered blob_name for any caller', async () => {
    const first = await h.sas(body());
    const callers: Record<string, string>[] = [
      {},
      { 'x-dev-principal': 'someone.else@example.com' },
      { 'x-dev-principal': 'service:workspace' },
      { authorization: 'Bearer not-a-token' },
      { 'x-platform-service-token': 'whatever', 'x-platform-on-behalf-of': 'another@example.com' },
    ];
    for (const headers of callers) {
      const r = await h.sas(body({ blob_name: first.data.blob_name }), headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.data.blob_name).toBe(first.data.blob_name);
    }
  });
});
