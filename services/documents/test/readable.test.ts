import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

interface Doc {
  id: string;
  created_at: string;
  filename: string;
}
const project = (id: string) => ({ ref_type: 'project', ref_id: id, ref_category: 'file', is_external: false });
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs).map(([meta_name, meta_value]) => ({ meta_name, meta_value }));
/** A file in these projects (none: unfiled), owned and uploaded by whom the pairs say. */
const file = async (
  projects: string[],
  pairs: Record<string, string> = {},
  o: { filename?: string; references?: unknown[] } = {},
): Promise<Doc> =>
  h.document(
    { references: o.references ?? projects.map(project), metadata: meta(pairs) },
    { filename: o.filename ?? 'file.pdf' },
  );
const uid = () => randomUUID().slice(0, 8);
const readable = (query: string) => h.call('GET', `/v1/documents/readable?${query}`);
const ids = (r: { data: Doc[] }) => r.data.map((d) => d.id);
/** Every item of a readable selection, page by page. */
async function allPages(query: string, pageSize = 2) {
  const out: Doc[] = [];
  for (let page = 1; ; page++) {
    const r = await readable(`${query}&pagination[pageSize]=${pageSize}&pagination[page]=${page}`);
    expect(r.status).toBe(200);
    out.push(...r.data);
    if (page >= r.body.payload.meta.pagination.totalPages) return out;
  }
}
const count = async (query: string) => {
  const r = await h.call('GET', `/v1/documents/uploaded-count?${query}`);
  expect(r.status).toBe(200);
  return r.data.count as number;
};

describe('GET /v1/documents/readable', () => {
  it('DOC-080 DOC-082 all=true lists every project and unfiled file and nothing filed elsewhere', async () => {
    const p = `p-${uid()}`;
    const inProject = await file([p]);
    const unfiled = await file([], { owner: `o-${uid()}` });
    const unowned = await file([]);
    const elsewhere = await file([], { owner: 'x' }, { references: [{ ...project('x'), ref_type: 'invoice' }] });
    const listed = ids({ data: await allPages('all=true', 100) });
    expect(listed).toContain(inProject.id);
    expect(listed).toContain(unfiled.id);
    expect(listed).toContain(unowned.id);
    expect(listed).not.toContain(elsewhere.id);
    // all=true wins over project_ids and owner.
    const narrowed = ids({ data: await allPages(`all=true&project_ids=nothing&owner=nobody`, 100) });
    expect(narrowed.sort()).toEqual([...listed].sort());
  });

  it('DOC-081 readable files are newest first', async () => {
    const p = `p-${uid()}`;
    const made: string[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        h.pin(i - 20);
        made.push((await file([p])).id);
      }
    } finally {
      h.unpin();
    }
    expect(ids(await readable(`project_ids=${p}`))).toEqual([...made].reverse());
    const every = await allPages('all=true', 100);
    const times = every.map((d) => d.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('DOC-083 project_ids selects the files of those projects and not of others', async () => {
    const [p1, p2, p3] = [`p-${uid()}`, `p-${uid()}`, `p-${uid()}`];
    const a = await file([p1]);
    const b = await file([p2]);
    const c = await file([p3]);
    const r = ids(await readable(`project_ids=${p1},${p2}`));
    expect(r.sort()).toEqual([a.id, b.id].sort());
    expect(r).not.toContain(c.id);
    expect(ids(await readable(`project_ids=${p1}, ,${p1}`))).toEqual([a.id]);
  });

  it('DOC-083 project ids that are UUIDs match in any case; repeated project_ids is 422', async () => {
    const id = randomUUID();
    const a = await file([id.toUpperCase()]);
    expect(ids(await readable(`project_ids=${id}`))).toEqual([a.id]);
    expect(ids(await readable(`project_ids=${id.toUpperCase()}`))).toEqual([a.id]);
    expect(await count(`project_ids=${id.toUpperCase()}`)).toBe(1);
    expect((await readable(`project_ids=${id}&project_ids=${id}`)).status).toBe(422);
  });

  it('DOC-084 unfiled files are those owned by owner', async () => {
    const [ann, bob] = [`ann-${uid()}`, `bob-${uid()}`];
    const mine = await file([], { owner: ann });
    const theirs = await file([], { owner: bob });
    // A project file with an owner pair is a project file, not one of ann's unfiled files.
    const filed = await file([`p-${uid()}`], { owner: ann });
    expect(ids(await readable(`owner=${ann}`))).toEqual([mine.id]);
    expect(ids(await readable(`owner=${ann}`))).not.toContain(theirs.id);
    expect(ids(await readable(`owner=${ann}`))).not.toContain(filed.id);
    const p = `p-${uid()}`;
    const inP = await file([p]);
    expect(ids(await readable(`owner=${ann}&project_ids=${p}`)).sort()).toEqual([mine.id, inP.id].sort());
    expect(ids(await readable(''))).toEqual([]);
  });

  it('DOC-085 a file in two listed projects appears once', async () => {
    const [p1, p2] = [`p-${uid()}`, `p-${uid()}`];
    const both = await file([p1, p2]);
    const r = await readable(`project_ids=${p1},${p2}`);
    expect(ids(r)).toEqual([both.id]);
    expect(r.body.payload.meta.pagination.totalItems).toBe(1);
  });

  it('DOC-086 DOC-087 q matches the filename or the uploader, ignoring case; others are not returned', async () => {
    const p = `p-${uid()}`;
    const tag = uid();
    const byName = await file([p], { uploaded_by: 'ann@example.com' }, { filename: `Roof-${tag}-survey.pdf` });
    const byUploader = await file([p], { uploaded_by: `Carol.${tag}@Example.com` }, { filename: 'scan.pdf' });
    const neither = await file([p], { uploaded_by: 'dan@example.com' }, { filename: 'other.pdf' });
    const r = ids(await readable(`project_ids=${p}&q=${tag.toUpperCase()}`));
    expect(r.sort()).toEqual([byName.id, byUploader.id].sort());
    expect(r).not.toContain(neither.id);
    expect(ids(await readable(`project_ids=${p}&q=carol.${tag}`))).toEqual([byUploader.id]);
    expect(ids(await readable(`project_ids=${p}&q=roof-${tag}`))).toEqual([byName.id]);
    // LIKE wildcards in q are plain characters.
    expect(ids(await readable(`project_ids=${p}&q=%25`))).toEqual([]);
    expect(ids(await readable(`project_ids=${p}&q=_`))).toEqual([]);
  });

  it('DOC-088 DOC-017 readable items carry no SAS', async () => {
    const p = `p-${uid()}`;
    await file([p]);
    const r = await readable(`project_ids=${p}`);
    expect(r.data).toHaveLength(1);
    expect(r.data[0]).not.toHaveProperty('sas_url');
    expect(r.data[0]).not.toHaveProperty('sas_expires_at');
  });
});

describe('GET /v1/documents/uploaded-count', () => {
  it('DOC-089 the count equals the distinct files readable lists across all pages for the same selection', async () => {
    const [p1, p2, owner] = [`p-${uid()}`, `p-${uid()}`, `o-${uid()}`];
    await file([p1]);
    await file([p1, p2]);
    await file([p2]);
    await file([], { owner });
    await file([], { owner: `someone-${uid()}` });
    for (const selection of [
      `project_ids=${p1},${p2}&owner=${owner}`,
      `project_ids=${p1}`,
      `owner=${owner}`,
      'all=true',
    ]) {
      const listed = await allPages(selection);
      const distinct = new Set(listed.map((d) => d.id));
      expect(distinct.size, selection).toBe(listed.length);
      expect(await count(selection), selection).toBe(distinct.size);
    }
    expect(await count(`project_ids=${p1},${p2}&owner=${owner}`)).toBe(4);
    expect(await count('')).toBe(0);
  });

  it('DOC-090 a file in two projects counts once', async () => {
    const [p1, p2] = [`p-${uid()}`, `p-${uid()}`];
    const selection = `project_ids=${p1},${p2}`;
    const before = await count(selection);
    await file([p1, p2]);
    expect(await count(selection)).toBe(before + 1);
    const all = await count('all=true');
    await file([p1, p2]);
    expect(await count('all=true')).toBe(all + 1);
  });
});
