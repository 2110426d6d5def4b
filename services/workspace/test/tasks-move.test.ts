import { commandChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../src/schemas/projects.ts';
import type { Task } from '../src/schemas/tasks.ts';
import { changeCounters } from '../src/store/projects.ts';
import { EDITOR, fid, type Harness, harness, VIEWER } from './harness.ts';

let h: Harness;
let shared: Project;
beforeAll(async () => {
  h = await harness();
  shared = await h.team();
});
afterAll(async () => h.close_());

const url = (p: string, t: string) => `/v1/projects/${p}/items/${t}`;
const move = (p: string, t: string, data: Record<string, unknown>, as: string = EDITOR) =>
  h.call('POST', `${url(p, t)}/move`, as, { data });
const resolve = (p: string, t: string, as: string = EDITOR) => h.call('POST', `${url(p, t)}/resolve`, as, { data: {} });
const read = (p: string, t: string) => h.readTask(p, t);
const state = (p: string, t: string) => h.taskState(p, t);
/** The project's tasks (archived included) top first, as the database holds them. */
const ranks = async (projectId: string) =>
  (
    await h.db
      .selectFrom('tasks')
      .select(['id', 'rank', 'archived', 'change_seq'])
      .where('project_id', '=', projectId)
      .orderBy('rank')
      .orderBy('id')
      .execute()
  ).map((r) => ({
    id: r.id as string,
    rank: Number(r.rank),
    archived: Boolean(r.archived),
    seq: Number(r.change_seq),
  }));
const setRank = (id: string, rank: number) => h.db.updateTable('tasks').set({ rank }).where('id', '=', id).execute();
/** The next double above x (x > 0): no rank fits between the two. */
function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

/** Three tasks top first: a (top), b, c (bottom); a new task goes to the top. */
async function three(p: string) {
  const c = await h.task(p);
  const b = await h.task(p);
  const a = await h.task(p);
  return { a, b, c };
}

describe('move: status and position', () => {
  it('WS-118 WS-119 a move with status_id, after_id and before_id puts the task in the chosen status at the midpoint', async () => {
    const p = await h.team();
    const { a, b } = await three(p.id);
    const t = await h.task(p.id);
    const r = await move(p.id, t.id, { status_id: 'in_progress', after_id: a.id, before_id: b.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.status).toEqual({ id: 'in_progress', name: 'In progress', category: 'started' });
    expect(r.data.rank).toBe((a.rank + b.rank) / 2);
    const list = await h.call('GET', `/v1/projects/${p.id}/items`, VIEWER);
    expect(list.data.map((x: Task) => x.id).slice(0, 3)).toEqual([a.id, t.id, b.id]);
  });

  it('WS-119 only after_id places the task between it and its next task; at the bottom one gap below it', async () => {
    const p = await h.team();
    const { a, b, c } = await three(p.id);
    const t = await h.task(p.id);
    const r = await move(p.id, t.id, { after_id: a.id });
    expect(r.data.rank).toBe((a.rank + b.rank) / 2);
    const last = await move(p.id, t.id, { after_id: c.id });
    expect(last.data.rank).toBe(c.rank + 1024);
  });

  it('WS-119 only before_id places the task between its previous task and it; at the top one gap above it', async () => {
    const p = await h.team();
    const { a, b, c } = await three(p.id);
    const t = await h.task(p.id);
    const r = await move(p.id, t.id, { before_id: c.id });
    expect(r.data.rank).toBe((b.rank + c.rank) / 2);
    // The moving task itself is not its own neighbour: before a, with nothing else above, is one gap above a.
    const first = await move(p.id, t.id, { before_id: a.id });
    expect(first.data.rank).toBe(a.rank - 1024);
  });

  it('WS-118 a move without status_id keeps the status; without neighbours it keeps the rank', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'todo' });
    const r = await move(p.id, t.id, { status_id: 'in_review' });
    expect(r.data).toMatchObject({ status_id: 'in_review', rank: t.rank });
    const { a } = await three(p.id);
    const again = await move(p.id, t.id, { before_id: a.id });
    expect(again.data.status_id).toBe('in_review');
  });

  it('WS-113 a reorder within the same status leaves status_changed_at, version and the change log alone', async () => {
    const p = await h.team();
    const { a, b } = await three(p.id);
    const t = await h.task(p.id);
    h.setNow('2025-06-20T12:00:00Z');
    const seq = await h.seq(p.id);
    const changes = await h.count('task_changes');
    const events = (await h.events()).length;
    const r = await move(p.id, t.id, { status_id: t.status_id, after_id: a.id, before_id: b.id });
    expect(r.status).toBe(200);
    expect(r.data.status_changed_at).toBe(t.status_changed_at);
    expect(r.data.version).toBe(1);
    expect(r.data.rank).not.toBe(t.rank);
    // One change number (the change feed lists the task), no change-log row, no event.
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect((await ranks(p.id)).find((x) => x.id === t.id)?.seq).toBe(seq + 1);
    const feed = await h.call('GET', `/v1/projects/${p.id}/changes?since=${seq}`, VIEWER);
    expect(feed.data).toMatchObject({ seq: seq + 1, reset: false });
    expect(feed.data.items.map((x: Task) => x.id)).toEqual([t.id]);
    expect(await h.count('task_changes')).toBe(changes);
    expect((await h.events()).length).toBe(events);
  });

  it('WS-112 a status change by move sets status_changed_at to the change time', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    h.setNow('2025-06-21T07:15:00Z');
    const r = await move(p.id, t.id, { status_id: 'todo' });
    expect(r.data.status_changed_at).toBe('2025-06-21T07:15:00.000Z');
  });

  it('WS-094 a move that changes nothing takes no change number and publishes nothing', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'todo' });
    const before = await state(p.id, t.id);
    const events = (await h.events()).length;
    const r = await move(p.id, t.id, { status_id: 'todo' });
    expect(r.status).toBe(200);
    expect(r.data).toEqual(before.task);
    expect(await h.seq(p.id)).toBe(before.seq);
    expect((await h.events()).length).toBe(events);
  });
});

describe('move: neighbours', () => {
  it('WS-119 a neighbour must be another task of the same project: 422 invalid_position, nothing written', async () => {
    const p = await h.team();
    const q = await h.team();
    const { a } = await three(p.id);
    const elsewhere = await h.task(q.id);
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    for (const data of [
      { after_id: t.id },
      { before_id: t.id },
      { after_id: elsewhere.id },
      { before_id: '0190a000-0000-7000-8000-000000000000' },
      { after_id: a.id, before_id: a.id },
      { status_id: 'todo', after_id: elsewhere.id },
    ]) {
      const r = await move(p.id, t.id, data);
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(r.errors[0]?.code).toBe('invalid_position');
    }
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-119 when a task now sits between the two named neighbours, the move lands right after after_id', async () => {
    const p = await h.team();
    const { a, b, c } = await three(p.id);
    const t = await h.task(p.id);
    // The caller read a, c as neighbours; b sits between them now.
    const r = await move(p.id, t.id, { after_id: a.id, before_id: c.id });
    expect(r.status).toBe(200);
    expect(r.data.rank).toBe((a.rank + b.rank) / 2);
    const order = (await ranks(p.id)).map((x) => x.id);
    expect(order).toEqual([a.id, t.id, b.id, c.id]);
  });

  it('WS-119 neighbours named in reverse order (after_id below before_id) are 422 invalid_position', async () => {
    const p = await h.team();
    const { a, c } = await three(p.id);
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await move(p.id, t.id, { after_id: c.id, before_id: a.id });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'invalid_position', field: 'data/before_id' });
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-120 WS-093 neighbours without room renumber the whole project, archived tasks included, 1024 apart', async () => {
    const p = await h.team();
    const { a, b, c } = await three(p.id);
    const archived = await h.task(p.id);
    expect((await h.call('POST', `${url(p.id, archived.id)}/archive`, EDITOR, { data: {} })).status).toBe(200);
    const t = await h.task(p.id);
    // a and b are adjacent doubles: no room between them.
    await setRank(a.id, 5000);
    await setRank(b.id, nextUp(5000));
    await setRank(c.id, 9000);
    await setRank(archived.id, 7000);
    await setRank(t.id, 100);
    const seq = await h.seq(p.id);
    const r = await move(p.id, t.id, { after_id: a.id, before_id: b.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await ranks(p.id);
    expect(after.map((x) => x.id)).toEqual([a.id, t.id, b.id, archived.id, c.id]);
    // Renumbered 1024, 2048, ... in the old order (t at 100, a, b, archived, c), then t placed between a and b.
    const by = Object.fromEntries(after.map((x) => [x.id, x.rank]));
    expect([by[a.id], by[b.id], by[archived.id], by[c.id]]).toEqual([2048, 3072, 4096, 5120]);
    expect(by[t.id]).toBe((2048 + 3072) / 2);
    // One change number, recorded as a renumbering (the change feed tells clients to reset), on every task.
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect((await changeCounters(h.db, p.id)).renumber_seq).toBe(seq + 1);
    expect(new Set(after.map((x) => x.seq))).toEqual(new Set([seq + 1]));
    const feed = await h.call('GET', `/v1/projects/${p.id}/changes?since=${seq}`, VIEWER);
    expect(feed.status).toBe(200);
    expect(feed.data).toMatchObject({ seq: seq + 1, reset: true });
  });

  it('WS-120 WS-093 repeated moves into one gap run out of room and renumber; ranks stay distinct and in order', async () => {
    const p = await h.team();
    const { a, b } = await three(p.id);
    // A few doubles apart (2^-39 above -2048, where doubles are 2^-42 apart): three halvings fit.
    await setRank(b.id, a.rank + 2 ** -39);
    const moved: string[] = [];
    for (let i = 0; i < 14; i++) {
      const t = await h.task(p.id);
      // Each new task goes right after a, pushing the earlier ones down: a, t14, t13, ... t1, b.
      const r = await move(p.id, t.id, { after_id: a.id, before_id: moved.at(-1) ?? b.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      moved.push(t.id);
    }
    const counters = await changeCounters(h.db, p.id);
    expect(counters.renumber_seq).toBeGreaterThan(0);
    const order = (await ranks(p.id)).map((x) => x.id);
    expect(order.indexOf(a.id)).toBe(0);
    expect(order.slice(1, 15)).toEqual([...moved].reverse());
    const rs = (await ranks(p.id)).map((x) => x.rank);
    expect(new Set(rs).size).toBe(rs.length);
  });

  it('14.12 WS-119 WS-170 40 successive moves into one gap need no renumbering: /changes never resets', async () => {
    const p = await h.team();
    const { a, b } = await three(p.id);
    const start = await h.seq(p.id);
    const moved: string[] = [];
    for (let i = 0; i < 40; i++) {
      const t = await h.task(p.id);
      const seq = await h.seq(p.id);
      // Each move goes right after a, into the gap the previous move halved: a, t40, ... t1, b.
      const r = await move(p.id, t.id, { after_id: a.id, before_id: moved.at(-1) ?? b.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      moved.push(t.id);
      const feed = await h.call('GET', `/v1/projects/${p.id}/changes?since=${seq}`, VIEWER);
      expect(feed.data, `move ${i + 1}`).toMatchObject({ seq: seq + 1, reset: false });
      expect(feed.data.items.map((x: Task) => x.id)).toEqual([t.id]);
    }
    // No renumbering was recorded, and a follower from before the first move still merges.
    expect((await changeCounters(h.db, p.id)).renumber_seq).toBe(0);
    const all = await h.call('GET', `/v1/projects/${p.id}/changes?since=${start}`, VIEWER);
    expect(all.data.reset).toBe(false);
    const rows = await ranks(p.id);
    expect(rows.map((x) => x.id).slice(0, 42)).toEqual([a.id, ...[...moved].reverse(), b.id]);
    expect(new Set(rows.map((x) => x.rank)).size).toBe(rows.length);
  });

  it('WS-111 PATCH with status_id and neighbours without room renumbers like a move', async () => {
    const p = await h.team();
    const { a, b } = await three(p.id);
    const t = await h.task(p.id);
    await setRank(a.id, 10);
    await setRank(b.id, nextUp(10));
    const r = await h.call('PATCH', url(p.id, t.id), EDITOR, {
      data: { status_id: 'todo', after_id: a.id, before_id: b.id },
    });
    expect(r.status).toBe(200);
    const by = Object.fromEntries((await ranks(p.id)).map((x) => [x.id, x.rank]));
    expect(by[t.id]).toBeGreaterThan(by[a.id] as number);
    expect(by[t.id]).toBeLessThan(by[b.id] as number);
    expect(r.data.rank).toBe(by[t.id]);
  });
});

describe('move: resolution and closing', () => {
  it('WS-122 a resolution sent with a move needs version: without it 422, with an older one 409 stale_version', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug' });
    await h.call('PATCH', url(p.id, bug.id), EDITOR, { data: { version: 1, body: 'steps' } });
    const before = await state(p.id, bug.id);
    const none = await move(p.id, bug.id, { status_id: 'done', resolution: 'Fixed' });
    expect(none.status).toBe(422);
    expect(none.errors[0]?.code).toBe('version_required');
    const old = await move(p.id, bug.id, { status_id: 'done', resolution: 'Fixed', version: 1 });
    expect(old.status).toBe(409);
    expect(old.errors[0]?.code).toBe('stale_version');
    expect(old.errors[0]?.value).toEqual(before.task);
    expect(await state(p.id, bug.id)).toEqual(before);
    const ok = await move(p.id, bug.id, { status_id: 'done', resolution: 'Fixed', version: 2 });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ status_id: 'done', resolution: 'Fixed', version: 3, state: 'resolved' });
  });

  it('WS-098 a bug moved to a closed status with no resolution is 422 resolution_required; status unchanged', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug', status_id: 'in_progress' });
    const before = await state(p.id, bug.id);
    const r = await move(p.id, bug.id, { status_id: 'done' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('resolution_required');
    expect(await state(p.id, bug.id)).toEqual(before);
    expect((await read(p.id, bug.id)).status_id).toBe('in_progress');
  });

  it('WS-071 closing by move records who resolved the task and when', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    h.setNow('2025-06-22T10:00:00Z');
    const r = await move(p.id, t.id, { status_id: 'done' });
    expect(r.data).toMatchObject({
      state: 'resolved',
      resolved_at: '2025-06-22T10:00:00.000Z',
      resolved_by: fid(EDITOR),
    });
  });
});

describe('legacy resolve', () => {
  it('WS-123 WS-112 resolve moves an open task to Done and sets status_changed_at', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'in_progress' });
    h.setNow('2025-06-23T11:00:00Z');
    const r = await resolve(p.id, t.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({
      status: { id: 'done', name: 'Done', category: 'completed' },
      state: 'resolved',
      status_changed_at: '2025-06-23T11:00:00.000Z',
      resolved_at: '2025-06-23T11:00:00.000Z',
      resolved_by: fid(EDITOR),
      version: 1,
    });
    const rows = await h.db.selectFrom('task_changes').select(['field']).where('task_id', '=', t.id).execute();
    expect(rows.map((x) => x.field)).toEqual(['status_id']);
  });

  it('WS-123 resolve works in a general project too (its Done) and takes no body', async () => {
    const p = await h.team({ workflow: 'general' });
    const t = await h.task(p.id);
    const r = await h.call('POST', `${url(p.id, t.id)}/resolve`, EDITOR);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.status_id).toBe('done');
  });

  it('WS-124 resolve on a task of another project is 404; nothing written', async () => {
    const p = await h.team();
    const q = await h.team();
    const t = await h.task(q.id);
    const before = await state(q.id, t.id);
    const r = await resolve(p.id, t.id);
    expect(r.status).toBe(404);
    expect(r.errors[0]?.code).toBe('item_not_found');
    expect(await state(q.id, t.id)).toEqual(before);
  });

  it('WS-125 resolve on a closed task is 404; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'done' });
    const before = await state(p.id, t.id);
    const r = await resolve(p.id, t.id);
    expect(r.status).toBe(404);
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-127 resolve on a bug with no resolution is 422 resolution_required; status unchanged', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug' });
    const before = await state(p.id, bug.id);
    const r = await resolve(p.id, bug.id);
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('resolution_required');
    expect(await state(p.id, bug.id)).toEqual(before);
    const fixed = await h.task(p.id, { type: 'bug', resolution: 'Fixed' });
    expect((await resolve(p.id, fixed.id)).data.status_id).toBe('done');
  });

  it('WS-013 a viewer may not move or resolve: 403, nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    expect((await move(p.id, t.id, { status_id: 'todo' }, VIEWER)).status).toBe(403);
    expect((await resolve(p.id, t.id, VIEWER)).status).toBe(403);
    expect(await state(p.id, t.id)).toEqual(before);
  });
});

describe('move: command checks', () => {
  let n = 0;
  commandChecks('POST .../move', {
    app: () => h.app,
    method: 'POST',
    url: async () => {
      const t = await h.task(shared.id);
      return `${url(shared.id, t.id)}/move`;
    },
    body: () => ({ data: { status_id: 'todo' } }),
    otherBody: () => ({ data: { status_id: ['in_progress', 'in_review'][n++ % 2] } }),
    allowed: EDITOR,
    forbidden: VIEWER,
    state: async () => ({ counts: await h.counts(), seq: await h.seq(shared.id) }),
    rules: {
      unauthenticated: 'WS-592',
      forbidden: 'WS-013',
      missingKey: 'WS-003',
      replay: 'WS-003',
      conflict: 'WS-003',
    },
  });
});
