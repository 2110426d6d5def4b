import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { View } from '../src/schemas/views.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (projectId: string) => `/v1/projects/${projectId}/views`;
const viewUrl = (projectId: string, viewId: string) => `/v1/projects/${projectId}/views/${viewId}`;

async function views(projectId: string, as = VIEWER): Promise<View[]> {
  const r = await h.call('GET', url(projectId), as);
  h.expectStatus('views', r, 200);
  return r.data as View[];
}

async function addView(projectId: string, data: Record<string, unknown> = {}, as = EDITOR): Promise<View> {
  const r = await h.call('POST', url(projectId), as, { data: { name: `View ${tag()}`, layout: 'list', ...data } });
  h.expectStatus('add view', r, 201);
  return r.data as View;
}

const viewRows = async (projectId: string) =>
  (
    await h.db
      .selectFrom('saved_views')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('position')
      .orderBy('id')
      .execute()
  ).map((r) => ({ ...r }));

describe('starting views', () => {
  it('WS-231 WS-227 WS-230 a new project gets its starting views with seed_key and created_by system', async () => {
    const p = await h.team();
    const vs = await views(p.id);
    expect(vs.map((v) => [v.name, v.seed_key, v.layout, v.created_by])).toEqual([
      ['List', 'list', 'list', 'system'],
      ['Board', 'board', 'board', 'system'],
      ['Bugs', 'bugs', 'list', 'system'],
    ]);
    expect(vs[2].filters).toEqual({ types: ['bug'] });
    const g = await h.project({ workflow: 'general' });
    expect((await views(g.id, OWNER)).map((v) => v.seed_key)).toEqual(['list', 'board']);
  });

  it('WS-603 a project created by an old server (no saved views) answers GET views 200 with an empty list', async () => {
    const id = '0190b7a0-0000-7000-8000-00000000a603';
    const now = h.now();
    await h.db
      .insertInto('projects')
      .values({ id, name: 'Old server project', created_by: fid(OWNER), created_at: now, updated_at: now })
      .execute();
    await h.member(id, OWNER, 'owner');
    const r = await h.call('GET', url(id), OWNER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([]);
  });
});

describe('reading views', () => {
  it('WS-241 WS-226 GET views is open to viewers and returns the views in tab (position) order', async () => {
    const p = await h.team();
    await addView(p.id, { name: 'Mine' });
    const vs = await views(p.id, VIEWER);
    expect(vs.map((v) => v.name)).toEqual(['List', 'Board', 'Bugs', 'Mine']);
    expect(vs.map((v) => v.position)).toEqual([...vs.map((v) => v.position)].sort((a, b) => a - b));
  });

  it('GET views: 404 for someone who cannot see the project; a platform admin reads without a membership', async () => {
    const p = await h.team();
    expect((await h.call('GET', url(p.id), OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', url(p.id), ADMIN)).status).toBe(200);
    const limited = await h.call('GET', url(p.id), {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(limited.status).toBe(404);
  });
});

describe('saving a view', () => {
  it('WS-015 WS-242 an editor saves a view: 201, after the last tab', async () => {
    const p = await h.team();
    const before = await views(p.id);
    const v = await addView(p.id, { name: 'Editors view' }, EDITOR);
    expect(v.project_id).toBe(p.id);
    expect(v.created_by).toBe(fid(EDITOR));
    expect(v.version).toBe(1);
    for (const o of before) expect(v.position).toBeGreaterThan(o.position);
    expect((await views(p.id)).at(-1)?.id).toBe(v.id);
  });

  it('WS-016 a viewer may not save or change a view: 403, no view written', async () => {
    const p = await h.team();
    const [list] = await views(p.id);
    const counts = await h.counts();
    const post = await h.call('POST', url(p.id), VIEWER, { data: { name: 'Nope', layout: 'list' } });
    expect(post.status).toBe(403);
    const patch = await h.call('PATCH', viewUrl(p.id, list.id), VIEWER, { data: { version: 1, name: 'Nope' } });
    expect(patch.status).toBe(403);
    expect(await h.counts()).toEqual(counts);
    expect((await views(p.id))[0]).toEqual(list);
  });

  it('an outsider gets 404 on view commands', async () => {
    const p = await h.team();
    expect((await h.call('POST', url(p.id), OUTSIDER, { data: { name: 'X', layout: 'list' } })).status).toBe(404);
  });

  it('WS-219 layout is list or board: anything else is 422', async () => {
    const p = await h.team();
    for (const layout of ['list', 'board']) await addView(p.id, { layout });
    const r = await h.call('POST', url(p.id), EDITOR, { data: { name: 'Gantt', layout: 'gantt' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].field).toContain('layout');
    const [list] = await views(p.id);
    const patch = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { version: 1, layout: 'table' } });
    expect(patch.status).toBe(422);
  });

  it('WS-220 WS-221 group_by is status, goal, assignee, type or none (default status); others are 422', async () => {
    const p = await h.team();
    expect((await addView(p.id)).group_by).toBe('status');
    for (const group_by of ['status', 'goal', 'assignee', 'type', 'none']) {
      expect((await addView(p.id, { group_by })).group_by).toBe(group_by);
    }
    const r = await h.call('POST', url(p.id), EDITOR, { data: { name: 'X', layout: 'list', group_by: 'priority' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].field).toContain('group_by');
  });

  it('WS-223 WS-224 WS-225 sort is one of five (default position); sort_desc reads back as saved', async () => {
    const p = await h.team();
    const plain = await addView(p.id);
    expect(plain.sort).toBe('position');
    expect(plain.sort_desc).toBe(false);
    for (const sort of ['position', 'target_date', 'updated', 'created', 'time_in_status']) {
      const v = await addView(p.id, { sort, sort_desc: true });
      expect([v.sort, v.sort_desc]).toEqual([sort, true]);
    }
    const back = (await views(p.id)).at(-1);
    expect([back?.sort, back?.sort_desc]).toEqual(['time_in_status', true]);
    const r = await h.call('POST', url(p.id), EDITOR, { data: { name: 'X', layout: 'list', sort: 'priority' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].field).toContain('sort');
  });

  it('WS-229 seed_key is absent on user-added views', async () => {
    const p = await h.team();
    const v = await addView(p.id);
    expect('seed_key' in v).toBe(false);
    const read = (await views(p.id)).find((x) => x.id === v.id);
    expect(read && 'seed_key' in read).toBe(false);
  });

  it('WS-262 WS-263 names are trimmed and 1 to 60 characters: empty or 61 is 422, 60 accepted', async () => {
    const p = await h.team();
    expect((await addView(p.id, { name: '  Spaced out  ' })).name).toBe('Spaced out');
    const sixty = 'x'.repeat(60);
    expect((await addView(p.id, { name: `  ${sixty} ` })).name).toBe(sixty);
    const counts = await h.counts();
    for (const name of ['', '   ', 'y'.repeat(61)]) {
      const r = await h.call('POST', url(p.id), EDITOR, { data: { name, layout: 'list' } });
      expect(r.status).toBe(422);
      expect(r.body.payload.errors[0]).toMatchObject({ code: 'invalid_view_name', field: 'data/name' });
    }
    const [list] = await views(p.id);
    const patch = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { version: 1, name: 'z'.repeat(61) } });
    expect(patch.status).toBe(422);
    expect(await h.counts()).toEqual(counts);
  });

  it('WS-264 names are unique ignoring case: 422 view_name_taken, on save and on rename', async () => {
    const p = await h.team();
    const counts = await h.counts();
    const r = await h.call('POST', url(p.id), EDITOR, { data: { name: ' bOaRd ', layout: 'list' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0]).toMatchObject({ code: 'view_name_taken', field: 'data/name' });
    expect(await h.counts()).toEqual(counts);
    const [list] = await views(p.id);
    const rename = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { version: 1, name: 'BUGS' } });
    expect(rename.status).toBe(422);
    expect(rename.body.payload.errors[0].code).toBe('view_name_taken');
    // A view may change the case of its own name.
    const own = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { version: 1, name: 'LIST' } });
    expect(own.status).toBe(200);
    expect(own.data.name).toBe('LIST');
  });

  it('WS-261 a project has at most 20 views: the 21st is 422', async () => {
    const p = await h.team();
    for (let i = (await views(p.id)).length; i < 20; i++) await addView(p.id, { name: `V${i}` });
    expect(await views(p.id)).toHaveLength(20);
    const counts = await h.counts();
    const r = await h.call('POST', url(p.id), EDITOR, { data: { name: 'Twenty-first', layout: 'list' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].code).toBe('too_many_views');
    expect(await h.counts()).toEqual(counts);
    // Deleting one makes room again.
    const last = (await views(p.id)).at(-1) as View;
    expect((await h.call('DELETE', viewUrl(p.id, last.id), OWNER)).status).toBe(204);
    await addView(p.id, { name: 'Twenty-first' });
  });

  it('WS-247 POST, PATCH and PUT on views take {data, why}; anything else in the body is 422', async () => {
    const p = await h.team();
    const why = { code: 'tidy', detail: 'tabs for the team' };
    const post = await h.call('POST', url(p.id), OWNER, { data: { name: 'With why', layout: 'board' }, why });
    expect(post.status).toBe(201);
    const patch = await h.call('PATCH', viewUrl(p.id, post.data.id), OWNER, {
      data: { version: 1, sort: 'created' },
      why,
    });
    expect(patch.status).toBe(200);
    const ids = (await views(p.id)).map((v) => v.id).reverse();
    const put = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: ids }, why });
    expect(put.status).toBe(200);
    const extra = await h.call('POST', url(p.id), OWNER, { data: { name: 'Extra', layout: 'list' }, note: 'x' });
    expect(extra.status).toBe(422);
    const unknown = await h.call('POST', url(p.id), OWNER, { data: { name: 'Extra', layout: 'list', color: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.payload.errors[0].field).toBe('body/data/color');
  });
});

describe('changing a view', () => {
  it('WS-015 WS-243 WS-254 an editor changes a view with the version read: 200 and a new version', async () => {
    const p = await h.team();
    const v = await addView(p.id, { name: 'Patched' });
    const r = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, { data: { version: v.version, layout: 'board' } });
    expect(r.status).toBe(200);
    expect(r.data.layout).toBe('board');
    expect(r.data.version).toBe(v.version + 1);
    expect(r.data.version).not.toBe(v.version);
    expect((await views(p.id)).find((x) => x.id === v.id)?.version).toBe(r.data.version);
  });

  it('WS-250 a PATCH changes only the fields sent', async () => {
    const p = await h.team();
    const v = await addView(p.id, {
      name: 'Only sent',
      group_by: 'assignee',
      sort: 'created',
      sort_desc: true,
      filters: { categories: ['started'] },
    });
    const r = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, { data: { version: 1, sort: 'updated' } });
    expect(r.status).toBe(200);
    const { sort, version, updated_at, ...rest } = r.data as View;
    expect(sort).toBe('updated');
    const { sort: _s, version: _v, updated_at: _u, ...before } = v;
    expect(rest).toEqual(before);
  });

  it('WS-228 seed_key survives a rename', async () => {
    const p = await h.team();
    const board = (await views(p.id)).find((v) => v.seed_key === 'board') as View;
    const r = await h.call('PATCH', viewUrl(p.id, board.id), EDITOR, { data: { version: 1, name: 'Kanban' } });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe('Kanban');
    expect(r.data.seed_key).toBe('board');
    expect(r.data.created_by).toBe('system');
  });

  it('WS-251 WS-252 sent filters replace all filters; an empty object removes them all', async () => {
    const p = await h.team();
    const v = await addView(p.id, { filters: { types: ['bug'], categories: ['started'], due: 'overdue' } });
    const r = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, {
      data: { version: 1, filters: { status_ids: ['todo'] } },
    });
    expect(r.status).toBe(200);
    expect(r.data.filters).toEqual({ status_ids: ['todo'] });
    const cleared = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, { data: { version: 2, filters: {} } });
    expect(cleared.status).toBe(200);
    expect(cleared.data.filters).toEqual({});
    expect((await views(p.id)).find((x) => x.id === v.id)?.filters).toEqual({});
  });

  it('WS-253 a PATCH against an older version is 409 stale_version with the current view; nothing written', async () => {
    const p = await h.team();
    const v = await addView(p.id, { name: 'Raced' });
    const first = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, { data: { version: 1, name: 'Raced again' } });
    expect(first.status).toBe(200);
    const counts = await h.counts();
    const seq = await h.seq(p.id);
    const stale = await h.call('PATCH', viewUrl(p.id, v.id), OWNER, { data: { version: 1, sort: 'created' } });
    expect(stale.status).toBe(409);
    const err = stale.body.payload.errors[0];
    expect(err.code).toBe('stale_version');
    expect(err.value).toEqual(first.data);
    expect(await h.counts()).toEqual(counts);
    expect(await h.seq(p.id)).toBe(seq);
    expect((await views(p.id)).find((x) => x.id === v.id)).toEqual(first.data);
  });

  it('a PATCH or DELETE of a view not on this project is 404 view_not_found', async () => {
    const p = await h.team();
    const other = await h.team();
    const [foreign] = await views(other.id);
    const patch = await h.call('PATCH', viewUrl(p.id, foreign.id), OWNER, { data: { version: 1, name: 'Mine now' } });
    expect(patch.status).toBe(404);
    expect(patch.body.payload.errors[0].code).toBe('view_not_found');
    const del = await h.call('DELETE', viewUrl(p.id, foreign.id), OWNER);
    expect(del.status).toBe(404);
    expect((await views(other.id))[0]).toEqual(foreign);
  });

  it('a PATCH without a version is 422 naming data/version', async () => {
    const p = await h.team();
    const [list] = await views(p.id);
    const r = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { name: 'No version' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].field).toBe('body/data/version');
  });
});

describe('deleting a view', () => {
  it('WS-244 WS-248 an owner deletes a view, starting views included: 204 with no body sent or answered', async () => {
    const p = await h.team();
    const before = await views(p.id);
    const board = before.find((v) => v.seed_key === 'board') as View;
    const r = await h.call('DELETE', viewUrl(p.id, board.id), OWNER);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await views(p.id)).map((v) => v.id)).toEqual(before.filter((v) => v.id !== board.id).map((v) => v.id));
    const user = await addView(p.id);
    expect((await h.call('DELETE', viewUrl(p.id, user.id), OWNER)).status).toBe(204);
    expect((await views(p.id)).some((v) => v.id === user.id)).toBe(false);
  });

  it('WS-020 an editor may not delete a view: 403 and the view remains', async () => {
    const p = await h.team();
    const v = await addView(p.id);
    const counts = await h.counts();
    const r = await h.call('DELETE', viewUrl(p.id, v.id), EDITOR);
    expect(r.status).toBe(403);
    expect(await h.counts()).toEqual(counts);
    expect((await views(p.id)).some((x) => x.id === v.id)).toBe(true);
  });

  it('WS-248 a DELETE replayed with its Idempotency-Key answers 204 again and deletes nothing more', async () => {
    const p = await h.team();
    const v = await addView(p.id);
    const key = `del-${tag()}`;
    expect((await h.call('DELETE', viewUrl(p.id, v.id), OWNER, undefined, key)).status).toBe(204);
    const counts = await h.counts();
    const again = await h.call('DELETE', viewUrl(p.id, v.id), OWNER, undefined, key);
    expect(again.status).toBe(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await h.counts()).toEqual(counts);
  });
});

describe('reordering views', () => {
  it('WS-245 WS-255 an owner reorders with view_ids naming every view once: 200 in that order, versions unchanged', async () => {
    const p = await h.team();
    await addView(p.id, { name: 'Fourth' });
    const before = await views(p.id);
    const ids = [before[3].id, before[1].id, before[0].id, before[2].id];
    const r = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: ids } });
    expect(r.status).toBe(200);
    expect((r.data as View[]).map((v) => v.id)).toEqual(ids);
    const after = await views(p.id);
    expect(after.map((v) => v.id)).toEqual(ids);
    for (const v of after) {
      const old = before.find((b) => b.id === v.id) as View;
      expect(v.version).toBe(old.version);
      expect(v.updated_at).toBe(old.updated_at);
    }
  });

  it('WS-022 an editor may not reorder views: 403, order unchanged', async () => {
    const p = await h.team();
    const before = await viewRows(p.id);
    const ids = before.map((v) => v.id).reverse();
    const r = await h.call('PUT', `${url(p.id)}/order`, EDITOR, { data: { view_ids: ids } });
    expect(r.status).toBe(403);
    expect(await viewRows(p.id)).toEqual(before);
  });

  it('WS-246 bad view_ids (one missing, one named twice, an unknown one) are 422; order unchanged', async () => {
    const p = await h.team();
    const other = await h.team();
    const before = await viewRows(p.id);
    const counts = await h.counts();
    const [a, b, c] = before.map((v) => v.id as string);
    const foreign = (await views(other.id))[0].id;
    for (const view_ids of [[a, b], [a, b, c, a], [a, b, c, foreign], [a, b, foreign], []]) {
      const r = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids } });
      expect(r.status).toBe(422);
      expect(r.body.payload.errors[0].code).toBe('invalid_view_order');
    }
    const notUuid = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: [a, b, 'list'] } });
    expect(notUuid.status).toBe(422);
    expect(await viewRows(p.id)).toEqual(before);
    expect(await h.counts()).toEqual(counts);
  });
});

describe('idempotency', () => {
  it('WS-249 every view command needs an Idempotency-Key: 400 idempotency_key_required, nothing written', async () => {
    const p = await h.team();
    const vs = await views(p.id);
    const counts = await h.counts();
    const rows = await viewRows(p.id);
    const attempts = [
      await h.call('POST', url(p.id), OWNER, { data: { name: 'Keyless', layout: 'list' } }, null),
      await h.call('PATCH', viewUrl(p.id, vs[0].id), OWNER, { data: { version: 1, name: 'Keyless' } }, null),
      await h.call('DELETE', viewUrl(p.id, vs[0].id), OWNER, undefined, null),
      await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: vs.map((v) => v.id).reverse() } }, null),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(400);
      expect(r.body.payload.errors[0].code).toBe('idempotency_key_required');
    }
    expect(await h.counts()).toEqual(counts);
    expect(await viewRows(p.id)).toEqual(rows);
  });
});
