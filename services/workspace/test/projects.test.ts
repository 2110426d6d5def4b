import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const asMemberAdmin = { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } };

const patch = (id: string, data: Record<string, unknown>, as: string = OWNER) =>
  h.call('PATCH', `/v1/projects/${id}`, as, { data });

const status = (id: string, action: string, as: string = OWNER) =>
  h.call('POST', `/v1/projects/${id}/status`, as, { data: { action } });

const read = async (id: string, as: string = OWNER) => (await h.call('GET', `/v1/projects/${id}`, as)).data;

/** Every project of a list answer, following pages. */
async function listAll(url: string, as: Parameters<Harness['call']>[2]) {
  const out: { id: string; workflow: string }[] = [];
  for (let page = 1; ; page++) {
    const sep = url.includes('?') ? '&' : '?';
    const r = await h.call('GET', `${url}${sep}pagination[page]=${page}&pagination[pageSize]=200`, as);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.data);
    if (page >= r.meta.pagination.totalPages) return out;
  }
}

describe('creating and listing projects', () => {
  it('WS-030 any signed-in person, with no grants at all, creates a project: 201', async () => {
    const r = await h.call('POST', '/v1/projects', `nobody-${tag()}@ws.test`, { data: { name: 'Mine' } });
    expect(r.status).toBe(201);
    expect(r.data.name).toBe('Mine');
    expect(r.data.status).toBe('active');
  });

  it("WS-032 a person's list holds the projects they belong to and not the others", async () => {
    const mine = await h.project();
    const theirs = await h.project({}, OUTSIDER);
    const ids = (await listAll('/v1/projects', OWNER)).map((p) => p.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it("WS-033 a platform admin's list is every project, memberships or not", async () => {
    const a = await h.project();
    const b = await h.project({}, OUTSIDER);
    const ids = (await listAll('/v1/projects', ADMIN)).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it("WS-034 X-Platform-As-Member: true limits a platform admin's list to their memberships", async () => {
    const other = await h.project();
    const own = await h.project({}, ADMIN);
    const ids = (await listAll('/v1/projects', asMemberAdmin)).map((p) => p.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(other.id);
  });

  it('WS-035 q matches the project name', async () => {
    const word = `zebra${tag()}`;
    const p = await h.project({ name: `The ${word} project` });
    await h.project({ name: `Unrelated ${tag()}` });
    const r = await h.call('GET', `/v1/projects?q=${word.toUpperCase()}`, OWNER);
    expect(r.status).toBe(200);
    expect(r.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
  });

  it('WS-035 q treats % and _ as plain characters', async () => {
    const r = await h.call('GET', '/v1/projects?q=%25', OWNER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([]);
  });

  it('WS-036 q matches the project description', async () => {
    const word = `okapi${tag()}`;
    const p = await h.project({ description: `Where the ${word} lives` });
    const r = await h.call('GET', `/v1/projects?q=${word}`, OWNER);
    expect(r.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
  });

  it('WS-037 every project reads product_development or general', async () => {
    await h.project({ workflow: 'general' });
    const all = await listAll('/v1/projects', ADMIN);
    expect(all.length).toBeGreaterThan(1);
    for (const p of all) expect(['product_development', 'general']).toContain(p.workflow);
  });

  it('WS-039 without template_id the project takes the workflow sent', async () => {
    expect((await h.project({ workflow: 'general' })).workflow).toBe('general');
    expect((await h.project({ workflow: 'product_development' })).workflow).toBe('product_development');
  });

  it('WS-040 without template_id or workflow the project is product_development', async () => {
    const p = await h.project();
    expect(p.workflow).toBe('product_development');
    expect((await read(p.id)).workflow).toBe('product_development');
  });

  it('WS-043 a new project reads checkin_weekday 1 (Monday)', async () => {
    const p = await h.project();
    expect((await read(p.id)).checkin_weekday).toBe(1);
  });

  it('WS-054 a member (a viewer) reads the project with GET /v1/projects/{id}: 200', async () => {
    const p = await h.team();
    const r = await h.call('GET', `/v1/projects/${p.id}`, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.id).toBe(p.id);
    expect(r.data.role).toBe('viewer');
  });
});

describe('updating a project', () => {
  it('WS-055 an owner updates the project: 200, the change shows on the next read, one project.updated with field names only', async () => {
    const p = await h.project({ workflow: 'general' });
    const before = (await h.events('project.updated')).length;
    const r = await patch(p.id, { name: '  Renamed  ', description: 'New words', instructions: 'Be kind' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ name: 'Renamed', description: 'New words', instructions: 'Be kind', role: 'owner' });
    expect(await read(p.id)).toMatchObject({ name: 'Renamed', description: 'New words', instructions: 'Be kind' });
    const events = (await h.events('project.updated')).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0].payload.data).toEqual({
      projectId: p.id,
      changedFields: ['name', 'description', 'instructions'],
      actor: fid(OWNER),
    });
    expect(JSON.stringify(events[0].payload)).not.toContain('Be kind');
  });

  it('WS-055 a name that is blank after trimming is 422 invalid_name; nothing changes', async () => {
    const p = await h.project();
    const r = await patch(p.id, { name: '   ' });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'invalid_name', field: 'data/name' });
    expect((await read(p.id)).name).toBe(p.name);
  });

  it('WS-044 an owner sets checkin_weekday to each of 1 to 5: 200 and the value is stored', async () => {
    const p = await h.project();
    for (const day of [5, 2, 3, 4, 1]) {
      const r = await patch(p.id, { checkin_weekday: day });
      expect(r.status).toBe(200);
      expect(r.data.checkin_weekday).toBe(day);
      expect((await read(p.id)).checkin_weekday).toBe(day);
    }
  });

  it('WS-045 checkin_weekday 0, 6, 2.5, -1 or "3" is 422 naming the field; value unchanged, nothing written', async () => {
    const p = await h.project({ checkin_weekday: 3 });
    const before = await h.counts();
    const seq = await h.seq(p.id);
    for (const bad of [0, 6, 2.5, -1, '3', null]) {
      const r = await patch(p.id, { checkin_weekday: bad });
      expect(r.status, String(bad)).toBe(422);
      expect(r.errors[0].field).toBe('body/data/checkin_weekday');
    }
    expect((await read(p.id)).checkin_weekday).toBe(3);
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
  });

  it('WS-045 creating a project with checkin_weekday 6 is 422; nothing written', async () => {
    const before = await h.counts();
    const r = await h.call('POST', '/v1/projects', OWNER, { data: { name: 'Bad day', checkin_weekday: 6 } });
    expect(r.status).toBe(422);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-041 workflow is set once: a PATCH sending workflow is 422 (not an accepted property); the workflow stays', async () => {
    const p = await h.project({ workflow: 'general' });
    const before = await h.counts();
    for (const data of [{ workflow: 'product_development' }, { workflow: 'general', name: 'Also renamed' }]) {
      const r = await patch(p.id, data);
      expect(r.status).toBe(422);
      expect(r.errors[0].field).toBe('body/data/workflow');
    }
    const now = await read(p.id);
    expect(now.workflow).toBe('general');
    expect(now.name).toBe(p.name);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-046 project reads carry the legacy goals text, and an older client may still set it', async () => {
    const p = await h.project();
    expect(p.goals).toBe('');
    const r = await patch(p.id, { goals: 'Ship the beta' });
    expect(r.status).toBe(200);
    const again = await read(p.id);
    expect(again.goals).toBe('Ship the beta');
    const listed = (await listAll('/v1/projects', OWNER)).find((x) => x.id === p.id) as unknown as { goals: string };
    expect(listed.goals).toBe('Ship the beta');
  });

  it('WS-174 a check-in day change raises seq by one; a no-op PATCH raises nothing and emits nothing', async () => {
    const p = await h.project();
    const s0 = await h.seq(p.id);
    const e0 = (await h.events()).length;
    expect((await patch(p.id, { checkin_weekday: 4 })).status).toBe(200);
    expect(await h.seq(p.id)).toBe(s0 + 1);
    const e1 = (await h.events()).length;
    expect(e1).toBe(e0 + 1);

    // The same values again (and an empty PATCH): no number, no event, no updated_at change.
    const before = await read(p.id);
    for (const data of [{ checkin_weekday: 4 }, {}, { name: ` ${before.name} `, checkin_weekday: 4 }]) {
      const r = await patch(p.id, data);
      expect(r.status).toBe(200);
      expect(r.data.checkin_weekday).toBe(4);
    }
    expect(await h.seq(p.id)).toBe(s0 + 1);
    expect((await h.events()).length).toBe(e1);
    expect((await read(p.id)).updated_at).toBe(before.updated_at);
  });

  it('WS-174 the settings change number is a structure change (structure_seq follows it)', async () => {
    const p = await h.project();
    await patch(p.id, { checkin_weekday: 2 });
    const r = await h.db
      .selectFrom('projects')
      .select(['change_seq', 'structure_seq'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(Number(r.structure_seq)).toBe(Number(r.change_seq));
  });
});

describe('project status: archive, restore, knowledge, legal hold', () => {
  it('WS-056 archive makes the project read archived; PATCH and task writes are then 409 project_archived, nothing written', async () => {
    const p = await h.team();
    const r = await status(p.id, 'archive');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.status).toBe('archived');
    expect((await read(p.id)).status).toBe('archived');
    const events = await h.events('project.archived');
    expect(events.at(-1)?.payload.data).toEqual({ projectId: p.id, action: 'archive', actor: fid(OWNER) });

    const before = await h.counts();
    const seq = await h.seq(p.id);
    const edit = await patch(p.id, { name: 'Too late' });
    expect(edit.status).toBe(409);
    expect(edit.errors[0].code).toBe('project_archived');
    const add = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, { data: { title: 'Too late' } });
    expect(add.status).toBe(409);
    expect(add.errors[0].code).toBe('project_archived');
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
    // Still readable.
    expect((await h.call('GET', `/v1/projects/${p.id}`, VIEWER)).status).toBe(200);
  });

  it('WS-057 restore makes an archived project active again and task writes are accepted', async () => {
    const p = await h.team();
    expect((await status(p.id, 'archive')).status).toBe(200);
    const r = await status(p.id, 'restore');
    expect(r.status).toBe(200);
    expect(r.data.status).toBe('active');
    expect((await read(p.id)).status).toBe('active');
    expect((await h.events('project.restored')).at(-1)?.payload.data).toMatchObject({ projectId: p.id });
    const add = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, { data: { title: 'Back to work' } });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    expect((await patch(p.id, { description: 'Active again' })).status).toBe(200);
  });

  it('WS-058 withdraw_from_knowledge stops the project contributing to knowledge; contribute_to_knowledge turns it back on', async () => {
    const p = await h.project();
    expect(p.contributes_to_knowledge).toBe(true);
    const r = await status(p.id, 'withdraw_from_knowledge');
    expect(r.status).toBe(200);
    expect(r.data.contributes_to_knowledge).toBe(false);
    expect((await read(p.id)).contributes_to_knowledge).toBe(false);
    expect((await h.events('project.knowledge_changed')).at(-1)?.payload.data).toEqual({
      projectId: p.id,
      action: 'withdraw_from_knowledge',
      contributesToKnowledge: false,
      actor: fid(OWNER),
    });
    expect((await status(p.id, 'contribute_to_knowledge')).data.contributes_to_knowledge).toBe(true);
  });

  it('WS-174 archive, unarchive (restore) and legal hold each raise seq by one; asking again for what holds raises nothing', async () => {
    const p = await h.project();
    const s0 = await h.seq(p.id);
    const e0 = (await h.events()).length;
    expect((await status(p.id, 'archive')).status).toBe(200);
    expect(await h.seq(p.id)).toBe(s0 + 1);
    expect((await status(p.id, 'archive')).data.status).toBe('archived');
    expect(await h.seq(p.id)).toBe(s0 + 1);

    // Allowed while archived: legal hold and its release.
    const held = await status(p.id, 'legal_hold');
    expect(held.status).toBe(200);
    expect(held.data.legal_hold).toBe(true);
    expect(await h.seq(p.id)).toBe(s0 + 2);
    expect((await status(p.id, 'legal_hold')).data.legal_hold).toBe(true);
    expect(await h.seq(p.id)).toBe(s0 + 2);
    expect((await h.events('project.legal_hold_changed')).at(-1)?.payload.data).toMatchObject({
      projectId: p.id,
      legalHold: true,
    });

    expect((await status(p.id, 'restore')).data.status).toBe('active');
    expect(await h.seq(p.id)).toBe(s0 + 3);
    expect((await status(p.id, 'restore')).status).toBe(200);
    expect(await h.seq(p.id)).toBe(s0 + 3);

    // Released by a platform admin (issue 14, item 13).
    expect((await status(p.id, 'release_legal_hold', ADMIN)).data.legal_hold).toBe(false);
    expect(await h.seq(p.id)).toBe(s0 + 4);
    // Four real changes, four events; the no-ops emitted nothing.
    expect((await h.events()).length).toBe(e0 + 4);
  });

  it('WS-056 an unknown status action is 422 naming the field; nothing written', async () => {
    const p = await h.project();
    const before = await h.counts();
    const r = await status(p.id, 'delete');
    expect(r.status).toBe(422);
    expect(r.errors[0].field).toMatch(/^body\/data\/action/);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-056 only owners change the status: an editor is 403 and the project stays active', async () => {
    const p = await h.team();
    const r = await status(p.id, 'archive', EDITOR);
    expect(r.status).toBe(403);
    expect((await read(p.id)).status).toBe('active');
  });
});

describe('gallery', () => {
  it('WS-049 GET /v1/projects/gallery answers 200 to any signed-in person with active projects, member counts and their own standing', async () => {
    const word = `gallery${tag()}`;
    const p = await h.team({ name: `${word} one`, description: 'Open to all' });
    const archived = await h.project({ name: `${word} two` });
    await status(archived.id, 'archive');
    const stranger = `stranger-${tag()}@ws.test`;

    const r = await h.call('GET', `/v1/projects/gallery?q=${word}`, stranger);
    expect(r.status).toBe(200);
    expect(r.meta.pagination).toMatchObject({ page: 1, totalItems: 1 });
    expect(r.data).toEqual([
      {
        id: p.id,
        name: `${word} one`,
        description: 'Open to all',
        workflow: 'product_development',
        member_count: 3,
        role: null,
        join_request_pending: false,
        created_at: p.created_at,
      },
    ]);

    const asked = await h.call('POST', `/v1/projects/${p.id}/join-requests`, stranger, { data: {} });
    expect(asked.status).toBe(201);
    const again = await h.call('GET', `/v1/projects/gallery?q=${word}`, stranger);
    expect(again.data[0].join_request_pending).toBe(true);
    const editor = await h.call('GET', `/v1/projects/gallery?q=${word}`, EDITOR);
    expect(editor.data[0]).toMatchObject({ role: 'editor', join_request_pending: false });
  });

  it('WS-049 the gallery is paged and refuses a page size over 200', async () => {
    const r = await h.call('GET', '/v1/projects/gallery?pagination[pageSize]=1', OUTSIDER);
    expect(r.status).toBe(200);
    expect(r.data).toHaveLength(1);
    expect(r.meta.pagination.totalItems).toBeGreaterThan(1);
    expect((await h.call('GET', '/v1/projects/gallery?pagination[pageSize]=201', OUTSIDER)).status).toBe(422);
  });

  it('WS-049 the gallery needs a sign-in: 401', async () => {
    expect((await h.call('GET', '/v1/projects/gallery', null)).status).toBe(401);
  });
});
