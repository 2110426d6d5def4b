import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, type Harness, harness, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (p: string, t: string) => `/v1/projects/${p}/items/${t}`;
const post = (p: string, t: string, action: string, data: Record<string, unknown> = {}, as: string = EDITOR) =>
  h.call('POST', `${url(p, t)}/${action}`, as, { data });
const patch = (p: string, t: string, data: Record<string, unknown>) => h.call('PATCH', url(p, t), EDITOR, { data });
const read = (p: string, t: string) => h.readTask(p, t);
const state = (p: string, t: string) => h.taskState(p, t);
const changeFields = async (taskId: string) =>
  (
    await h.db
      .selectFrom('task_changes')
      .select(['field', 'old_value', 'new_value'])
      .where('task_id', '=', taskId)
      .orderBy('change_seq')
      .execute()
  ).map((r) => [r.field, r.old_value, r.new_value]);

describe('archive and unarchive', () => {
  it('WS-130 WS-115 archive archives the task and keeps its status and status_changed_at', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'in_progress' });
    h.setNow('2025-06-24T09:00:00Z');
    const seq = await h.seq(p.id);
    const r = await post(p.id, t.id, 'archive');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({
      archived: true,
      archived_at: '2025-06-24T09:00:00.000Z',
      status_id: 'in_progress',
      status_changed_at: t.status_changed_at,
      version: 1,
    });
    expect(await read(p.id, t.id)).toMatchObject({ archived: true, status_id: 'in_progress' });
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect(await changeFields(t.id)).toEqual([['archived', false, true]]);
  });

  it('WS-131 WS-116 unarchive unarchives the task and keeps its status and status_changed_at', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'todo' });
    await post(p.id, t.id, 'archive');
    h.setNow('2025-06-25T09:00:00Z');
    const r = await post(p.id, t.id, 'unarchive');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      archived: false,
      archived_at: null,
      status_id: 'todo',
      status_changed_at: t.status_changed_at,
    });
    expect(await changeFields(t.id)).toEqual([
      ['archived', false, true],
      ['archived', true, false],
    ]);
    // Writable again.
    expect((await patch(p.id, t.id, { status_id: 'in_progress' })).status).toBe(200);
  });

  it('WS-131 unarchive of a task that is not archived is a no-op 200: no change number, no event', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    const events = (await h.events()).length;
    const r = await post(p.id, t.id, 'unarchive');
    expect(r.status).toBe(200);
    expect(r.data).toEqual(before.task);
    expect(await h.seq(p.id)).toBe(before.seq);
    expect((await h.events()).length).toBe(events);
  });

  it('WS-099 archiving an archived task is 409 item_archived; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await post(p.id, t.id, 'archive');
    const before = await state(p.id, t.id);
    const r = await post(p.id, t.id, 'archive');
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('item_archived');
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-099 WS-121 WS-126 an archived task is read-only: PATCH, move, resolve and restore are 409 item_archived; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const other = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, title: 'Second version' });
    await post(p.id, t.id, 'archive');
    const before = await state(p.id, t.id);
    const attempts = [
      () => patch(p.id, t.id, { version: 2, title: 'Edit' }),
      () => patch(p.id, t.id, { status_id: 'todo' }),
      () => patch(p.id, t.id, { assignee: '' }),
      () => post(p.id, t.id, 'move', { status_id: 'todo' }),
      () => post(p.id, t.id, 'move', { after_id: other.id }),
      () => post(p.id, t.id, 'resolve'),
      () => post(p.id, t.id, 'restore', { version: 2, from_version: 1 }),
    ];
    for (const attempt of attempts) {
      const r = await attempt();
      expect(r.status).toBe(409);
      expect(r.errors[0]?.code).toBe('item_archived');
    }
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-013 a viewer may not archive, unarchive or restore: 403, nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = await state(p.id, t.id);
    expect((await post(p.id, t.id, 'archive', {}, VIEWER)).status).toBe(403);
    expect((await post(p.id, t.id, 'unarchive', {}, VIEWER)).status).toBe(403);
    expect((await post(p.id, t.id, 'restore', { version: 1, from_version: 1 }, VIEWER)).status).toBe(403);
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-130 archive takes no body or an empty data', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const r = await h.call('POST', `${url(p.id, t.id)}/archive`, EDITOR);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.archived).toBe(true);
  });
});

describe('restore', () => {
  it('WS-132 WS-133 WS-117 restore writes a new version copying from_version; status and status_changed_at unchanged', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'question', body: 'first body', fields: { answer: 'A1' } });
    await patch(p.id, t.id, { version: 1, title: 'Second', body: 'second body', fields: { answer: 'A2' } });
    await patch(p.id, t.id, { version: 2, type: 'task' });
    await patch(p.id, t.id, { status_id: 'in_progress' });
    const current = await read(p.id, t.id);
    h.setNow('2025-06-26T09:00:00Z');
    const r = await post(p.id, t.id, 'restore', { version: 3, from_version: 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({
      version: 4,
      type: 'question',
      title: t.title,
      body: 'first body',
      fields: { answer: 'A1' },
      status_id: 'in_progress',
      status_changed_at: current.status_changed_at,
    });
    const versions = await h.db
      .selectFrom('task_versions')
      .select(['version', 'type', 'body', 'fields'])
      .where('task_id', '=', t.id)
      .orderBy('version', 'desc')
      .execute();
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0]).toMatchObject({ type: 'question', body: 'first body', fields: { answer: 'A1' } });
  });

  it('WS-134 restore against an older version than the current one is 409 stale_version with the current task; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, body: 'v2' });
    const before = await state(p.id, t.id);
    const r = await post(p.id, t.id, 'restore', { version: 1, from_version: 1 });
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('stale_version');
    expect(r.errors[0]?.value).toEqual(before.task);
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-132 a from_version the task does not have is 422 version_not_found; nothing written', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, body: 'v2' });
    const before = await state(p.id, t.id);
    const r = await post(p.id, t.id, 'restore', { version: 2, from_version: 7 });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'version_not_found', field: 'data/from_version' });
    expect(await state(p.id, t.id)).toEqual(before);
  });

  it('WS-132 restoring content equal to the current one is a no-op: no version, no change number, no event', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, body: 'changed' });
    await patch(p.id, t.id, { version: 2, body: '' });
    const before = await state(p.id, t.id);
    const events = (await h.events()).length;
    const r = await post(p.id, t.id, 'restore', { version: 3, from_version: 1 });
    expect(r.status).toBe(200);
    expect(r.data).toEqual(before.task);
    expect(await h.seq(p.id)).toBe(before.seq);
    expect((await h.events()).length).toBe(events);
  });

  it('WS-098 restoring a version without resolution onto a closed bug is 422 resolution_required', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug' });
    await h.call('POST', `${url(p.id, bug.id)}/move`, EDITOR, {
      data: { status_id: 'done', resolution: 'Fixed', version: 1 },
    });
    const before = await state(p.id, bug.id);
    expect(before.task).toMatchObject({ version: 2, status_id: 'done' });
    const r = await post(p.id, bug.id, 'restore', { version: 2, from_version: 1 });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('resolution_required');
    expect(await state(p.id, bug.id)).toEqual(before);
  });
});
