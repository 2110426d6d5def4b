import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const REFS = [
  { ref_type: 'project', ref_id: 'P-1', ref_category: 'evidence', is_external: false },
  { ref_type: 'vendor', ref_id: 'V-1', ref_category: 'coi', is_external: true },
];
const META = [
  { meta_name: 'owner', meta_value: 'ann' },
  { meta_name: 'uploaded_by', meta_value: 'ann@example.com' },
];

const fresh = () => h.document({ references: REFS, metadata: META }, { filename: 'First.pdf' });
const update = (id: string, data: Record<string, unknown>, key?: string | null) =>
  h.call('POST', `/v1/documents/${id}`, { data }, key);
const read = async (id: string) => (await h.call('GET', `/v1/documents/${id}`)).data;
/** The stored record without the read SAS, which is signed afresh at every read. */
const stored = async (id: string) => {
  const { sas_url: _u, sas_expires_at: _e, ...doc } = await read(id);
  return doc;
};

describe('POST /v1/documents/{id}', () => {
  it('DOC-050 an update without an Idempotency-Key is 400 and the record is unchanged', async () => {
    const doc = await fresh();
    const before = await h.state();
    const r = await update(doc.id, { filename: 'Second.pdf' }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-051 filename is optional: given, it changes; omitted, it stays', async () => {
    const doc = await fresh();
    const renamed = await update(doc.id, { filename: 'Second.pdf' });
    expect(renamed.status).toBe(200);
    expect(renamed.data.filename).toBe('Second.pdf');
    const other = await update(doc.id, { metadata: [] });
    expect(other.data.filename).toBe('Second.pdf');
    expect((await read(doc.id)).filename).toBe('Second.pdf');
  });

  it('DOC-052 DOC-053 references and metadata given are full replacement sets; omitted they stay as they were', async () => {
    const doc = await fresh();
    const references = [{ ref_type: 'invoice', ref_id: 'I-9', ref_category: 'scan', is_external: false }];
    const metadata = [{ meta_name: 'pages', meta_value: '12' }];
    const r = await update(doc.id, { references, metadata });
    expect(r.data.references).toEqual(references);
    expect(r.data.metadata).toEqual(metadata);
    expect((await read(doc.id)).references).toEqual(references);
    const rename = await update(doc.id, { filename: 'Kept.pdf' });
    expect(rename.data.references).toEqual(references);
    expect(rename.data.metadata).toEqual(metadata);
  });

  it('DOC-054 DOC-055 empty arrays clear references and metadata', async () => {
    const doc = await fresh();
    const r = await update(doc.id, { references: [], metadata: [] });
    expect(r.status).toBe(200);
    expect(r.data.references).toEqual([]);
    expect(r.data.metadata).toEqual([]);
    const again = await read(doc.id);
    expect(again.references).toEqual([]);
    expect(again.metadata).toEqual([]);
  });

  it('DOC-056 DOC-007 storage_account, visibility, container and blob_name are refused on update; they never change', async () => {
    const doc = await fresh();
    const before = await h.state();
    for (const [field, value] of [
      ['storage_account', 'local-multi'],
      ['visibility', 'public'],
      ['container', 'evidence'],
      ['blob_name', `x_${randomUUID()}.pdf`],
    ]) {
      const r = await update(doc.id, { filename: 'Moved.pdf', [field]: value });
      expect(r.status, field).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: `body/data/${field}` });
    }
    expect(await h.state()).toEqual(before);
    await update(doc.id, { filename: 'Renamed.pdf', references: [], metadata: META });
    const after = await read(doc.id);
    for (const field of ['storage_account', 'visibility', 'container', 'blob_name']) {
      expect(after[field], field).toBe(doc[field]);
    }
  });

  it('DOC-057 the same Idempotency-Key on another document is a fresh command that updates it', async () => {
    const a = await fresh();
    const b = await fresh();
    const key = randomUUID();
    const body = { filename: 'Same body.pdf', metadata: [] };
    const first = await update(a.id, body, key);
    expect(first.status).toBe(200);
    const second = await update(b.id, body, key);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.data.id).toBe(b.id);
    expect((await read(b.id)).filename).toBe('Same body.pdf');
    expect((await read(b.id)).metadata).toEqual([]);
    const updated = (await h.events('documents.updated')).map((e) => e.payload.data.id);
    expect(updated).toContain(a.id);
    expect(updated).toContain(b.id);
  });

  it('DOC-058 the same key on the same document with a different body is 409; with the same body it replays', async () => {
    const doc = await fresh();
    const key = randomUUID();
    const first = await update(doc.id, { filename: 'One.pdf' }, key);
    expect(first.status).toBe(200);
    const after = await h.state();
    const replay = await update(doc.id, { filename: 'One.pdf' }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    const other = await update(doc.id, { filename: 'Two.pdf' }, key);
    expect(other.status).toBe(409);
    expect(other.errors[0].code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(after);
    expect((await read(doc.id)).filename).toBe('One.pdf');
  });

  it('DOC-059 PUT /v1/documents/{id} is not a route and changes nothing', async () => {
    const doc = await fresh();
    const record = await stored(doc.id);
    const before = await h.state();
    const r = await h.call('PUT', `/v1/documents/${doc.id}`, { data: { filename: 'Put.pdf' } }, randomUUID());
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('route_not_found');
    expect(await h.state()).toEqual(before);
    expect(await stored(doc.id)).toEqual(record);
    expect(record.filename).toBe('First.pdf');
  });

  it('DOC-060 an update of a document that does not exist is 404 and nothing is written', async () => {
    const before = await h.state();
    const r = await update(randomUUID(), { filename: 'Ghost.pdf' });
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('document_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('DOC-003 DOC-048 DOC-049 an unsafe filename or duplicates in an update are 422 and change nothing', async () => {
    const doc = await fresh();
    const before = await h.state();
    for (const data of [
      { filename: '../x.pdf' },
      { filename: 'noext' },
      { references: [REFS[0], REFS[0]] },
      { metadata: [META[0], META[0]] },
    ]) {
      const r = await update(doc.id, data);
      expect(r.status, JSON.stringify(data)).toBe(422);
    }
    expect(await h.state()).toEqual(before);
  });

  it('DOC-017 DOC-018 the update response carries no SAS and updated_by holds system', async () => {
    const doc = await fresh();
    const r = await update(doc.id, { filename: 'Audit.pdf' });
    expect(r.data).not.toHaveProperty('sas_url');
    expect(r.data).not.toHaveProperty('sas_expires_at');
    const row = await sql<{ created_by: string; updated_by: string }>`
      SELECT created_by, updated_by FROM documents WHERE id = ${doc.id}::uuid`.execute(h.db);
    expect(row.rows[0]).toEqual({ created_by: 'system', updated_by: 'system' });
  });

  it('an applied update emits one documents.updated with the id; a refused one emits none', async () => {
    const doc = await fresh();
    const before = (await h.events('documents.updated')).length;
    await update(doc.id, { filename: 'Evented.pdf' });
    await update(doc.id, { filename: 'bad/name.pdf' });
    await update(randomUUID(), { filename: 'Nobody.pdf' });
    const events = await h.events('documents.updated');
    expect(events).toHaveLength(before + 1);
    expect(events[events.length - 1].payload.data).toEqual({ id: doc.id });
  });
});
