import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { BlockBlobClient } from '@azure/storage-blob';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, MAX_UPLOAD, MINTED, putBlob, UUID } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

describe('registration with real bytes', () => {
  it('DOC-038 DOC-001 DOC-013 DOC-064 mint, PUT the bytes, register, read: the download equals the upload', async () => {
    const bytes = randomBytes(48);
    const minted = await h.sas({ filename: 'Lease.pdf', visibility: 'private', storage_account: 'local' });
    expect(minted.status).toBe(200);
    const put = await fetch(minted.data.sas_url, {
      method: 'PUT',
      headers: { 'x-ms-blob-type': 'BlockBlob' },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const reg = await h.register(
      h.registration(minted.data, {
        content_hash: sha256(bytes),
        references: [{ ref_type: 'lease', ref_id: 'L-1', ref_category: 'signed', is_external: false }],
        metadata: [{ meta_name: 'uploaded_by', meta_value: 'ann@example.com' }],
      }),
    );
    expect(reg.status).toBe(201);
    expect(reg.data.id).toMatch(UUID);
    expect(reg.data).toMatchObject({
      filename: 'Lease.pdf',
      storage_account: 'local',
      container: 'documents',
      blob_name: minted.data.blob_name,
      byte_size: 48,
      content_hash: sha256(bytes),
    });
    const read = await h.call('GET', `/v1/documents/${reg.data.id}`);
    expect(read.status).toBe(200);
    const download = await fetch(read.data.sas_url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("DOC-026 DOC-064 the Azure SDK's BlockBlobClient uploads with the SAS URL and downloads with the read URL", async () => {
    const bytes = randomBytes(33);
    const minted = await h.sas({ filename: 'photo.jpg', visibility: 'private', storage_account: 'local' });
    await new BlockBlobClient(minted.data.sas_url).uploadData(bytes);
    const reg = await h.register(h.registration(minted.data, { content_type: 'image/jpeg' }));
    expect(reg.status).toBe(201);
    expect(reg.data.byte_size).toBe(33);
    const read = await h.call('GET', `/v1/documents/${reg.data.id}`);
    const downloaded = await new BlockBlobClient(read.data.sas_url).downloadToBuffer();
    expect(downloaded.equals(bytes)).toBe(true);
  });

  it('DOC-008 DOC-010 a registered blob_name has the minted form; content_hash may be omitted', async () => {
    const doc = await h.document();
    expect(doc.blob_name).toMatch(MINTED);
    expect(doc.content_hash).toBeNull();
  });

  it('DOC-012 content_hash is stored as claimed: one that does not match the bytes is returned unchanged', async () => {
    const claimed = sha256('other bytes');
    const doc = await h.document({ content_hash: claimed }, { bytes: 'these bytes' });
    expect(doc.content_hash).toBe(claimed);
    expect((await h.call('GET', `/v1/documents/${doc.id}`)).data.content_hash).toBe(claimed);
  });

  it('DOC-011 a content_hash that is not 64 lowercase hex characters is refused and nothing is written', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    for (const content_hash of ['abc', sha256('x').toUpperCase(), `${sha256('x').slice(0, 63)}g`, `${sha256('x')}0`]) {
      const r = await h.register(h.registration(u, { content_hash }));
      expect(r.status, content_hash).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/content_hash' });
    }
    expect(await h.state()).toEqual(before);
  });

  it('DOC-014 a byte_size from the caller is never stored: refused, and the record shows the size in storage', async () => {
    const u = await h.upload('twelve bytes');
    const before = await h.state();
    const r = await h.register(h.registration(u, { byte_size: 1 }));
    expect(r.status).toBe(422);
    expect(r.errors[0].field).toBe('body/data/byte_size');
    expect(await h.state()).toEqual(before);
    const ok = await h.register(h.registration(u));
    expect(ok.data.byte_size).toBe(12);
  });

  it('DOC-015 DOC-016 references carry ref_type, ref_id, ref_category and a boolean is_external; metadata two strings', async () => {
    const doc = await h.document({
      references: [
        { ref_type: 'vendor', ref_id: 'V-9', ref_category: 'insurance', is_external: true },
        { ref_type: 'project', ref_id: 'P-1', ref_category: 'evidence', is_external: false },
      ],
      metadata: [
        { meta_name: 'uploaded_by', meta_value: 'ann@example.com' },
        { meta_name: 'pages', meta_value: '3' },
      ],
    });
    for (const ref of doc.references) {
      expect(Object.keys(ref).sort()).toEqual(['is_external', 'ref_category', 'ref_id', 'ref_type']);
      expect(typeof ref.is_external).toBe('boolean');
    }
    expect(doc.references[0]).toEqual({
      ref_type: 'vendor',
      ref_id: 'V-9',
      ref_category: 'insurance',
      is_external: true,
    });
    for (const m of doc.metadata) {
      expect(Object.keys(m).sort()).toEqual(['meta_name', 'meta_value']);
      expect(typeof m.meta_name).toBe('string');
      expect(typeof m.meta_value).toBe('string');
    }
    expect(doc.metadata[1]).toEqual({ meta_name: 'pages', meta_value: '3' });
  });

  it('DOC-017 DOC-019 the registration response has no SAS and no state or status field', async () => {
    const doc = await h.document();
    for (const field of ['sas_url', 'sas_expires_at', 'state', 'status']) expect(doc).not.toHaveProperty(field);
  });

  it('DOC-018 created_by and updated_by hold the placeholder actor system', async () => {
    const doc = await h.document();
    const row = await sql<{ created_by: string; updated_by: string }>`
      SELECT created_by, updated_by FROM documents WHERE id = ${doc.id}::uuid`.execute(h.db);
    expect(row.rows[0]).toEqual({ created_by: 'system', updated_by: 'system' });
  });
});

describe('registration refusals write nothing', () => {
  it('DOC-002 DOC-024 a filename without an extension is 422 on registration', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    for (const filename of ['README', 'draft.', 'notes.tx t']) {
      const r = await h.register(h.registration(u, { filename }));
      expect(r.status, filename).toBe(422);
    }
    const r = await h.register(h.registration(u, { filename: 'README' }));
    expect(r.errors[0]).toMatchObject({ code: 'filename_extension_required', field: 'body/data/filename' });
    expect(await h.state()).toEqual(before);
  });

  it('DOC-003 an unsafe filename is 422, on registration and on SAS minting', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const unsafe = [
      '../etc/passwd.pdf',
      'a/b.pdf',
      '\u200b.pdf',
      'zero\u200bwidth.pdf',
      'line\u2028sep.pdf',
      'para\u2029sep.pdf',
      'soft\u00adhyphen.pdf',
      'bom\ufeffinside.pdf',
      'next\u0085line.pdf',
      'a\\b.pdf',
      '.hidden.pdf',
      'x..pdf',
      'bell\u0007.pdf',
      'tab\t.pdf',
      'invoice\u202Efdp.exe',
      'CON.pdf',
      'what?.pdf',
      ' lead.pdf',
      'trail.pdf ',
    ];
    for (const filename of unsafe) {
      const r = await h.register(h.registration(u, { filename }));
      expect(r.status, filename).toBe(422);
      expect(r.errors[0].code, filename).toBe('unsafe_filename');
      const s = await h.sas({ filename, visibility: 'private', storage_account: 'local' });
      expect(s.status, filename).toBe(422);
    }
    // Over 255 characters: the schema's limit (shown in the OpenAPI document).
    for (const filename of [`${'a'.repeat(252)}.pdf`, `${'😀'.repeat(252)}.pdf`]) {
      const r = await h.register(h.registration(u, { filename }));
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/filename' });
    }
    expect(await h.state()).toEqual(before);
    for (const filename of [
      'Q3 report (final).pdf',
      'plan.v2.dwg',
      'Évaluation.docx',
      `${'a'.repeat(251)}.pdf`,
      `${'😀'.repeat(251)}.pdf`,
      'family 👨\u200d👩\u200d👧.jpg',
    ]) {
      expect((await h.sas({ filename, visibility: 'private', storage_account: 'local' })).status, filename).toBe(200);
    }
  });

  it('DOC-004 an unknown storage account is 422', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const r = await h.register(h.registration(u, { storage_account: 'elsewhere' }));
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'unknown_storage_account', field: 'body/data/storage_account' });
    expect((await h.sas({ filename: 'a.pdf', visibility: 'private', storage_account: 'elsewhere' })).status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it("DOC-005 a visibility differing from the catalog's is 422", async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const r = await h.register(h.registration(u, { visibility: 'public' }));
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'visibility_mismatch', field: 'body/data/visibility' });
    const s = await h.sas({ filename: 'a.pdf', visibility: 'private', storage_account: 'archive' });
    expect(s.errors[0].code).toBe('visibility_mismatch');
    expect(await h.state()).toEqual(before);
    // The public account takes public files.
    const pub = await h.document({ content_type: 'text/plain' }, { storage_account: 'archive', visibility: 'public' });
    expect(pub).toMatchObject({ visibility: 'public', storage_account: 'archive', container: 'archive' });
  });

  it("DOC-006 a container that is not one of the account's is 422", async () => {
    const u = await h.upload('x');
    const before = await h.state();
    for (const container of ['evidence', 'archive', 'nope']) {
      const r = await h.register(h.registration(u, { container }));
      expect(r.status, container).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'unknown_container', field: 'body/data/container' });
    }
    expect(await h.state()).toEqual(before);
  });

  it('DOC-041 registering in another container than the SAS response returned is 422', async () => {
    const u = await h.upload('x', { storage_account: 'local-multi', container: 'documents' });
    const before = await h.state();
    const r = await h.register(h.registration(u, { container: 'evidence' }));
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'blob_not_found', field: 'body/data/blob_name' });
    expect(await h.state()).toEqual(before);
    expect((await h.register(h.registration(u))).status).toBe(201);
  });

  it('DOC-042 a blob_name not in storage is 422 (checked before any write)', async () => {
    const minted = await h.sas({ filename: 'never.pdf', visibility: 'private', storage_account: 'local' });
    const before = await h.state();
    const r = await h.register(h.registration(minted.data));
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('blob_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-035 registration also refuses a blob_name that is not service-minted (422)', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const r = await h.register(h.registration(u, { blob_name: 'report.pdf' }));
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('blob_not_service_minted');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-043 DOC-045 a blob over DOCUMENTS_MAX_UPLOAD_BYTES is 413 upload_too_large and stays in the container', async () => {
    const bytes = randomBytes(MAX_UPLOAD + 1);
    const u = await h.upload(bytes);
    const before = await h.state();
    const r = await h.register(h.registration(u));
    expect(r.status).toBe(413);
    expect(r.errors[0].code).toBe('upload_too_large');
    expect(await h.state()).toEqual(before);
    expect(await h.storage.properties('local', 'documents', u.blob_name)).toEqual({ size: MAX_UPLOAD + 1 });
    const still = await fetch(h.storage.readSas('local', 'documents', u.blob_name).url);
    expect(Buffer.from(await still.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('DOC-044 a blob of exactly DOCUMENTS_MAX_UPLOAD_BYTES registers', async () => {
    const u = await h.upload(randomBytes(MAX_UPLOAD));
    const r = await h.register(h.registration(u));
    expect(r.status).toBe(201);
    expect(r.data.byte_size).toBe(MAX_UPLOAD);
  });

  it('DOC-009 DOC-046 a blob that already has a document is 409 and nothing is written', async () => {
    const u = await h.upload('once');
    expect((await h.register(h.registration(u))).status).toBe(201);
    const before = await h.state();
    const again = await h.register(h.registration(u, { filename: 'other.pdf' }));
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('blob_already_registered');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-009 concurrent registrations of one blob: one 201, the others 409, and only the winner is written', async () => {
    const u = await h.upload('race');
    const before = await h.counts();
    const created = (await h.events('documents.created')).length;
    const bodies = [0, 1, 2, 3].map((i) =>
      h.registration(u, {
        filename: `race-${i}.pdf`,
        references: [{ ref_type: 'race', ref_id: String(i), ref_category: 'c', is_external: false }],
        metadata: [{ meta_name: 'attempt', meta_value: String(i) }],
      }),
    );
    const results = await Promise.all(bodies.map((b) => h.register(b)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.errors[0].code).toBe('blob_already_registered');
    const winner = results.find((r) => r.status === 201)?.data;
    const after = await h.counts();
    expect(after.documents).toBe(before.documents + 1);
    expect(after.document_references).toBe(before.document_references + 1);
    expect(after.document_metadata).toBe(before.document_metadata + 1);
    expect(after.outbox).toBe(before.outbox + 1);
    expect(after.idempotency_keys).toBe(before.idempotency_keys + 1);
    const events = await h.events('documents.created');
    expect(events).toHaveLength(created + 1);
    expect(events.at(-1)?.payload.data).toMatchObject({ id: winner.id, references: winner.references });
    const stored = (await h.call('GET', `/v1/documents/${winner.id}`)).data;
    expect(stored.metadata).toEqual(winner.metadata);
  });

  it('DOC-009 DOC-046 a blob_name registered in one container is refused in another (409), and nothing is written', async () => {
    const first = await h.sas({
      filename: 'twin.pdf',
      visibility: 'private',
      storage_account: 'local-multi',
      container: 'documents',
    });
    // Signed again for the other container while nothing records it yet: two blobs, one minted name.
    const second = await h.sas({
      filename: 'twin.pdf',
      visibility: 'private',
      storage_account: 'local-multi',
      container: 'evidence',
      blob_name: first.data.blob_name,
    });
    expect(second.status).toBe(200);
    expect((await putBlob(first.data.sas_url, 'one')).status).toBe(201);
    expect((await putBlob(second.data.sas_url, 'two')).status).toBe(201);
    expect((await h.register(h.registration(first.data))).status).toBe(201);
    const before = await h.state();
    const again = await h.register(h.registration(second.data));
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('blob_already_registered');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-038 DOC-093 a registration that fails writing its event leaves nothing half-done; the same key then succeeds', async () => {
    const u = await h.upload('crash');
    const data = h.registration(u, {
      references: [{ ref_type: 'project', ref_id: 'P-crash', ref_category: 'evidence', is_external: false }],
      metadata: [{ meta_name: 'owner', meta_value: 'ann' }],
    });
    const key = randomUUID();
    await sql`CREATE FUNCTION crash_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'crash after the change'; END $$`.execute(h.db);
    const before = await h.state();
    await sql`CREATE TRIGGER crash_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION crash_outbox()`.execute(
      h.db,
    );
    try {
      const r = await h.register(data, key);
      expect(r.status).toBe(500);
      expect(r.errors[0].code).toBe('internal_error');
    } finally {
      await sql`DROP TRIGGER crash_outbox ON outbox`.execute(h.db);
      await sql`DROP FUNCTION crash_outbox()`.execute(h.db);
    }
    // No document, reference, metadata, event or key: the blob is still free.
    expect(await h.state()).toEqual(before);
    const retried = await h.register(data, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.data.references).toEqual(data.references);
  });

  it('DOC-039 registration without an Idempotency-Key is 400 and nothing is written', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const r = await h.call('POST', '/v1/documents', { data: h.registration(u) }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-040 a registration body missing a required field is 422 and nothing is written', async () => {
    const u = await h.upload('x');
    const full = h.registration(u) as Record<string, unknown>;
    const before = await h.state();
    for (const field of [
      'filename',
      'visibility',
      'storage_account',
      'container',
      'blob_name',
      'content_type',
      'references',
      'metadata',
    ]) {
      const { [field]: _, ...partial } = full;
      const r = await h.register(partial);
      expect(r.status, field).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: `body/data/${field}` });
    }
    expect((await h.call('POST', '/v1/documents', full)).status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('DOC-047 the same Idempotency-Key with a different body is 409; with the same body it replays', async () => {
    const u = await h.upload('x');
    const key = randomUUID();
    const first = await h.register(h.registration(u), key);
    expect(first.status).toBe(201);
    const after = await h.state();
    const replay = await h.register(h.registration(u), key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    const other = await h.register(h.registration(u, { filename: 'renamed.pdf' }), key);
    expect(other.status).toBe(409);
    expect(other.errors[0].code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(after);
  });

  it('DOC-048 duplicate references in one body are 422', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const ref = { ref_type: 'project', ref_id: 'P-1', ref_category: 'evidence', is_external: false };
    for (const second of [ref, { ...ref, is_external: true }]) {
      const r = await h.register(h.registration(u, { references: [ref, second] }));
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'duplicate_reference', field: 'body/data/references/1' });
    }
    expect(await h.state()).toEqual(before);
    const documents = await h.count('documents');
    // Same record under another category is a second link, not a duplicate.
    const u2 = await h.upload('y');
    const ok = await h.register(h.registration(u2, { references: [ref, { ...ref, ref_category: 'photo' }] }));
    expect(ok.status).toBe(201);
    const id = randomUUID();
    const upper = await h.register(
      h.registration(await h.upload('z'), {
        references: [
          { ...ref, ref_id: id },
          { ...ref, ref_id: id.toUpperCase() },
        ],
      }),
    );
    expect(upper.status).toBe(422);
    expect(await h.count('documents')).toBe(documents + 1);
  });

  it('DOC-048 DOC-049 names with leading or trailing blanks or control characters are 422: no near-duplicates ("P-1" and "P-1 ")', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const ref = { ref_type: 'project', ref_id: 'P-1', ref_category: 'evidence', is_external: false };
    for (const bad of ['P-1 ', ' P-1', 'P-1\t', 'P-\u001b1', 'P-1\n', 'P\u20281']) {
      for (const field of ['ref_type', 'ref_id', 'ref_category']) {
        const r = await h.register(h.registration(u, { references: [ref, { ...ref, [field]: bad }] }));
        expect(r.status, `${field} ${JSON.stringify(bad)}`).toBe(422);
        expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: `body/data/references/1/${field}` });
      }
      const m = await h.register(
        h.registration(u, {
          metadata: [
            { meta_name: 'P-1', meta_value: 'a' },
            { meta_name: bad, meta_value: 'b' },
          ],
        }),
      );
      expect(m.status, JSON.stringify(bad)).toBe(422);
      expect(m.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/metadata/1/meta_name' });
    }
    // The same filters on the list are refused too.
    expect((await h.call('GET', '/v1/documents?ref_id=P-1%20')).status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('DOC-048 DOC-049 at most 100 references and 100 metadata items: more is 422 and nothing is written', async () => {
    const u = await h.upload('x');
    const refs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ref_type: 'bulk',
        ref_id: String(i),
        ref_category: 'c',
        is_external: false,
      }));
    const meta = (n: number) => Array.from({ length: n }, (_, i) => ({ meta_name: `m${i}`, meta_value: 'v' }));
    const before = await h.state();
    for (const extra of [{ references: refs(101) }, { metadata: meta(101) }, { metadata: meta(5000) }]) {
      const r = await h.register(h.registration(u, extra));
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('validation_failed');
    }
    expect(await h.state()).toEqual(before);
    const ok = await h.register(h.registration(u, { references: refs(100), metadata: meta(100) }));
    expect(ok.status).toBe(201);
    expect(ok.data.references).toHaveLength(100);
    expect(ok.data.metadata).toHaveLength(100);
  });

  it('DOC-040 a content_type with a line break, a control character or non-ASCII parameters is 422 and nothing is written', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    for (const content_type of [
      'text/plain\n; charset=utf-8',
      'text/plain; charset=utf-8\r\nX-Injected: 1',
      'text/plain; a=\u0001',
      'text/plain; name=\u00e9',
      'text plain',
    ]) {
      const r = await h.register(h.registration(u, { content_type }));
      expect(r.status, JSON.stringify(content_type)).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/data/content_type' });
    }
    expect(await h.state()).toEqual(before);
    const ok = await h.register(h.registration(u, { content_type: 'text/plain; charset="utf-8"' }));
    expect(ok.status).toBe(201);
  });

  it('DOC-049 duplicate metadata in one body is 422', async () => {
    const u = await h.upload('x');
    const before = await h.state();
    const r = await h.register(
      h.registration(u, {
        metadata: [
          { meta_name: 'owner', meta_value: 'ann' },
          { meta_name: 'owner', meta_value: 'bob' },
        ],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'duplicate_metadata', field: 'body/data/metadata/1/meta_name' });
    expect(await h.state()).toEqual(before);
  });
});

describe('events', () => {
  it('DOC-093 DOC-094 one documents.created per new document carrying its references; none on replay or refusal', async () => {
    const references = [
      { ref_type: 'project', ref_id: 'P-7', ref_category: 'evidence', is_external: false },
      { ref_type: 'vendor', ref_id: 'ext-7', ref_category: 'coi', is_external: true },
    ];
    const u = await h.upload('x');
    const key = randomUUID();
    const before = (await h.events('documents.created')).length;
    const doc = await h.register(h.registration(u, { references }), key);
    expect(doc.status).toBe(201);
    const created = await h.events('documents.created');
    expect(created).toHaveLength(before + 1);
    const event = created[created.length - 1];
    expect(event.subject).toBe('documents.documents.created');
    expect(event.payload.data).toEqual({
      id: doc.data.id,
      storage_account: 'local',
      container: 'documents',
      references: doc.data.references,
    });
    expect(event.payload.data.references).toEqual(references);
    // Replay, a second registration of the blob, an oversized blob, a missing blob: no event.
    await h.register(h.registration(u, { references }), key);
    await h.register(h.registration(u));
    await h.register(h.registration(await h.upload(randomBytes(MAX_UPLOAD + 1))));
    await h.register(
      h.registration((await h.sas({ filename: 'n.pdf', visibility: 'private', storage_account: 'local' })).data),
    );
    expect(await h.events('documents.created')).toHaveLength(before + 1);
  });
});
