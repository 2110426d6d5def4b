import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemCreatedData } from '../src/schemas/task-input.ts';
import { EDITOR, fid, type Harness, harness, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** The events committed for one item, by type. */
async function eventsOf(itemId: string) {
  const rows = await h.events();
  return rows
    .filter((e) => (e.payload as { data: { itemId?: string } }).data.itemId === itemId)
    .map((e) => ({ type: e.event_type, data: (e.payload as { data: Record<string, unknown> }).data }));
}

const notificationsFor = (recipient: string, itemId: string) =>
  h.db
    .selectFrom('notifications')
    .selectAll()
    .where('recipient', '=', recipient)
    .where('subject_id', '=', itemId)
    .execute();

describe('project.item_created', () => {
  it('WS-540 one event per added task, carrying type, category and origin', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { type: 'bug', origin: 'agent', status_id: 'todo' });
    const events = await eventsOf(t.id);
    expect(events.map((e) => e.type)).toEqual(['project.item_created']);
    expect(events[0]?.data).toEqual({
      projectId: p.id,
      itemId: t.id,
      actor: fid(EDITOR),
      type: 'bug',
      category: 'unstarted',
      origin: 'agent',
      statusId: 'todo',
    });
  });

  it('WS-539 WS-540 the payload carries ids and short values, never the title or body', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { title: 'Secret plan title', body: 'Confidential body text' });
    const [created] = await eventsOf(t.id);
    const text = JSON.stringify(created);
    expect(text).not.toContain('Secret plan');
    expect(text).not.toContain('Confidential');
  });

  it('WS-541 item_created from this service always carries origin; a payload from before typed tasks (no origin) still reads', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const [created] = await eventsOf(t.id);
    expect(created?.data.origin).toBe('human');
    expect(Value.Check(ItemCreatedData, created?.data)).toBe(true);
    const legacy = { projectId: p.id, itemId: t.id, actor: fid(EDITOR) };
    expect(Value.Check(ItemCreatedData, legacy)).toBe(true);
  });

  it('WS-546 WS-071 a task added in a closed status also publishes project.item_resolved; an open one does not', async () => {
    const p = await h.team();
    const done = await h.task(p.id, { status_id: 'done' });
    const events = await eventsOf(done.id);
    expect(events.map((e) => e.type)).toEqual(['project.item_created', 'project.item_resolved']);
    expect(events[1]?.data).toMatchObject({ itemId: done.id, statusId: 'done', category: 'completed' });
    for (const status_id of ['triage', 'in_review']) {
      const open = await h.task(p.id, { status_id });
      expect((await eventsOf(open.id)).map((e) => e.type)).toEqual(['project.item_created']);
    }
  });
});

describe('assignment on create', () => {
  it('WS-547 WS-548 a task added with an owner publishes item_assigned and notifies the owner', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { assignee: fid(VIEWER) }, EDITOR);
    const events = await eventsOf(t.id);
    expect(events.map((e) => e.type)).toEqual(['project.item_created', 'project.item_assigned']);
    expect(events[1]?.data).toEqual({
      projectId: p.id,
      itemId: t.id,
      actor: fid(EDITOR),
      assignee: fid(VIEWER),
      previousAssignee: null,
    });
    const notes = await notificationsFor(fid(VIEWER), t.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'item_assigned', project_id: p.id, actor: fid(EDITOR), read_at: null });
  });

  it('WS-549 assigning yourself on create publishes item_assigned but sends no notification', async () => {
    const p = await h.team();
    const t = await h.task(p.id, { assignee: fid(OWNER) }, OWNER);
    expect((await eventsOf(t.id)).map((e) => e.type)).toEqual(['project.item_created', 'project.item_assigned']);
    expect(await notificationsFor(fid(OWNER), t.id)).toHaveLength(0);
  });

  it('WS-547 a task added without an owner publishes no item_assigned and notifies nobody', async () => {
    const p = await h.team();
    const before = await h.count('notifications');
    const t = await h.task(p.id, { assignee: '' });
    expect((await eventsOf(t.id)).map((e) => e.type)).toEqual(['project.item_created']);
    expect(await h.count('notifications')).toBe(before);
  });

  it('WS-535 a refused create leaves no event and no notification', async () => {
    const p = await h.team();
    const events = (await h.events()).length;
    const notes = await h.count('notifications');
    const r = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, {
      data: { title: 'x', assignee: fid(VIEWER), status_id: 'nope' },
    });
    expect(r.status).toBe(422);
    expect((await h.events()).length).toBe(events);
    expect(await h.count('notifications')).toBe(notes);
  });
});
