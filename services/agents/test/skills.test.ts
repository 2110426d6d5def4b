import { randomUUID } from 'node:crypto';
import { fakeDocumentsServer } from '@platform/kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpDocuments } from '../src/clients/documents.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OWNER, STRANGER, tag } from './harness.ts';

/**
 * Skills (spec 3, Skills, harnesses and tools): create with a first version from markdown, a
 * document_id or a blob_name; q; read, edit, body by version; more versions; what an agent's null
 * version resolves to; the events. Archives go through a documents service on a port
 * (the kit's fakeDocumentsServer) answering as the real one does, failing or hanging.
 */
let h: Harness;
let docs: Awaited<ReturnType<typeof fakeDocumentsServer>>;
beforeAll(async () => {
  docs = await fakeDocumentsServer();
  h = await harness({ app: { documents: new HttpDocuments({ baseUrl: docs.url, timeoutMs: 15_000 }) } });
});
afterAll(async () => {
  await h?.close_();
  await docs?.close();
});
beforeEach(() => {
  docs.state.mode = 'ok';
});

type SkillData = {
  id: string;
  name: string;
  description: string;
  category: string;
  owner_fid: string;
  latest_version_id: string;
  version_count: number;
  versions: { id: string; number: number; source: string; document_id: string | null; blob_name: string | null }[];
};

const create = (data: Record<string, unknown>, as: Parameters<Harness['call']>[2] = OWNER) =>
  h.ok<SkillData>('POST', '/v1/skills', { name: `Skill ${tag()}`, ...data }, 201, as);
const body = async (id: string, versionId?: string) => {
  const r = await h.call('GET', `/v1/skills/${id}/body${versionId ? `?version_id=${versionId}` : ''}`);
  expect(r.status).toBe(200);
  return r.data as { markdown: string; note: string | null; version_id: string; number: number };
};
const uploaded = async (filename = 'skill.zip') => {
  const r = await h.call('POST', '/v1/skills/upload-url', OWNER, { data: { filename } }, null);
  expect(r.status).toBe(201);
  return r.data as { blob_name: string; upload_url: string };
};
const search = async (q: string) => {
  const r = await h.call('GET', `/v1/skills?q=${encodeURIComponent(q)}`);
  expect(r.status).toBe(200);
  return (r.data as SkillData[]).map((s) => s.id);
};

describe('skills', () => {
  it('18 AGT-233 upload-url answers a documents write link without an Idempotency-Key and writes nothing', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/skills/upload-url', OWNER, { data: { filename: 'triage.zip' } }, null);
    expect(r.status).toBe(201);
    expect(r.data.upload_url).toMatch(/^http:\/\/blob\.test\/documents\/triage_/);
    expect(r.data.blob_name).toMatch(/^triage_.*\.zip$/);
    expect(r.data.upload_headers).toEqual({ 'x-ms-blob-type': 'BlockBlob' });
    expect(Date.parse(r.data.expires_at)).toBeGreaterThan(Date.now());
    expect(docs.state.calls).toContain('POST /v1/documents/sas');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-233 upload-url: a filename documents refuses is 422 archive_refused; documents failing is 502; a client whose documents hang answers 502 at its timeout', async () => {
    const refused = await h.call('POST', '/v1/skills/upload-url', OWNER, { data: { filename: 'noext' } }, null);
    expect([refused.status, refused.errors[0].code]).toEqual([422, 'archive_refused']);
    docs.state.mode = 'fail';
    const failed = await h.call('POST', '/v1/skills/upload-url', OWNER, { data: { filename: 'a.zip' } }, null);
    expect([failed.status, failed.errors[0].code]).toEqual([502, 'documents_unavailable']);
    docs.state.mode = 'hang';
    // The app's client waits long (a busy test machine); the timeout is the client's own, shown here.
    const impatient = new HttpDocuments({ baseUrl: docs.url, timeoutMs: 200 });
    await expect(impatient.uploadLink('a.zip')).rejects.toMatchObject({ status: 502, code: 'documents_unavailable' });
  });

  it('18 AGT-238 AGT-239 AGT-244 AGT-242 markdown on create is the first version, kept as SKILL.md and read back by /body and GET', async () => {
    const markdown = `# Triage\n\nSort the inbox ${tag()}.`;
    const s = await create({ description: 'Sorts mail', category: 'comms', markdown });
    expect(s.version_count).toBe(1);
    expect(s.versions).toHaveLength(1);
    expect(s.versions[0]).toMatchObject({ number: 1, source: 'markdown', document_id: null, blob_name: null });
    expect(s.latest_version_id).toBe(s.versions[0]?.id);
    expect(s.owner_fid).toBe(fid(OWNER));
    const b = await body(s.id);
    expect(b).toMatchObject({ markdown, note: null, version_id: s.latest_version_id, number: 1 });
    const read = await h.call('GET', `/v1/skills/${s.id}`, STRANGER);
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ id: s.id, name: s.name, description: 'Sorts mail', category: 'comms' });
    expect(read.data.caller_may_edit).toBe(false);
    const missing = await h.call('GET', `/v1/skills/${randomUUID()}`);
    expect([missing.status, missing.errors[0].code]).toEqual([404, 'skill_not_found']);
  });

  it('18 AGT-240 a skill is created from a document_id already in documents', async () => {
    const link = await uploaded();
    const documentId = randomUUID();
    docs.state.documents.set(documentId, { blob_name: link.blob_name, references: [] });
    const s = await create({ document_id: documentId });
    expect(s.version_count).toBe(1);
    expect(s.versions[0]).toMatchObject({ source: 'document', document_id: documentId, blob_name: link.blob_name });
    expect(docs.state.calls).toContain(`GET /v1/documents/${documentId}`);
  });

  it('18 AGT-241 a skill is created from a blob_name uploaded through upload-url: documents registers it, referring to the skill', async () => {
    const link = await uploaded('review.zip');
    const markdown = '# Review\n\nRead the diff.';
    const s = await create({ blob_name: link.blob_name, filename: 'review.zip', markdown });
    expect(s.version_count).toBe(1);
    const v = s.versions[0];
    expect(v).toMatchObject({ source: 'blob', blob_name: link.blob_name });
    const doc = docs.state.documents.get(v?.document_id ?? '');
    expect(doc?.blob_name).toBe(link.blob_name);
    expect(doc?.references).toEqual([
      { ref_type: 'agent_skill', ref_id: s.id, ref_category: 'agents', is_external: false },
    ]);
    expect((await body(s.id)).markdown).toBe(markdown);
  });

  it('18 AGT-241 a blob documents never signed, or an unknown document_id, is 422 archive_refused with nothing written', async () => {
    for (const data of [{ blob_name: `ghost_${randomUUID()}.zip` }, { document_id: randomUUID() }]) {
      const before = await h.state();
      const r = await h.call('POST', '/v1/skills', OWNER, { data: { name: 'Ghost', ...data } });
      expect([r.status, r.errors[0].code]).toEqual([422, 'archive_refused']);
      expect(await h.state()).toEqual(before);
    }
  });

  it('18 AGT-238 a version needs markdown, a document_id or a blob_name, and not both archives: 422 validation_failed, nothing written, documents not asked', async () => {
    const calls = docs.state.calls.length;
    for (const data of [{}, { document_id: randomUUID(), blob_name: 'x_1.zip' }]) {
      const before = await h.state();
      const r = await h.call('POST', '/v1/skills', OWNER, { data: { name: 'Empty', ...data } });
      expect([r.status, r.errors[0].code]).toEqual([422, 'validation_failed']);
      expect(await h.state()).toEqual(before);
    }
    expect(docs.state.calls.length).toBe(calls);
  });

  it('18 AGT-234 AGT-235 AGT-236 AGT-237 q matches the name, the description, the category and the owner', async () => {
    const t = tag();
    const byName = await create({ name: `Name ${t}a`, markdown: '# a' });
    const byDescription = await create({ description: `About ${t}b`, markdown: '# b' });
    const byCategory = await create({ category: `cat-${t}c`, markdown: '# c' });
    const other = await create({ markdown: '# d' }, EDITOR);
    expect(await search(`${t}a`)).toEqual([byName.id]);
    expect(await search(`${t}b`)).toEqual([byDescription.id]);
    expect(await search(`${t}c`)).toEqual([byCategory.id]);
    const mine = await search(fid(EDITOR));
    expect(mine).toContain(other.id);
    expect(mine).not.toContain(byName.id);
    expect(await search(EDITOR)).toContain(other.id);
    const paged = await h.call('GET', `/v1/skills?q=${t}&pagination[pageSize]=2`);
    expect(paged.meta.pagination).toMatchObject({ totalItems: 3, pageSize: 2, totalPages: 2 });
    expect(paged.data).toHaveLength(2);
  });

  it('18 AGT-243 PUT edits name, description and category (a field not sent is kept); the owner or a platform admin only', async () => {
    const s = await create({ description: 'old', category: 'old', markdown: '# x' });
    const name = `Renamed ${tag()}`;
    await h.ok('PUT', `/v1/skills/${s.id}`, { name, description: 'new text' });
    const read = await h.call('GET', `/v1/skills/${s.id}`);
    expect(read.data).toMatchObject({ name, description: 'new text', category: 'old' });
    expect((await h.events('skill.updated')).at(-1)?.payload.data).toEqual({
      skill_id: s.id,
      fields: ['name', 'description'],
      actor_fid: fid(OWNER),
    });
    const before = await h.state();
    const refused = await h.call('PUT', `/v1/skills/${s.id}`, EDITOR, { data: { category: 'theirs' } });
    expect([refused.status, refused.errors[0].code]).toEqual([403, 'not_skill_owner']);
    expect(await h.state()).toEqual(before);
    await h.ok('PUT', `/v1/skills/${s.id}`, { category: 'curated' }, 200, ADMIN);
    expect((await h.call('GET', `/v1/skills/${s.id}`)).data.category).toBe('curated');
  });

  it('18 AGT-247 AGT-245 AGT-246 another version is added; /body reads the latest or version_id’s; an archive without SKILL.md reads empty with a note', async () => {
    const s = await create({ markdown: '# v1' });
    const link = await uploaded();
    const added = await h.ok<SkillData>('POST', `/v1/skills/${s.id}/versions`, { blob_name: link.blob_name }, 201);
    expect(added.version_count).toBe(2);
    expect(added.versions.map((v) => v.number)).toEqual([2, 1]);
    const latest = await body(s.id);
    expect(latest).toMatchObject({ markdown: '', number: 2 });
    expect(latest.note).toMatch(/SKILL\.md/);
    expect(await body(s.id, s.latest_version_id)).toMatchObject({ markdown: '# v1', note: null, number: 1 });
    const third = await h.ok<SkillData>('POST', `/v1/skills/${s.id}/versions`, { markdown: '# v3' }, 201);
    expect(third.version_count).toBe(3);
    expect((await body(s.id)).markdown).toBe('# v3');
    const unknown = await h.call('GET', `/v1/skills/${s.id}/body?version_id=${randomUUID()}`);
    expect([unknown.status, unknown.errors[0].code]).toEqual([404, 'skill_version_not_found']);
  });

  it('18 AGT-247 a version by someone other than the owner is 403 before documents is asked, nothing written', async () => {
    const s = await create({ markdown: '# mine' });
    const link = await uploaded();
    const calls = docs.state.calls.length;
    const before = await h.state();
    const r = await h.call('POST', `/v1/skills/${s.id}/versions`, EDITOR, { data: { blob_name: link.blob_name } });
    expect([r.status, r.errors[0].code]).toEqual([403, 'not_skill_owner']);
    expect(await h.state()).toEqual(before);
    expect(docs.state.calls.length).toBe(calls);
    const missing = await h.call('POST', `/v1/skills/${randomUUID()}/versions`, OWNER, { data: { markdown: '# x' } });
    expect([missing.status, missing.errors[0].code]).toEqual([404, 'skill_not_found']);
  });

  it('18 AGT-238 the service token alone owns no skill (403); with X-Platform-Agent-Id the agent’s owner owns it', async () => {
    const before = await h.state();
    const alone = await h.call('POST', '/v1/skills', { service: null }, { data: { name: 'Svc', markdown: '# s' } });
    expect([alone.status, alone.errors[0].code]).toEqual([403, 'not_skill_owner']);
    expect(await h.state()).toEqual(before);
    const agent = await h.agent();
    const s = await create({ markdown: '# by agent' }, { service: agent.id });
    expect(s.owner_fid).toBe(fid(OWNER));
    expect((await h.call('GET', `/v1/skills/${s.id}`)).data.created_by).toBe(`agent:${agent.id}`);
  });

  it('18 AGT-043 an agent holding a skill with a null version follows the latest: after a new version it resolves to it; a pinned version stays', async () => {
    const s = await create({ markdown: '# one' });
    const pinnedTo = await create({ markdown: '# pinned' });
    const agent = await h.agent({
      skills: [
        { skill_id: s.id, version_id: null },
        { skill_id: pinnedTo.id, version_id: pinnedTo.latest_version_id },
      ],
    });
    const resolved = async () => {
      const r = await h.call('GET', `/v1/agents/${agent.id}/skills`);
      expect(r.status).toBe(200);
      return r.data as { skill_id: string; version_id: string; number: number; name: string; pinned: boolean }[];
    };
    expect(await resolved()).toEqual([
      { skill_id: s.id, version_id: s.latest_version_id, number: 1, name: s.name, pinned: false },
      { skill_id: pinnedTo.id, version_id: pinnedTo.latest_version_id, number: 1, name: pinnedTo.name, pinned: true },
    ]);
    const next = await h.ok<SkillData>('POST', `/v1/skills/${s.id}/versions`, { markdown: '# two' }, 201);
    await h.ok<SkillData>('POST', `/v1/skills/${pinnedTo.id}/versions`, { markdown: '# later' }, 201);
    const after = await resolved();
    expect(after[0]).toEqual({
      skill_id: s.id,
      version_id: next.latest_version_id,
      number: 2,
      name: s.name,
      pinned: false,
    });
    expect(after[1]?.version_id).toBe(pinnedTo.latest_version_id);
    const hidden = await h.call('GET', `/v1/agents/${agent.id}/skills`, STRANGER);
    expect([hidden.status, hidden.errors[0].code]).toEqual([404, 'agent_not_found']);
  });

  it('18 AGT-337 AGT-338 AGT-339 AGT-340 skill.created and skill.versioned carry ids and the source, never markdown or names', async () => {
    const secret = `Body text ${tag()}`;
    const s = await create({ name: `Named ${tag()}`, description: 'Desc text', markdown: secret });
    const next = await h.ok<SkillData>('POST', `/v1/skills/${s.id}/versions`, { markdown: `${secret} v2` }, 201);
    const created = (await h.events('skill.created')).find((e) => e.payload.data.skill_id === s.id);
    expect(created?.payload.data).toEqual({
      skill_id: s.id,
      version_id: s.latest_version_id,
      number: 1,
      source: 'markdown',
      owner_fid: fid(OWNER),
      actor_fid: fid(OWNER),
    });
    const versioned = (await h.events('skill.versioned')).find((e) => e.payload.data.skill_id === s.id);
    expect(versioned?.payload.data).toEqual({
      skill_id: s.id,
      version_id: next.latest_version_id,
      number: 2,
      source: 'markdown',
      actor_fid: fid(OWNER),
    });
    for (const e of [created, versioned]) {
      const text = JSON.stringify(e?.payload);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(s.name);
      expect(text).not.toContain('Desc text');
    }
  });
});

describe('skills without AGENTS_DOCUMENTS_URL', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await harness();
  });
  afterAll(async () => bare?.close_());

  it('18 AGT-233 upload-url and archive sources answer 503 skills_storage_unavailable; markdown still works', async () => {
    const link = await bare.call('POST', '/v1/skills/upload-url', OWNER, { data: { filename: 'a.zip' } }, null);
    expect([link.status, link.errors[0].code]).toEqual([503, 'skills_storage_unavailable']);
    const before = await bare.state();
    const r = await bare.call('POST', '/v1/skills', OWNER, { data: { name: 'A', blob_name: 'a_1.zip' } });
    expect([r.status, r.errors[0].code]).toEqual([503, 'skills_storage_unavailable']);
    expect(await bare.state()).toEqual(before);
    const md = await bare.call('POST', '/v1/skills', OWNER, { data: { name: 'A', markdown: '# a' } });
    expect(md.status).toBe(201);
  });
});
