import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (p: string, t: string) => `/v1/projects/${p}/items/${t}`;
const patch = (p: string, t: string, data: Record<string, unknown>, as: string = EDITOR) =>
  h.call('PATCH', url(p, t), as, { data });
const post = (p: string, t: string, action: string, data: Record<string, unknown> = {}, as: string = EDITOR) =>
  h.call('POST', `${url(p, t)}/${action}`, as, { data });

/** The events of one task published since `from` (an outbox length), oldest first. */
async function eventsOf(itemId: string, from = 0) {
  return (await h.events()).slice(from).filter((e) => e.payload.data.itemId === itemId);
}
const mark = async () => (await h.events()).length;
const notificationsOf = (email: string) =>
  h.db.selectFrom('notifications').selectAll().where('recipient', '=', fid(email)).execute();

describe('content and status events', () => {
  it('WS-542 a content edit publishes one project.item_updated with the new version, the changed fields and evidenceChanged', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const from = await mark();
    expect((await patch(p.id, t.id, { version: 1, title: 'Renamed', body: 'secret body text' })).status).toBe(200);
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_updated']);
    expect(evs[0]?.payload.data).toMatchObject({
      projectId: p.id,
      itemId: t.id,
      version: 2,
      changedFields: ['title', 'body'],
      evidenceChanged: true,
      actor: fid(EDITOR),
    });
  });

  it('WS-539 WS-542 event payloads carry ids and short values, never the title, body, resolution or field text', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'question' });
    const from = await mark();
    await patch(p.id, t.id, {
      version: 1,
      title: 'TITLE-TEXT-XYZ',
      body: 'BODY-TEXT-XYZ',
      fields: { answer: 'ANSWER-TEXT-XYZ' },
      status_id: 'done',
      resolution: 'RESOLUTION-TEXT-XYZ',
    });
    const evs = await eventsOf(t.id, from);
    expect(evs.length).toBeGreaterThan(0);
    expect(JSON.stringify(evs)).not.toMatch(/TEXT-XYZ/);
  });

  it('WS-542 WS-544 a links-only edit publishes item_updated with evidenceChanged false', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const from = await mark();
    await patch(p.id, t.id, { version: 1, links: [{ url: 'https://example.com' }] });
    const [ev] = await eventsOf(t.id, from);
    expect(ev?.payload.data).toMatchObject({ changedFields: ['links'], evidenceChanged: false });
  });

  it('WS-543 a status change publishes one project.item_status_changed with both statuses and categories', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const from = await mark();
    await patch(p.id, t.id, { status_id: 'in_progress' });
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_status_changed']);
    expect(evs[0]?.payload.data).toMatchObject({
      projectId: p.id,
      itemId: t.id,
      fromStatusId: 'triage',
      toStatusId: 'in_progress',
      fromCategory: 'backlog',
      toCategory: 'started',
      evidenceChanged: false,
    });
  });

  it('WS-544 evidenceChanged is true on a close and on a reopen with no text change', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'in_review' });
    let from = await mark();
    await post(p.id, t.id, 'move', { status_id: 'done' });
    const closed = (await eventsOf(t.id, from)).find((e) => e.event_type === 'project.item_status_changed');
    expect(closed?.payload.data).toMatchObject({ toCategory: 'completed', evidenceChanged: true });
    from = await mark();
    await patch(p.id, t.id, { status_id: 'todo' });
    const reopened = (await eventsOf(t.id, from)).find((e) => e.event_type === 'project.item_status_changed');
    expect(reopened?.payload.data).toMatchObject({
      fromCategory: 'completed',
      toCategory: 'unstarted',
      evidenceChanged: true,
    });
  });

  it('WS-545 project.item_resolved is published once when a task goes from open to closed by PATCH, move and resolve alike', async () => {
    const p = await h.team();
    for (const close of [
      (id: string) => patch(p.id, id, { status_id: 'done' }),
      (id: string) => post(p.id, id, 'move', { status_id: 'done' }),
      (id: string) => post(p.id, id, 'resolve'),
    ]) {
      const t = await h.task(p.id, { status_id: 'in_progress' });
      const from = await mark();
      expect((await close(t.id)).status).toBe(200);
      const evs = await eventsOf(t.id, from);
      expect(evs.map((e) => e.event_type)).toEqual(['project.item_status_changed', 'project.item_resolved']);
      expect(evs[1]?.payload.data).toMatchObject({ itemId: t.id, statusId: 'done', category: 'completed' });
    }
  });

  it('WS-545 a reopen or a move between open statuses publishes no item_resolved', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { status_id: 'done' });
    const from = await mark();
    await patch(p.id, t.id, { status_id: 'todo' });
    await post(p.id, t.id, 'move', { status_id: 'in_progress' });
    expect((await eventsOf(t.id, from)).map((e) => e.event_type)).not.toContain('project.item_resolved');
  });

  it('WS-542 WS-543 WS-545 a PATCH that edits and closes publishes item_updated, item_status_changed and item_resolved once each', async () => {
    const p = await h.team();
    const bug = await h.task(p.id, { type: 'bug' });
    const from = await mark();
    await patch(p.id, bug.id, { version: 1, resolution: 'Fixed', status_id: 'done' });
    const evs = await eventsOf(bug.id, from);
    expect(evs.map((e) => e.event_type)).toEqual([
      'project.item_updated',
      'project.item_status_changed',
      'project.item_resolved',
    ]);
    expect(evs[0]?.payload.data).toMatchObject({ changedFields: ['resolution'], evidenceChanged: true });
  });
});

describe('assignment events and notifications', () => {
  it('WS-547 WS-548 assigning someone else publishes one item_assigned and notifies the new owner', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const from = await mark();
    const before = (await notificationsOf(VIEWER)).length;
    await patch(p.id, t.id, { assignee: fid(VIEWER) }, EDITOR);
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_assigned']);
    expect(evs[0]?.payload.data).toMatchObject({ assignee: fid(VIEWER), previousAssignee: null, actor: fid(EDITOR) });
    const notes = await notificationsOf(VIEWER);
    expect(notes.length).toBe(before + 1);
    expect(notes.at(-1)).toMatchObject({
      kind: 'item_assigned',
      project_id: p.id,
      subject_id: t.id,
      actor: fid(EDITOR),
    });
  });

  it('WS-549 self-assignment publishes item_assigned but sends no notification', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const before = (await notificationsOf(EDITOR)).length;
    const from = await mark();
    await patch(p.id, t.id, { assignee: fid(EDITOR) }, EDITOR);
    expect((await eventsOf(t.id, from)).map((e) => e.event_type)).toEqual(['project.item_assigned']);
    expect((await notificationsOf(EDITOR)).length).toBe(before);
  });

  it('WS-547 clearing the owner publishes item_assigned with no assignee and notifies no one; the same owner again publishes nothing', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { assignee: fid(OWNER) });
    const notes = await h.count('notifications');
    let from = await mark();
    await patch(p.id, t.id, { assignee: '' });
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_assigned']);
    expect(evs[0]?.payload.data).toMatchObject({ assignee: null, previousAssignee: fid(OWNER) });
    expect(await h.count('notifications')).toBe(notes);
    await patch(p.id, t.id, { assignee: fid(VIEWER) });
    from = await mark();
    await patch(p.id, t.id, { assignee: fid(VIEWER) });
    expect(await eventsOf(t.id, from)).toEqual([]);
  });
});

describe('archive, unarchive and restore events', () => {
  it('WS-550 archive publishes one project.item_archived', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const from = await mark();
    await post(p.id, t.id, 'archive');
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_archived']);
    expect(evs[0]?.payload.data).toMatchObject({ projectId: p.id, itemId: t.id, actor: fid(EDITOR) });
  });

  it('WS-551 unarchive publishes one project.item_unarchived', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await post(p.id, t.id, 'archive');
    const from = await mark();
    await post(p.id, t.id, 'unarchive');
    expect((await eventsOf(t.id, from)).map((e) => e.event_type)).toEqual(['project.item_unarchived']);
  });

  it('WS-552 restore publishes one project.item_restored with the new version and from_version', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await patch(p.id, t.id, { version: 1, title: 'Second' });
    const from = await mark();
    await post(p.id, t.id, 'restore', { version: 2, from_version: 1 });
    const evs = await eventsOf(t.id, from);
    expect(evs.map((e) => e.event_type)).toEqual(['project.item_restored']);
    expect(evs[0]?.payload.data).toMatchObject({ itemId: t.id, version: 3, fromVersion: 1 });
  });
});
