import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (p: string, t: string) => `/v1/projects/${p}/items/${t}`;
const patch = (p: string, t: string, data: Record<string, unknown>, as: string = EDITOR) =>
  h.call('PATCH', url(p, t), as, { data });
const read = (p: string, t: string) => h.readTask(p, t);
const state = (p: string, t: string) => h.taskState(p, t);
/** A goal row on the project (the goals routes have their own tests). */
async function goal(projectId: string): Promise<string> {
  const id = randomUUID();
  const now = h.now();
  await h.db
    .insertInto('goals')
    .values({
      id,
      project_id: projectId,
      title: 'Goal',
      lead: fid(OWNER),
      status: 'on_track',
      created_by: fid(OWNER),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
const changeRows = async (taskId: string) =>
  h.db
    .selectFrom('task_changes')
    .select(['field', 'old_value', 'new_value', 'change_seq'])
    .where('task_id', '=', taskId)
    .orderBy('change_seq')
    .execute();
const versionRows = async (taskId: string) =>
  h.db.selectFrom('task_versions').selectAll().where('task_id', '=', taskId).orderBy('version').execute();

describe('PATCH permissions', () => {
  it('WS-013 a viewer may not PATCH a task: 403, nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { version: 1, title: 'Viewer edit', status_id: 'todo' }, VIEWER);
    expect(r.status).toBe(403);
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-014 an editor and an owner PATCH a task: 200', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const e = await patch(p.id, t.id, { version: 1, title: 'By editor' });
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    expect(e.data.title).toBe('By editor');
    const o = await patch(p.id, t.id, { version: 2, title: 'By owner' }, OWNER);
    expect(o.status).toBe(200);
    expect((await read(p.id, t.id)).title).toBe('By owner');
  });

  it('WS-029 a caller who cannot see the project gets 404; a task of another project is 404 item_not_found', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const r = await patch(p.id, t.id, { status_id: 'todo' }, OUTSIDER);
    expect(r.status).toBe(404);
    const q = await h.team();
    const other = await patch(q.id, t.id, { status_id: 'todo' });
    expect(other.status).toBe(404);
    expect(other.errors[0]?.code).toBe('item_not_found');
    expect((await read(p.id, t.id)).status_id).toBe('triage');
  });

  it('WS-025 setting a non-member as assignee is refused with 422 assignee_not_member; assignee unchanged', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { assignee: fid(EDITOR) });
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { assignee: fid(OUTSIDER) });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('assignee_not_member');
    expect(r.errors[0]?.field).toBe('data/assignee');
    expect(await state(p.id, t.id)).toEqual(before);
    expect((await read(p.id, t.id)).assignee).toBe(fid(EDITOR));
  });

  it('WS-025 any member, a viewer included, may own a task', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const r = await patch(p.id, t.id, { assignee: fid(VIEWER) });
    expect(r.status).toBe(200);
    expect(r.data.assignee).toBe(fid(VIEWER));
  });

  it('WS-593 a PATCH on an archived project is 409 project_archived; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await h.db.updateTable('projects').set({ status: 'archived' }).where('id', '=', p.id).execute();
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { version: 1, title: 'Nope', status_id: 'todo' });
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('project_archived');
    expect(await state(p.id, t.id)).toEqual(before);
  });
});

describe('content changes', () => {
  it('WS-094 WS-103 a content change raises version by one and history lists the new version', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { body: 'old body' });
    const r = await patch(p.id, t.id, { version: 1, title: '  New title ', body: 'new body' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ version: 2, title: 'New title', body: 'new body' });
    const hist = await h.call('GET', `${url(p.id, t.id)}/history`, VIEWER);
    expect(hist.status).toBe(200);
    expect(hist.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(hist.data.versions[0]).toMatchObject({ title: 'New title', body: 'new body', author: fid(EDITOR) });
    expect(hist.data.versions[1]).toMatchObject({ body: 'old body' });
  });

  it('WS-104 a content PATCH without version is 422 version_required; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { title: 'No version' });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'version_required', field: 'data/version' });
    // A content field with a state field: the content part still needs its version; nothing of either is written.
    const both = await patch(p.id, t.id, { body: 'x', status_id: 'todo' });
    expect(both.status).toBe(422);
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-105 a content change against an older version gives 409 stale_version with the current task; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    expect((await patch(p.id, t.id, { version: 1, title: 'Second' })).status).toBe(200);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { version: 1, title: 'Lost update', status_id: 'todo' });
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('stale_version');
    expect(r.errors[0]?.value).toEqual(before.task);
    expect(r.errors[0]?.value).toMatchObject({ version: 2, title: 'Second' });
    expect(await state(p.id, t.id)).toEqual(before);
    // A version that never existed is not the current one either.
    const future = await patch(p.id, t.id, { version: 9, title: 'From the future' });
    expect(future.status).toBe(409);
    expect(future.errors[0]?.code).toBe('stale_version');
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-084 a PATCHed title must be 1 to 200 characters after trimming: 422 invalid_title naming the limit', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    for (const title of ['   ', 'x'.repeat(201)]) {
      const r = await patch(p.id, t.id, { version: 1, title });
      expect(r.status).toBe(422);
      expect(r.errors[0]?.code).toBe('invalid_title');
      expect(r.errors[0]?.message).toContain('200');
    }
    expect(await state(p.id, t.id)).toEqual(before);
    expect((await patch(p.id, t.id, { version: 1, title: 'y'.repeat(200) })).status).toBe(200);
  });

  it('WS-079 changing to a type the project does not offer is 422 type_not_offered; version unchanged', async () => {
    const p = await h.team({ workflow: 'general' });
    const t = await h.task(p.id, { type: 'task' });
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { version: 1, type: 'bug' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('type_not_offered');
    expect(await state(p.id, t.id)).toEqual(before);
    expect((await read(p.id, t.id)).version).toBe(1);
  });

  it('WS-106 WS-107 a type change drops the fields the new type lacks from the current version; the older version keeps them', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'question', fields: { answer: 'Forty-two' } });
    expect(t.fields).toEqual({ answer: 'Forty-two' });
    const r = await patch(p.id, t.id, { version: 1, type: 'task' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ type: 'task', version: 2, fields: {} });
    expect((await read(p.id, t.id)).fields).toEqual({});
    const hist = await h.call('GET', `${url(p.id, t.id)}/history`, OWNER);
    const v1 = hist.data.versions.find((v: { version: number }) => v.version === 1);
    const v2 = hist.data.versions.find((v: { version: number }) => v.version === 2);
    expect(v1).toMatchObject({ type: 'question', fields: { answer: 'Forty-two' } });
    expect(v2).toMatchObject({ type: 'task', fields: {} });
    const ev = (await h.events('project.item_updated')).at(-1);
    expect(ev?.payload.data).toMatchObject({ itemId: t.id, version: 2, changedFields: ['type', 'fields'] });
  });

  it('WS-067 a field the type does not have is 422 field_not_allowed; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'task' });
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { version: 1, fields: { answer: 'x' } });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('field_not_allowed');
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-103 links and fields are replaced as sent', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'question' });
    const r = await patch(p.id, t.id, {
      version: 1,
      fields: { answer: 'Yes' },
      links: [{ url: 'https://example.com/a', title: 'A' }],
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ version: 2, fields: { answer: 'Yes' }, links: [{ url: 'https://example.com/a' }] });
  });

  it('WS-094 a content PATCH whose values equal the current ones is a no-op: no version, no change number, no event', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { body: 'same', type: 'question', fields: { answer: 'a' } });
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, {
      version: 1,
      title: `  ${t.title}  `,
      body: 'same',
      type: 'question',
      fields: { answer: 'a' },
      links: [],
      resolution: null,
      status_id: t.status_id,
      assignee: null,
    });
    expect(r.status).toBe(200);
    expect(r.data).toEqual(before.task);
    const after = await state(p.id, t.id);
    // Only the idempotency record of the command itself is new.
    expect({ ...after.counts, idempotency_keys: 0 }).toEqual({ ...before.counts, idempotency_keys: 0 });
    expect(after.seq).toBe(before.seq);
    expect(after.task).toEqual(before.task);
  });

  it('WS-114 a content edit does not change status_changed_at', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    h.setNow('2025-06-17T10:00:00Z');
    const r = await patch(p.id, t.id, { version: 1, body: 'edited' });
    expect(r.status).toBe(200);
    expect(r.data.status_changed_at).toBe(t.status_changed_at);
    expect(r.data.updated_at).toBe('2025-06-17T10:00:00.000Z');
  });
});

describe('state changes', () => {
  it('WS-108 WS-109 WS-094 a state-only PATCH without version gives 200, one change-log row per field, version unchanged', async () => {
    const p = await h.team();
    const g = await goal(p.id);
    const t = await h.task(p.id);
    const seq = await h.seq(p.id);
    const r = await patch(p.id, t.id, {
      status_id: 'in_progress',
      assignee: fid(EDITOR),
      target_date: '2025-07-01',
      goal_id: g,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({
      version: 1,
      status_id: 'in_progress',
      assignee: fid(EDITOR),
      target_date: '2025-07-01',
      goal_id: g,
    });
    expect(await versionRows(t.id)).toHaveLength(1);
    const rows = await changeRows(t.id);
    expect(rows.map((x) => x.field).sort()).toEqual(['assignee', 'goal_id', 'status_id', 'target_date']);
    // One change number for the whole PATCH, and the task carries it.
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect(new Set(rows.map((x) => Number(x.change_seq)))).toEqual(new Set([seq + 1]));
    const row = await h.db.selectFrom('tasks').select('change_seq').where('id', '=', t.id).executeTakeFirstOrThrow();
    expect(Number(row.change_seq)).toBe(seq + 1);
    const status = rows.find((x) => x.field === 'status_id');
    expect([status?.old_value, status?.new_value]).toEqual(['triage', 'in_progress']);
    const owner = rows.find((x) => x.field === 'assignee');
    expect([owner?.old_value, owner?.new_value]).toEqual([null, fid(EDITOR)]);
  });

  it('WS-109 a version sent with a state-only PATCH is not checked', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, body: 'v2' });
    const r = await patch(p.id, t.id, { version: 1, status_id: 'todo' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status_id: 'todo', version: 2 });
  });

  it('WS-095 an empty assignee clears the owner (empty string and null alike)', async () => {
    const p = await h.team();
    const a = await h.task(p.id, { assignee: fid(EDITOR) });
    const b = await h.task(p.id, { assignee: fid(EDITOR) });
    expect((await patch(p.id, a.id, { assignee: '' })).data.assignee).toBeNull();
    expect((await patch(p.id, b.id, { assignee: null })).data.assignee).toBeNull();
    expect((await read(p.id, a.id)).assignee).toBeNull();
  });

  it('WS-096 an empty target_date clears it', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { target_date: '2025-08-01' });
    expect(t.target_date).toBe('2025-08-01');
    expect((await patch(p.id, t.id, { target_date: '' })).data.target_date).toBeNull();
    expect((await read(p.id, t.id)).target_date).toBeNull();
    await patch(p.id, t.id, { target_date: '2025-09-01' });
    expect((await patch(p.id, t.id, { target_date: null })).data.target_date).toBeNull();
  });

  it('WS-097 an empty goal_id clears the goal link', async () => {
    const p = await h.team();
    const g = await goal(p.id);
    const t = await h.task(p.id, { goal_id: g });
    expect(t.goal_id).toBe(g);
    expect((await patch(p.id, t.id, { goal_id: '' })).data.goal_id).toBeNull();
    expect((await read(p.id, t.id)).goal_id).toBeNull();
  });

  it('WS-097 a goal of another project is 422 goal_not_found; nothing written', async () => {
    const p = await h.team();
    const q = await h.team();
    const g = await goal(q.id);
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { goal_id: g });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('goal_not_found');
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-077 a status_id the project does not offer is 422 status_not_offered; nothing written', async () => {
    const p = await h.team({ workflow: 'general' });
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { status_id: 'in_review' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('status_not_offered');
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-110 WS-112 PATCH with status_id moves the task to that status and sets status_changed_at to the change time', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    h.setNow('2025-06-18T09:30:00Z');
    const r = await patch(p.id, t.id, { status_id: 'in_review' });
    expect(r.status).toBe(200);
    expect(r.data.status).toEqual({ id: 'in_review', name: 'In review', category: 'review' });
    expect(r.data.status_changed_at).toBe('2025-06-18T09:30:00.000Z');
    expect((await read(p.id, t.id)).status_id).toBe('in_review');
  });

  it('WS-111 after_id and before_id on a PATCH with status_id place the task between the two neighbours', async () => {
    const p = await h.team();
    const low = await h.task(p.id);
    const high = await h.task(p.id);
    // New tasks go to the top: high is above low.
    const t = await h.task(p.id);
    const r = await patch(p.id, t.id, { status_id: 'todo', after_id: high.id, before_id: low.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.status_id).toBe('todo');
    expect(r.data.rank).toBeGreaterThan(high.rank);
    expect(r.data.rank).toBeLessThan(low.rank);
    expect(r.data.rank).toBe(Math.floor((high.rank + low.rank) / 2));
    expect(r.data.version).toBe(1);
  });

  it('WS-102 one PATCH carries a content and a state change and applies both with one change number', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const seq = await h.seq(p.id);
    const r = await patch(p.id, t.id, { version: 1, title: 'Both', status_id: 'in_progress', assignee: fid(OWNER) });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ title: 'Both', version: 2, status_id: 'in_progress', assignee: fid(OWNER) });
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect((await changeRows(t.id)).map((x) => x.field).sort()).toEqual(['assignee', 'status_id']);
    expect(await versionRows(t.id)).toHaveLength(2);
  });

  it('WS-098 a bug moved to a closed status by PATCH with no resolution is 422 resolution_required; status unchanged', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug' });
    const before = await state(p.id, bug.id);
    const r = await patch(p.id, bug.id, { status_id: 'done' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('resolution_required');
    expect(await state(p.id, bug.id)).toEqual(before);
    expect((await read(p.id, bug.id)).status_id).toBe('triage');
    // Sent with the close (a content change, so with the version), or stored before: it closes.
    const ok = await patch(p.id, bug.id, { version: 1, status_id: 'done', resolution: 'Fixed in 1.2' });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ status_id: 'done', resolution: 'Fixed in 1.2', version: 2 });
    const other = await h.task(p.id, { type: 'bug', resolution: 'Duplicate' });
    expect((await patch(p.id, other.id, { status_id: 'done' })).status).toBe(200);
  });

  it('WS-098 clearing the resolution of a closed bug is 422 resolution_required', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug', resolution: 'Fixed', status_id: 'done' });
    const before = await state(p.id, bug.id);
    const r = await patch(p.id, bug.id, { version: 1, resolution: '' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('resolution_required');
    expect(await state(p.id, bug.id)).toEqual(before);
  });

  it('WS-128 WS-129 reopening clears who resolved the task and when, and keeps the resolution', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'bug', resolution: 'Fixed' });
    h.setNow('2025-06-19T08:00:00Z');
    const closed = await patch(p.id, t.id, { status_id: 'done' }, OWNER);
    expect(closed.data).toMatchObject({
      state: 'resolved',
      resolved_at: '2025-06-19T08:00:00.000Z',
      resolved_by: fid(OWNER),
    });
    const reopened = await patch(p.id, t.id, { status_id: 'in_progress' });
    expect(reopened.status).toBe(200);
    expect(reopened.data).toMatchObject({
      state: 'open',
      resolved_at: null,
      resolved_by: null,
      resolution: 'Fixed',
      version: 1,
    });
    expect(await read(p.id, t.id)).toMatchObject({ resolved_at: null, resolved_by: null, resolution: 'Fixed' });
  });

  it('WS-004 a PATCH body {data} or {data, why} is accepted; unknown properties in data are 422, nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const r = await patch(p.id, t.id, { status_id: 'todo', colour: 'red' });
    expect(r.status).toBe(422);
    expect(await state(p.id, t.id)).toEqual(before);
    const why = await h.call('PATCH', url(p.id, t.id), EDITOR, {
      data: { status_id: 'todo' },
      why: { detail: 'planned' },
    });
    expect(why.status).toBe(200);
    expect(why.data.status_id).toBe('todo');
  });
});
