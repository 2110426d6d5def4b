import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeChangeNumber } from '../src/store/projects.ts';
import { insertTaskChanges } from '../src/store/task-changes.ts';
import { insertVersion } from '../src/store/tasks.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const patch = async (projectId: string, itemId: string, data: Record<string, unknown>, as = EDITOR) => {
  const r = await h.call('PATCH', `/v1/projects/${projectId}/items/${itemId}`, as, { data });
  h.expectStatus('patch', r, 200);
  return r;
};
const history = (projectId: string, itemId: string, as = VIEWER) =>
  h.call('GET', `/v1/projects/${projectId}/items/${itemId}/history`, as);
const changes = (projectId: string, query = '', as = VIEWER) =>
  h.call('GET', `/v1/projects/${projectId}/items/changes${query ? `?${query}` : ''}`, as);

type Change = { id: string; item_id: string; field: string; old_value: unknown; new_value: unknown };

/** `n` change-log rows on one task written straight to the store, each with its own change number. */
async function manyChanges(projectId: string, taskId: string, n: number, field = 'target_date') {
  for (let i = 0; i < n; i++) {
    const seq = await takeChangeNumber(h.db, projectId, 'tasks');
    await insertTaskChanges(
      h.db,
      [{ project_id: projectId, task_id: taskId, field, old_value: i, new_value: i + 1 }],
      fid(OWNER),
      seq,
      h.now(),
    );
  }
}

describe('GET .../items/{itemId}/history', () => {
  it('WS-149 versions and change-log rows, newest first', async () => {
    const p = await h.team();
    h.setNow('2025-06-16T10:00:00Z');
    const t = await h.task(p.id, { title: 'First', body: 'one' });
    h.setNow('2025-06-16T11:00:00Z');
    await patch(p.id, t.id, { version: 1, title: 'Second' });
    h.setNow('2025-06-16T12:00:00Z');
    await patch(p.id, t.id, { status_id: 'todo' });
    h.setNow('2025-06-16T13:00:00Z');
    await patch(p.id, t.id, { version: 2, body: 'three' });
    h.setNow('2025-06-16T14:00:00Z');
    await patch(p.id, t.id, { assignee: fid(VIEWER) }, OWNER);

    const r = await history(p.id, t.id);
    expect(r.status).toBe(200);
    expect(r.data.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(r.data.versions[2]).toEqual({
      version: 1,
      type: 'task',
      title: 'First',
      body: 'one',
      fields: {},
      links: [],
      resolution: null,
      author: fid(EDITOR),
      created_at: '2025-06-16T10:00:00.000Z',
    });
    expect(r.data.versions[0]).toMatchObject({
      title: 'Second',
      body: 'three',
      created_at: '2025-06-16T13:00:00.000Z',
    });
    expect(r.data.changes.map((c: Change) => c.field)).toEqual(['assignee', 'status_id']);
    expect(r.data.changes[0]).toMatchObject({
      item_id: t.id,
      old_value: null,
      new_value: fid(VIEWER),
      actor: fid(OWNER),
      created_at: '2025-06-16T14:00:00.000Z',
    });
    expect(r.data.changes[1]).toMatchObject({ old_value: 'triage', new_value: 'todo', actor: fid(EDITOR) });
  });

  it('WS-150 at most 200 versions and 200 change-log rows, the newest', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { title: 'Busy' });
    const row = await h.db.selectFrom('tasks').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
    for (let v = 2; v <= 230; v++)
      await insertVersion(h.db, { ...row, version: v, title: `v${v}` }, fid(OWNER), h.now());
    await manyChanges(p.id, t.id, 230);
    const r = await history(p.id, t.id);
    expect(r.data.versions).toHaveLength(200);
    expect(r.data.versions[0].version).toBe(230);
    expect(r.data.versions[199].version).toBe(31);
    expect(r.data.changes).toHaveLength(200);
    expect(r.data.changes[0].new_value).toBe(230);
    expect(r.data.changes[199].new_value).toBe(31);
  });

  it('WS-136 WS-029 a task of another project is 404 item_not_found; a non-member gets 404', async () => {
    const p = await h.team();
    const other = await h.team();
    const t = await h.task(p.id);
    const r = await history(other.id, t.id, OWNER);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('item_not_found');
    expect((await history(p.id, t.id, OUTSIDER)).status).toBe(404);
    expect((await history(p.id, randomUUID(), OWNER)).status).toBe(404);
  });
});

describe('GET .../items/changes', () => {
  it('WS-151 WS-152 the change log across all tasks, archived included, newest first, each row naming its task', async () => {
    const p = await h.team();
    const a = await h.task(p.id, { title: 'A' });
    const b = await h.task(p.id, { title: 'B' });
    await patch(p.id, a.id, { status_id: 'todo' });
    await patch(p.id, b.id, { target_date: '2025-07-01' });
    const archived = await h.call('POST', `/v1/projects/${p.id}/items/${a.id}/archive`, EDITOR, { data: {} });
    h.expectStatus('archive', archived, 200);

    const r = await changes(p.id);
    expect(r.status).toBe(200);
    expect(r.data.map((c: Change) => [c.item_id, c.field])).toEqual([
      [a.id, 'archived'],
      [b.id, 'target_date'],
      [a.id, 'status_id'],
    ]);
    expect(r.data[0]).toMatchObject({ old_value: false, new_value: true, actor: fid(EDITOR) });
    expect(r.data[1]).toMatchObject({ old_value: null, new_value: '2025-07-01' });
    // Other projects' rows stay out.
    const other = await h.team();
    await patch(other.id, (await h.task(other.id)).id, { status_id: 'todo' });
    expect((await changes(p.id)).data).toHaveLength(3);
  });

  it('WS-153 field narrows the log to one kind of change', async () => {
    const p = await h.team();
    const a = await h.task(p.id);
    await patch(p.id, a.id, { status_id: 'todo' });
    await patch(p.id, a.id, { assignee: fid(EDITOR), target_date: '2025-07-01' });
    await patch(p.id, a.id, { status_id: 'in_progress' });
    const r = await changes(p.id, 'field=status_id');
    expect(r.data.map((c: Change) => c.new_value)).toEqual(['in_progress', 'todo']);
    expect((await changes(p.id, 'field=assignee')).data.map((c: Change) => c.new_value)).toEqual([fid(EDITOR)]);
    expect((await changes(p.id, 'field=goal_id')).data).toEqual([]);
    expect((await changes(p.id, 'field=title')).status).toBe(422);
  });

  it('WS-154 the limit defaults to 100', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await manyChanges(p.id, t.id, 120);
    const r = await changes(p.id);
    expect(r.data).toHaveLength(100);
    expect(r.data[0].new_value).toBe(120);
    expect(r.data[99].new_value).toBe(21);
  });

  it('WS-155 the limit is 1 to 500: 1 and 500 accepted, 0 and 501 refused with 422', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await manyChanges(p.id, t.id, 3);
    const one = await changes(p.id, 'limit=1');
    expect(one.status).toBe(200);
    expect(one.data.map((c: Change) => c.new_value)).toEqual([3]);
    const max = await changes(p.id, 'limit=500');
    expect(max.status).toBe(200);
    expect(max.data).toHaveLength(3);
    for (const limit of ['0', '501', '-1', 'ten']) {
      const r = await changes(p.id, `limit=${limit}`);
      expect(r.status, limit).toBe(422);
      expect(r.errors[0].field).toContain('limit');
    }
    expect((await changes(p.id, 'since=1')).status).toBe(422);
  });

  it('WS-012 WS-029 viewers read the log; a non-member gets 404', async () => {
    const p = await h.team();
    expect((await changes(p.id, '', VIEWER)).status).toBe(200);
    expect((await changes(p.id, '', OUTSIDER)).status).toBe(404);
  });
});
