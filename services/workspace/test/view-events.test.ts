import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { View } from '../src/schemas/views.ts';
import { changeCounters } from '../src/store/projects.ts';
import { EDITOR, fid, type Harness, harness, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (projectId: string) => `/v1/projects/${projectId}/views`;
const viewUrl = (projectId: string, viewId: string) => `/v1/projects/${projectId}/views/${viewId}`;
const VIEW_EVENTS = ['project.view_created', 'project.view_updated', 'project.view_deleted', 'project.views_reordered'];

async function views(projectId: string): Promise<View[]> {
  const r = await h.call('GET', url(projectId), VIEWER);
  h.expectStatus('views', r, 200);
  return r.data as View[];
}

/** The view events of one project, oldest first. */
const viewEvents = async (projectId: string) =>
  (await h.events()).filter((e) => VIEW_EVENTS.includes(e.event_type) && e.payload.data.projectId === projectId);

/** The change counters and the project's view events: what a no-op must leave as it was. */
const trail = async (projectId: string) => ({
  counters: await changeCounters(h.db, projectId),
  events: await viewEvents(projectId),
  versions: (await views(projectId)).map((v) => [v.id, v.version, v.position]),
});

describe('view events and change numbers', () => {
  it('WS-569 starting views of a new project publish no events', async () => {
    const p = await h.team();
    expect(await views(p.id)).toHaveLength(3);
    expect(await viewEvents(p.id)).toEqual([]);
  });

  it('WS-561 WS-564 WS-565 WS-566 WS-567 a saved view publishes one project.view_created with ids only; no activity rows', async () => {
    const p = await h.team();
    const activity = await h.count('activity');
    const seq = await h.seq(p.id);
    const r = await h.call('POST', url(p.id), EDITOR, {
      data: { name: 'Secret roadmap', layout: 'list', filters: { types: ['bug'], due: 'overdue' } },
    });
    expect(r.status).toBe(201);
    const events = await viewEvents(p.id);
    expect(events).toHaveLength(1);
    const [e] = events;
    expect(e.event_type).toBe('project.view_created');
    // Only ids: nothing the intelligence service could read as content (it ignores these events).
    expect(e.payload.data).toEqual({ projectId: p.id, viewId: r.data.id, actor: fid(EDITOR) });
    expect(JSON.stringify(e.payload)).not.toContain('Secret roadmap');
    expect(JSON.stringify(e.payload)).not.toContain('overdue');
    expect(e.restricted).toBe(false);
    expect(await h.count('activity')).toBe(activity);
    const counters = await changeCounters(h.db, p.id);
    expect(counters.seq).toBe(seq + 1);
    expect(counters.structure_seq).toBe(seq + 1);
  });

  it('WS-562 WS-564 WS-565 WS-566 a changed view publishes one project.view_updated with ids only; one change number', async () => {
    const p = await h.team();
    const [list] = await views(p.id);
    const activity = await h.count('activity');
    const seq = await h.seq(p.id);
    const r = await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, {
      data: { version: 1, name: 'Renamed privately', filters: { categories: ['started'] } },
    });
    expect(r.status).toBe(200);
    const events = await viewEvents(p.id);
    expect(events.map((e) => e.event_type)).toEqual(['project.view_updated']);
    expect(events[0].payload.data).toEqual({ projectId: p.id, viewId: list.id, actor: fid(EDITOR) });
    expect(JSON.stringify(events[0].payload)).not.toContain('Renamed privately');
    expect(JSON.stringify(events[0].payload)).not.toContain('started');
    expect(await h.count('activity')).toBe(activity);
    expect(await changeCounters(h.db, p.id)).toMatchObject({ seq: seq + 1, structure_seq: seq + 1 });
  });

  it('WS-563 WS-564 WS-566 a deleted view publishes one project.view_deleted; one change number', async () => {
    const p = await h.team();
    const bugs = (await views(p.id)).find((v) => v.seed_key === 'bugs') as View;
    const activity = await h.count('activity');
    const seq = await h.seq(p.id);
    expect((await h.call('DELETE', viewUrl(p.id, bugs.id), OWNER)).status).toBe(204);
    const events = await viewEvents(p.id);
    expect(events.map((e) => e.event_type)).toEqual(['project.view_deleted']);
    expect(events[0].payload.data).toEqual({ projectId: p.id, viewId: bugs.id, actor: fid(OWNER) });
    expect(await h.count('activity')).toBe(activity);
    expect(await changeCounters(h.db, p.id)).toMatchObject({ seq: seq + 1, structure_seq: seq + 1 });
  });

  it('WS-568 WS-566 a reorder publishes project.views_reordered with viewIds in the new order; one change number', async () => {
    const p = await h.team();
    const ids = (await views(p.id)).map((v) => v.id).reverse();
    const activity = await h.count('activity');
    const seq = await h.seq(p.id);
    const r = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: ids } });
    expect(r.status).toBe(200);
    const events = await viewEvents(p.id);
    expect(events.map((e) => e.event_type)).toEqual(['project.views_reordered']);
    expect(events[0].payload.data).toEqual({ projectId: p.id, viewIds: ids, actor: fid(OWNER) });
    expect(await h.count('activity')).toBe(activity);
    expect(await changeCounters(h.db, p.id)).toMatchObject({ seq: seq + 1, structure_seq: seq + 1 });
  });

  it('WS-265 a PATCH that changes nothing returns the view without a new version, event or change number', async () => {
    const p = await h.team();
    const r0 = await h.call('POST', url(p.id), EDITOR, {
      data: { name: 'Steady', layout: 'board', group_by: 'type', filters: { types: ['bug', 'task'] } },
    });
    const v = r0.data as View;
    const before = await trail(p.id);
    const counts = await h.counts();
    for (const data of [
      { version: 1 },
      { version: 1, name: '  Steady ', layout: 'board', group_by: 'type', sort: 'position', sort_desc: false },
      // Repeated values are dropped, so this is the same filter set.
      { version: 1, filters: { types: ['bug', 'task', 'bug'] } },
    ]) {
      const r = await h.call('PATCH', viewUrl(p.id, v.id), EDITOR, { data });
      expect(r.status).toBe(200);
      expect(r.data).toEqual(v);
    }
    expect(await trail(p.id)).toEqual(before);
    expect((await h.counts()).outbox).toBe(counts.outbox);
  });

  it('WS-266 a PUT in the same order returns the views without a new version, event or change number', async () => {
    const p = await h.team();
    const vs = await views(p.id);
    const before = await trail(p.id);
    const r = await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: vs.map((v) => v.id) } });
    expect(r.status).toBe(200);
    expect(r.data).toEqual(vs);
    expect(await trail(p.id)).toEqual(before);
  });

  it('refusals take no change number and publish nothing', async () => {
    const p = await h.team();
    const [list] = await views(p.id);
    const before = await trail(p.id);
    const statuses = [
      (await h.call('POST', url(p.id), EDITOR, { data: { name: 'Board', layout: 'list' } })).status,
      (await h.call('PATCH', viewUrl(p.id, list.id), EDITOR, { data: { version: 9, name: 'Late' } })).status,
      (await h.call('DELETE', viewUrl(p.id, list.id), EDITOR)).status,
      (await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: [list.id] } })).status,
    ];
    expect(statuses).toEqual([422, 409, 403, 422]);
    expect(await trail(p.id)).toEqual(before);
  });
});

describe('archived projects', () => {
  it('WS-595 any view write on an archived project is 409 project_archived; nothing written; reads still work', async () => {
    const p = await h.team();
    const vs = await views(p.id);
    await h.db.updateTable('projects').set({ status: 'archived' }).where('id', '=', p.id).execute();
    const before = await trail(p.id);
    const counts = await h.counts();
    const attempts = [
      await h.call('POST', url(p.id), EDITOR, { data: { name: `Late ${tag()}`, layout: 'list' } }),
      await h.call('PATCH', viewUrl(p.id, vs[0].id), EDITOR, { data: { version: 1, name: 'Late' } }),
      await h.call('DELETE', viewUrl(p.id, vs[0].id), OWNER),
      await h.call('PUT', `${url(p.id)}/order`, OWNER, { data: { view_ids: vs.map((v) => v.id).reverse() } }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(409);
      expect(r.body.payload.errors[0].code).toBe('project_archived');
    }
    expect(await trail(p.id)).toEqual(before);
    expect(await h.counts()).toEqual(counts);
    expect(await views(p.id)).toEqual(vs);
  });
});
