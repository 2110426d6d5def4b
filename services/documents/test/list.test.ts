import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

interface Ref {
  ref_type: string;
  ref_id: string;
  ref_category: string;
  is_external: boolean;
}
const ref = (ref_type: string, ref_id: string, ref_category = 'evidence', is_external = false): Ref => ({
  ref_type,
  ref_id,
  ref_category,
  is_external,
});
/** A ref_type no other test uses, so each test sees only its own documents. */
const fresh = () => `t${randomUUID().slice(0, 8)}`;
const doc = (references: Ref[], metadata: { meta_name: string; meta_value: string }[] = []) =>
  h.document({ references, metadata });
const list = (query: string) => h.call('GET', `/v1/documents?${query}`);
const ids = (r: { data: { id: string }[] }) => r.data.map((d) => d.id);

describe('GET /v1/documents', () => {
  it('DOC-068 page mode: pagination[page] and pagination[pageSize], meta.pagination, newest first', async () => {
    const T = fresh();
    const made: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        h.pin(i - 10);
        made.push((await doc([ref(T, 'same')])).id);
      }
    } finally {
      h.unpin();
    }
    const newestFirst = [...made].reverse();
    const q = `ref_type=${T}&pagination[pageSize]=2`;
    const p1 = await list(`${q}&pagination[page]=1`);
    const p2 = await list(`${q}&pagination[page]=2`);
    const p3 = await list(`${q}&pagination[page]=3`);
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual(newestFirst);
    expect(p2.body.payload.meta.pagination).toEqual({
      mode: 'page',
      page: 2,
      pageSize: 2,
      totalItems: 5,
      totalPages: 3,
    });
    const past = await list(`${q}&pagination[page]=4`);
    expect(past.data).toEqual([]);
    expect(past.body.payload.meta.pagination).toMatchObject({ page: 4, totalItems: 5, totalPages: 3 });
    const first = await list(`ref_type=${T}`);
    expect(first.body.payload.meta.pagination).toMatchObject({ page: 1, pageSize: 25, totalItems: 5 });
    expect((await list('pagination[pageSize]=101')).status).toBe(422);
    expect((await list('pagination[page]=0')).status).toBe(422);
  });

  it('DOC-069 ref_type selects documents with a reference of that type', async () => {
    const [A, B] = [fresh(), fresh()];
    const a = await doc([ref(A, '1')]);
    const b = await doc([ref(B, '1')]);
    const r = await list(`ref_type=${A}`);
    expect(ids(r)).toEqual([a.id]);
    expect(ids(r)).not.toContain(b.id);
  });

  it('DOC-070 ref_id selects documents with a reference of that id', async () => {
    const [A, B] = [fresh(), fresh()];
    const id = randomUUID();
    const a = await doc([ref(A, id)]);
    const b = await doc([ref(B, id)]);
    await doc([ref(A, randomUUID())]);
    expect(ids(await list(`ref_id=${id}`)).sort()).toEqual([a.id, b.id].sort());
    // An id in upper case names the same record.
    expect(ids(await list(`ref_id=${id.toUpperCase()}`)).sort()).toEqual([a.id, b.id].sort());
  });

  it('DOC-071 ref_category selects documents with a reference of that category', async () => {
    const T = fresh();
    const cat = `c${randomUUID().slice(0, 6)}`;
    const a = await doc([ref(T, '1', cat)]);
    await doc([ref(T, '1', 'other')]);
    expect(ids(await list(`ref_category=${cat}`))).toEqual([a.id]);
    expect(ids(await list(`ref_type=${T}&ref_category=${cat}`))).toEqual([a.id]);
  });

  it('DOC-072 DOC-073 DOC-074 is_external=true and =false select by that flag; absent means either', async () => {
    const T = fresh();
    const ext = await doc([ref(T, '1', 'link', true)]);
    const int = await doc([ref(T, '1', 'link', false)]);
    expect(ids(await list(`ref_type=${T}&is_external=true`))).toEqual([ext.id]);
    expect(ids(await list(`ref_type=${T}&is_external=false`))).toEqual([int.id]);
    expect(ids(await list(`ref_type=${T}`)).sort()).toEqual([ext.id, int.id].sort());
  });

  it('DOC-075 is_external accepts only the strings true and false', async () => {
    for (const v of ['yes', '1', 'TRUE', '']) {
      const r = await list(`is_external=${v}`);
      expect(r.status, v).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'validation_failed', field: 'querystring/is_external' });
    }
  });

  it('DOC-069 DOC-072 DOC-075 a repeated, bracketed or unknown filter is 422, never a list filtered otherwise', async () => {
    for (const query of [
      'ref_type=a&ref_type=b',
      'is_external=true&is_external=false',
      'is_external[]=true',
      'ref_types=a',
      'pagination[page]=1&pagination[page]=2',
    ]) {
      const r = await list(query);
      expect(r.status, query).toBe(422);
      expect(r.errors[0].code).toBe('validation_failed');
    }
  });

  it('DOC-076 all set filters must match one single reference', async () => {
    const [X, Y] = [fresh(), fresh()];
    const d = await doc([ref(X, '1'), ref(Y, '2')]);
    expect(ids(await list(`ref_type=${X}&ref_id=2`))).toEqual([]);
    expect(ids(await list(`ref_type=${X}&ref_id=1`))).toEqual([d.id]);
    expect(ids(await list(`ref_type=${Y}&ref_id=2&is_external=true`))).toEqual([]);
    expect(ids(await list(`ref_type=${Y}&ref_id=2&ref_category=evidence&is_external=false`))).toEqual([d.id]);
  });

  it('DOC-077 DOC-078 a document matches if any reference does, and carries all its references and metadata', async () => {
    const [X, Y, Z] = [fresh(), fresh(), fresh()];
    const references = [ref(Y, '9'), ref(X, '1', 'photo', true), ref(Z, '3')];
    const metadata = [
      { meta_name: 'uploaded_by', meta_value: 'ann' },
      { meta_name: 'floor', meta_value: '2' },
    ];
    const d = await doc(references, metadata);
    const r = await list(`ref_type=${X}&ref_id=1`);
    expect(ids(r)).toEqual([d.id]);
    expect(r.data[0].references).toEqual(references);
    expect(r.data[0].metadata).toEqual(metadata);
    expect(r.data[0]).toEqual(d);
  });

  it('DOC-079 DOC-017 list items carry no SAS', async () => {
    const T = fresh();
    await doc([ref(T, '1')]);
    const r = await list(`ref_type=${T}`);
    expect(r.data).toHaveLength(1);
    for (const item of r.data) {
      expect(item).not.toHaveProperty('sas_url');
      expect(item).not.toHaveProperty('sas_expires_at');
    }
  });
});
