import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** The goal events about one goal (the outbox is shared by every test in the file). */
const eventsOf = async (type: string, goalId: string) =>
  (await h.events(type)).filter((e) => e.payload.data.goalId === goalId);

describe('goal events', () => {
  it('WS-553 creating a goal publishes one project.goal_created with ids only', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { title: 'Secret launch plan', description: 'Confidential detail' });
    const events = await eventsOf('project.goal_created', g.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.data).toEqual({ projectId: p.id, goalId: g.id, actor: fid(OWNER) });
    expect(events[0]?.subject).toContain('project.goal_created');
    expect(JSON.stringify(events[0]?.payload)).not.toContain('Secret');
    // A refused create publishes nothing.
    const count = (await h.events('project.goal_created')).length;
    expect((await h.call('POST', `/v1/projects/${p.id}/goals`, EDITOR, { data: { title: 'No' } })).status).toBe(403);
    expect((await h.events('project.goal_created')).length).toBe(count);
  });

  it('WS-554 updating a goal publishes one project.goal_updated naming the changed fields; a no-op publishes none', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    const url = `/v1/projects/${p.id}/goals/${g.id}`;
    const r = await h.call('PATCH', url, OWNER, { data: { title: 'Hidden new title', target_date: '2025-09-01' } });
    expect(r.status).toBe(200);
    let events = await eventsOf('project.goal_updated', g.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.data).toEqual({
      projectId: p.id,
      goalId: g.id,
      actor: fid(OWNER),
      changedFields: ['title', 'target_date'],
    });
    expect(JSON.stringify(events[0]?.payload)).not.toContain('Hidden');
    expect((await h.call('PATCH', url, OWNER, { data: { title: 'Hidden new title' } })).status).toBe(200);
    expect(await eventsOf('project.goal_updated', g.id)).toHaveLength(1);
    // The lead closing it: one more, without the closing note.
    const close = await h.call('PATCH', url, VIEWER, { data: { status: 'achieved', closing_note: 'Private words' } });
    expect(close.status).toBe(200);
    events = await eventsOf('project.goal_updated', g.id);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.payload.data.changedFields)).toContainEqual(['status', 'closing_note']);
    expect(JSON.stringify(events)).not.toContain('Private');
  });

  it('WS-555 deleting a goal publishes one project.goal_deleted', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await h.task(p.id, { goal_id: g.id });
    expect((await h.call('DELETE', `/v1/projects/${p.id}/goals/${g.id}`, OWNER)).status).toBe(204);
    const events = await eventsOf('project.goal_deleted', g.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.data).toEqual({ projectId: p.id, goalId: g.id, actor: fid(OWNER) });
    // The unlinking publishes no item events.
    expect((await h.events()).filter((e) => e.event_type.startsWith('project.item_') && e.payload.data.goalId)).toEqual(
      [],
    );
  });

  it('WS-556 WS-557 project.goal_checked_in carries goalId, checkinId and the status, never the note', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const note = 'Customer escalation about the invoice run';
    const c = await h.checkin(p.id, g.id, { status: 'off_track', note }, EDITOR);
    const events = await eventsOf('project.goal_checked_in', g.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.data).toEqual({
      projectId: p.id,
      goalId: g.id,
      checkinId: c.id,
      status: 'off_track',
      actor: fid(EDITOR),
    });
    expect(events[0]?.payload.data).not.toHaveProperty('note');
    expect(JSON.stringify(events[0])).not.toContain('invoice');
    // A check-in publishes only goal_checked_in (no goal_updated for the status it sets).
    expect(await eventsOf('project.goal_updated', g.id)).toHaveLength(0);
  });

  it('WS-558 a check-in adds one goal.checked_in activity row about the goal', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    const before = await h.count('activity');
    await h.checkin(p.id, g.id, { note: 'Fine' }, VIEWER);
    expect(await h.count('activity')).toBe(before + 1);
    const rows = await sql<{ kind: string; subject_id: string; actor: string; project_id: string }>`
      SELECT kind, subject_id, actor, project_id FROM activity WHERE project_id = ${p.id} AND position > 1
      ORDER BY position`.execute(h.db);
    expect(rows.rows).toEqual([{ kind: 'goal.checked_in', subject_id: g.id, actor: fid(VIEWER), project_id: p.id }]);
    // A refused check-in adds none.
    const refused = await h.call('POST', `/v1/projects/${p.id}/goals/${g.id}/checkins`, EDITOR, {
      data: { status: 'on_track', note: 'Not the lead' },
    });
    expect(refused.status).toBe(403);
    expect(await h.count('activity')).toBe(before + 1);
  });
});
