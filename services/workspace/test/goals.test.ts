import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

const DEFAULT_NOW = '2025-06-16T15:00:00Z'; // Monday 11:00 in New York

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

const goalsUrl = (projectId: string) => `/v1/projects/${projectId}/goals`;
const goalUrl = (projectId: string, goalId: string) => `/v1/projects/${projectId}/goals/${goalId}`;
const getGoal = (projectId: string, goalId: string, as = OWNER) => h.call('GET', goalUrl(projectId, goalId), as);
const patch = (projectId: string, goalId: string, data: Record<string, unknown>, as = OWNER) =>
  h.call('PATCH', goalUrl(projectId, goalId), as, { data });
const setWeekday = async (projectId: string, weekday: number) => {
  const r = await h.call('PATCH', `/v1/projects/${projectId}`, OWNER, { data: { checkin_weekday: weekday } });
  h.expectStatus('checkin_weekday', r, 200);
};

describe('reading goals', () => {
  it('WS-178 a viewer lists the goals: active first, then closed, each oldest first', async () => {
    const p = await h.team();
    h.setNow('2025-06-16T15:00:00Z');
    const a = await h.goal(p.id, { title: 'A' });
    h.setNow('2025-06-16T15:01:00Z');
    const b = await h.goal(p.id, { title: 'B' });
    h.setNow('2025-06-16T15:02:00Z');
    const c = await h.goal(p.id, { title: 'C' });
    expect((await patch(p.id, a.id, { status: 'dropped', closing_note: 'Not needed' })).status).toBe(200);
    const r = await h.call('GET', goalsUrl(p.id), VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.map((g: { id: string }) => g.id)).toEqual([b.id, c.id, a.id]);
    const other = await h.team();
    expect((await h.call('GET', goalsUrl(other.id), VIEWER)).data).toEqual([]);
  });

  it('WS-204 a goal on another project is 404 on every goal route', async () => {
    const p = await h.team();
    const q = await h.team();
    const g = await h.goal(q.id);
    const before = await h.counts();
    expect((await getGoal(p.id, g.id)).status).toBe(404);
    expect((await getGoal(p.id, g.id)).errors[0].code).toBe('goal_not_found');
    expect((await patch(p.id, g.id, { title: 'Moved' })).status).toBe(404);
    expect((await h.call('DELETE', goalUrl(p.id, g.id), OWNER)).status).toBe(404);
    expect((await h.call('GET', `${goalUrl(p.id, g.id)}/checkins`, OWNER)).status).toBe(404);
    const ci = await h.call('POST', `${goalUrl(p.id, g.id)}/checkins`, OWNER, {
      data: { status: 'on_track', note: 'x' },
    });
    expect(ci.status).toBe(404);
    expect(await h.counts()).toEqual(before);
    expect((await getGoal(q.id, g.id)).status).toBe(200);
    const unknown = '01977941-0000-7000-8000-000000000000';
    expect((await getGoal(p.id, unknown)).status).toBe(404);
  });

  it('WS-205 a goal the caller cannot see is 404; a platform admin reads it, unless acting as a member', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const r = await getGoal(p.id, g.id, OUTSIDER);
    expect(r.status).toBe(404);
    expect((await h.call('GET', goalsUrl(p.id), OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', `${goalUrl(p.id, g.id)}/checkins`, OUTSIDER)).status).toBe(404);
    expect((await patch(p.id, g.id, { status: 'at_risk' }, OUTSIDER)).status).toBe(404);
    expect((await getGoal(p.id, g.id, ADMIN)).status).toBe(200);
    const limited = await h.call('GET', goalUrl(p.id, g.id), {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(limited.status).toBe(404);
    expect((await h.call('GET', goalUrl(p.id, g.id), null)).status).toBe(401);
  });
});

describe('creating goals', () => {
  it('WS-179 WS-185 an owner creates a goal: 201, title trimmed, on_track, lead the caller, ongoing without a target date', async () => {
    const p = await h.team();
    const seq = await h.seq(p.id);
    const r = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: '  Launch the beta  ' } });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      title: 'Launch the beta',
      description: '',
      lead: fid(OWNER),
      target_date: null,
      status: 'on_track',
      closing_note: null,
      created_by: fid(OWNER),
      created_at: '2025-06-16T15:00:00.000Z',
      updated_at: '2025-06-16T15:00:00.000Z',
      contributors: [],
      checkin_state: 'current',
      next_checkin_on: '2025-06-23',
    });
    expect(await h.seq(p.id)).toBe(seq + 1);
    expect((await getGoal(p.id, r.data.id, VIEWER)).data).toEqual(r.data);
    const dated = await h.goal(p.id, { target_date: '2025-09-30', description: 'Why', status: 'at_risk' });
    expect(dated).toMatchObject({ target_date: '2025-09-30', description: 'Why', status: 'at_risk' });
    expect((await h.goal(p.id, { target_date: '' })).target_date).toBeNull();
    expect((await h.goal(p.id, { target_date: null })).target_date).toBeNull();
  });

  it('WS-180 editors and viewers may not create goals: 403, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    for (const as of [EDITOR, VIEWER]) {
      const r = await h.call('POST', goalsUrl(p.id), as, { data: { title: 'Mine' } });
      expect(r.status).toBe(403);
    }
    expect((await h.call('POST', goalsUrl(p.id), OUTSIDER, { data: { title: 'Mine' } })).status).toBe(404);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-179 the title is 1 to 200 characters after trimming; unknown fields and a missing key are refused', async () => {
    const p = await h.team();
    const before = await h.counts();
    for (const title of ['', '   ', 'x'.repeat(201)]) {
      const r = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title } });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'invalid_title', field: 'data/title' });
      expect(r.errors[0].message).toContain('200');
    }
    const extra = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: 'T', color: 'red' } });
    expect(extra.status).toBe(422);
    const closed = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: 'T', status: 'achieved' } });
    expect(closed.status).toBe(422);
    const noKey = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: 'T' } }, null);
    expect(noKey.status).toBe(400);
    expect(noKey.errors[0].code).toBe('idempotency_key_required');
    expect(await h.counts()).toEqual(before);
    expect((await h.goal(p.id, { title: ` ${'x'.repeat(200)} ` })).title).toBe('x'.repeat(200));
  });

  it('WS-184 any project member may be the lead, a viewer included; a non-member is 422 lead_not_member', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    expect(g.lead).toBe(fid(VIEWER));
    const before = await h.counts();
    const r = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: 'T', lead: fid(OUTSIDER) } });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'lead_not_member', field: 'data/lead' });
    expect(await h.counts()).toEqual(before);
  });

  it('WS-199 a project has at most five active goals: a sixth is 422 too_many_active_goals and nothing is written', async () => {
    const p = await h.team();
    const goals = [];
    for (let i = 0; i < 5; i++) goals.push(await h.goal(p.id));
    const before = await h.counts();
    const seq = await h.seq(p.id);
    const r = await h.call('POST', goalsUrl(p.id), OWNER, { data: { title: 'Sixth' } });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('too_many_active_goals');
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
    // Closing one makes room; reopening it while five are active again is refused.
    const first = goals[0]?.id as string;
    expect((await patch(p.id, first, { status: 'achieved', closing_note: 'Done' })).status).toBe(200);
    await h.goal(p.id, { title: 'Sixth' });
    const reopen = await patch(p.id, first, { status: 'on_track' });
    expect(reopen.status).toBe(422);
    expect(reopen.errors[0].code).toBe('too_many_active_goals');
    expect((await getGoal(p.id, first)).data.status).toBe('achieved');
    // Another project has its own five.
    const q = await h.team();
    expect((await h.call('POST', goalsUrl(q.id), OWNER, { data: { title: 'Other' } })).status).toBe(201);
  });
});

describe('changing goals', () => {
  it('WS-181 WS-173 an owner edits any field; each changing PATCH takes one change number', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const seq = await h.seq(p.id);
    h.setNow('2025-06-17T10:00:00Z');
    const r = await patch(p.id, g.id, {
      title: '  Renamed ',
      description: 'More',
      lead: fid(EDITOR),
      target_date: '2025-12-31',
      status: 'off_track',
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      title: 'Renamed',
      description: 'More',
      lead: fid(EDITOR),
      target_date: '2025-12-31',
      status: 'off_track',
      created_at: '2025-06-16T15:00:00.000Z',
      updated_at: '2025-06-17T10:00:00.000Z',
    });
    expect(await h.seq(p.id)).toBe(seq + 1);
    const cleared = await patch(p.id, g.id, { target_date: '' });
    expect(cleared.data.target_date).toBeNull();
    expect(await h.seq(p.id)).toBe(seq + 2);
    const bad = await patch(p.id, g.id, { lead: fid(OUTSIDER) });
    expect(bad.status).toBe(422);
    expect(bad.errors[0].code).toBe('lead_not_member');
    expect(await h.seq(p.id)).toBe(seq + 2);
  });

  it('WS-181 a PATCH that changes nothing answers the goal without a change number, event or new updated_at', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { target_date: '2025-08-01' });
    const seq = await h.seq(p.id);
    const events = (await h.events()).length;
    h.setNow('2025-06-18T10:00:00Z');
    const r = await patch(p.id, g.id, { title: ` ${g.title} `, status: 'on_track', target_date: '2025-08-01' });
    expect(r.status).toBe(200);
    expect(r.data.updated_at).toBe(g.updated_at);
    expect((await patch(p.id, g.id, {})).status).toBe(200);
    expect(await h.seq(p.id)).toBe(seq);
    expect((await h.events()).length).toBe(events);
  });

  it('WS-182 the lead may change only status and closing note: any other field is 403 and the goal is unchanged', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    const seq = await h.seq(p.id);
    for (const data of [
      { title: 'Lead renames' },
      { description: 'Lead writes' },
      { lead: fid(EDITOR) },
      { target_date: '2025-10-01' },
      { status: 'at_risk', title: 'Both' },
    ]) {
      const r = await patch(p.id, g.id, data, VIEWER);
      expect(r.status).toBe(403);
    }
    expect((await getGoal(p.id, g.id)).data).toEqual(g);
    expect(await h.seq(p.id)).toBe(seq);
    // Fields sent with their current values are no change; status is the lead's to change.
    const ok = await patch(p.id, g.id, { title: g.title, status: 'at_risk' }, VIEWER);
    expect(ok.status).toBe(200);
    expect(ok.data.status).toBe('at_risk');
    // Someone who is neither an owner nor the lead: 403.
    const editor = await patch(p.id, g.id, { status: 'on_track' }, EDITOR);
    expect(editor.status).toBe(403);
    expect((await getGoal(p.id, g.id)).data.status).toBe('at_risk');
  });

  it('WS-183 WS-192 WS-196 the lead closes the goal with a closed status and a closing note; state fields are then absent', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const r = await patch(p.id, g.id, { status: 'achieved', closing_note: '  Shipped to everyone ' }, EDITOR);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'achieved', closing_note: 'Shipped to everyone' });
    for (const data of [r.data, (await getGoal(p.id, g.id, VIEWER)).data]) {
      expect(data).not.toHaveProperty('checkin_state');
      expect(data).not.toHaveProperty('next_checkin_on');
    }
    // Closed to another closed status keeps the note; reopening clears it and brings the state back.
    expect((await patch(p.id, g.id, { status: 'missed' }, EDITOR)).data.closing_note).toBe('Shipped to everyone');
    const reopened = await patch(p.id, g.id, { status: 'at_risk' }, EDITOR);
    expect(reopened.data).toMatchObject({ status: 'at_risk', closing_note: null, checkin_state: 'current' });
  });

  it('WS-186 goal statuses are the six; any other value is refused and status reads one of them', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    for (const status of ['done', 'active', 'ON_TRACK', '']) {
      const r = await patch(p.id, g.id, { status });
      expect(r.status).toBe(422);
      expect(r.errors[0].field).toContain('status');
    }
    for (const status of ['on_track', 'at_risk', 'off_track']) {
      expect((await patch(p.id, g.id, { status })).data.status).toBe(status);
    }
    for (const status of ['achieved', 'missed', 'dropped']) {
      expect((await patch(p.id, g.id, { status, closing_note: 'Why' })).data.status).toBe(status);
    }
    const list = await h.call('GET', goalsUrl(p.id), VIEWER);
    for (const goal of list.data) {
      expect(['on_track', 'at_risk', 'off_track', 'achieved', 'missed', 'dropped']).toContain(goal.status);
    }
  });

  it('WS-187 closing without a closing note is 422 closing_note_required; the status is unchanged', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    const seq = await h.seq(p.id);
    for (const data of [
      { status: 'achieved' },
      { status: 'missed', closing_note: '' },
      { status: 'dropped', closing_note: '   ' },
      { status: 'dropped', closing_note: null },
    ]) {
      for (const as of [OWNER, VIEWER]) {
        const r = await patch(p.id, g.id, data, as);
        expect(r.status).toBe(422);
        expect(r.errors[0]).toMatchObject({ code: 'closing_note_required', field: 'data/closing_note' });
      }
    }
    expect((await getGoal(p.id, g.id)).data).toMatchObject({ status: 'on_track', closing_note: null });
    expect(await h.seq(p.id)).toBe(seq);
    // A closing note on an open goal, or clearing the note of a closed goal, is refused too.
    const open = await patch(p.id, g.id, { closing_note: 'Early' });
    expect(open.status).toBe(422);
    expect(open.errors[0].code).toBe('closing_note_not_allowed');
    expect((await patch(p.id, g.id, { status: 'dropped', closing_note: 'Later' })).status).toBe(200);
    const clear = await patch(p.id, g.id, { closing_note: '' });
    expect(clear.status).toBe(422);
    expect(clear.errors[0].code).toBe('closing_note_required');
    const long = await patch(p.id, g.id, { closing_note: 'x'.repeat(2001) });
    expect(long.status).toBe(422);
    expect(long.errors[0].code).toBe('invalid_closing_note');
  });
});

describe('deleting goals', () => {
  it('WS-021 only owners delete goals: an editor gets 403 and the goal remains', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const before = await h.counts();
    for (const as of [EDITOR, VIEWER]) {
      const r = await h.call('DELETE', goalUrl(p.id, g.id), as);
      expect(r.status).toBe(403);
    }
    expect(await h.counts()).toEqual(before);
    expect((await getGoal(p.id, g.id)).status).toBe(200);
  });

  it('WS-201 an owner deletes a goal without check-ins: 204 with no body, then 404; a replay answers 204 again', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const seq = await h.seq(p.id);
    const key = 'delete-goal-once';
    const r = await h.call('DELETE', goalUrl(p.id, g.id), OWNER, undefined, key);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await getGoal(p.id, g.id)).status).toBe(404);
    expect(await h.seq(p.id)).toBe(seq + 1);
    const replay = await h.call('DELETE', goalUrl(p.id, g.id), OWNER, undefined, key);
    expect(replay.status).toBe(204);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await h.seq(p.id)).toBe(seq + 1);
    const again = await h.call('DELETE', goalUrl(p.id, g.id), OWNER);
    expect(again.status).toBe(404);
    const noKey = await h.call('DELETE', goalUrl(p.id, (await h.goal(p.id)).id), OWNER, undefined, null);
    expect(noKey.status).toBe(400);
  });

  it('WS-200 a goal with check-ins cannot be deleted: 422 goal_has_checkins and the goal remains', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await h.checkin(p.id, g.id);
    const before = await h.counts();
    const seq = await h.seq(p.id);
    const r = await h.call('DELETE', goalUrl(p.id, g.id), OWNER);
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('goal_has_checkins');
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
    expect((await getGoal(p.id, g.id)).status).toBe(200);
  });

  it('WS-202 WS-203 deleting a goal unlinks its tasks, archived ones too, each with one goal_id change-log row and the delete change number', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const other = await h.goal(p.id);
    const t1 = await h.task(p.id, { goal_id: g.id });
    const t2 = await h.task(p.id, { goal_id: g.id });
    const t3 = await h.task(p.id, { goal_id: other.id });
    const archived = await h.task(p.id, { goal_id: g.id });
    h.expectStatus(
      'archive',
      await h.call('POST', `/v1/projects/${p.id}/items/${archived.id}/archive`, EDITOR, { data: {} }),
      200,
    );
    const seq = await h.seq(p.id);
    const changesBefore = await h.count('task_changes');
    const r = await h.call('DELETE', goalUrl(p.id, g.id), OWNER);
    expect(r.status).toBe(204);
    expect(await h.seq(p.id)).toBe(seq + 1);
    for (const t of [t1, t2, archived]) {
      const read = await h.call('GET', `/v1/projects/${p.id}/items/${t.id}`, VIEWER);
      expect(read.data.goal_id).toBeNull();
    }
    expect((await h.call('GET', `/v1/projects/${p.id}/items/${t3.id}`, VIEWER)).data.goal_id).toBe(other.id);
    const rows = await sql<{
      task_id: string;
      field: string;
      old_value: unknown;
      new_value: unknown;
      change_seq: string;
    }>`
      SELECT task_id, field, old_value, new_value, change_seq, actor FROM task_changes
      WHERE project_id = ${p.id} AND field = 'goal_id' ORDER BY task_id`.execute(h.db);
    expect(await h.count('task_changes')).toBe(changesBefore + 3);
    expect(rows.rows.map((x) => x.task_id).sort()).toEqual([t1.id, t2.id, archived.id].sort());
    for (const row of rows.rows) {
      expect(row).toMatchObject({ field: 'goal_id', old_value: g.id, new_value: null, actor: fid(OWNER) });
      expect(Number(row.change_seq)).toBe(seq + 1);
    }
    const tasks = await sql<{ id: string; change_seq: string }>`
      SELECT id, change_seq FROM tasks WHERE id IN (${t1.id}, ${t2.id}, ${t3.id}, ${archived.id})`.execute(h.db);
    for (const t of tasks.rows) {
      expect(Number(t.change_seq) === seq + 1).toBe(t.id !== t3.id);
    }
  });
});

describe('contributors and check-in fields', () => {
  it('WS-188 contributors are the distinct assignees of unarchived linked tasks, sorted; archived-only owners are absent', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await h.task(p.id, { goal_id: g.id, assignee: fid(VIEWER) });
    await h.task(p.id, { goal_id: g.id, assignee: fid(EDITOR) });
    await h.task(p.id, { goal_id: g.id, assignee: fid(EDITOR) });
    await h.task(p.id, { goal_id: g.id });
    await h.task(p.id, { assignee: fid(OWNER) });
    const ownerOnlyArchived = await h.task(p.id, { goal_id: g.id, assignee: fid(OWNER) });
    h.expectStatus(
      'archive',
      await h.call('POST', `/v1/projects/${p.id}/items/${ownerOnlyArchived.id}/archive`, EDITOR, { data: {} }),
      200,
    );
    const r = await getGoal(p.id, g.id, VIEWER);
    expect(r.data.contributors).toEqual([fid(EDITOR), fid(VIEWER)].sort());
    expect((await h.call('GET', goalsUrl(p.id), VIEWER)).data[0].contributors).toEqual(r.data.contributors);
  });

  it('WS-189 WS-190 last_checkin_at and last_checkin_status are absent before the first check-in, then the latest one', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    expect(g).not.toHaveProperty('last_checkin_at');
    expect(g).not.toHaveProperty('last_checkin_status');
    const read = await getGoal(p.id, g.id, VIEWER);
    expect(Object.keys(read.data)).not.toContain('last_checkin_at');
    expect(Object.keys(read.data)).not.toContain('last_checkin_status');
    h.setNow('2025-06-17T14:00:00Z');
    await h.checkin(p.id, g.id, { status: 'at_risk' });
    h.setNow('2025-06-18T14:00:00Z');
    const latest = await h.checkin(p.id, g.id, { status: 'off_track' });
    const after = await getGoal(p.id, g.id, VIEWER);
    expect(after.data).toMatchObject({
      last_checkin_at: latest.created_at,
      last_checkin_status: 'off_track',
    });
    expect(latest.created_at).toBe('2025-06-18T14:00:00.000Z');
    // Still there once the goal is closed.
    await patch(p.id, g.id, { status: 'achieved', closing_note: 'Done' });
    expect((await getGoal(p.id, g.id)).data).toMatchObject({ last_checkin_status: 'off_track' });
  });

  it('WS-191 WS-193 WS-194 WS-195 WS-198 checkin_state and next_checkin_on over time, computed at each read', async () => {
    const p = await h.team(); // checkin_weekday 1 (Monday)
    const g = await h.goal(p.id); // Monday 2025-06-16 11:00 New York
    const read = async (now: string) => {
      h.setNow(now);
      const r = await getGoal(p.id, g.id, VIEWER);
      return { state: r.data.checkin_state, next: r.data.next_checkin_on };
    };
    expect(await read('2025-06-20T12:00:00Z')).toEqual({ state: 'current', next: '2025-06-23' });
    // Monday 10:59 New York: still under one week old.
    expect(await read('2025-06-23T14:59:00Z')).toEqual({ state: 'current', next: '2025-06-23' });
    expect(await read('2025-06-23T15:00:00Z')).toEqual({ state: 'due', next: '2025-06-23' });
    // Monday 23:59 New York is Tuesday in UTC: still due.
    expect(await read('2025-06-24T03:59:00Z')).toEqual({ state: 'due', next: '2025-06-23' });
    expect(await read('2025-06-24T04:00:00Z')).toEqual({ state: 'overdue', next: '2025-06-23' });
    h.setNow('2025-06-25T14:00:00Z');
    await h.checkin(p.id, g.id);
    expect(await read('2025-06-25T15:00:00Z')).toEqual({ state: 'current', next: '2025-06-30' });
    expect(await read('2025-07-07T15:00:00Z')).toEqual({ state: 'due', next: '2025-07-07' });
    const list = await h.call('GET', goalsUrl(p.id), VIEWER);
    expect(list.data[0]).toMatchObject({ checkin_state: 'due', next_checkin_on: '2025-07-07' });
  });

  it('WS-197 changing checkin_weekday changes checkin_state and next_checkin_on on the next read, with no goal write', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    h.setNow('2025-06-25T16:00:00Z'); // Wednesday
    const before = await getGoal(p.id, g.id, VIEWER);
    expect(before.data).toMatchObject({ checkin_state: 'overdue', next_checkin_on: '2025-06-23' });
    const goalsRow = await sql`SELECT * FROM goals WHERE id = ${g.id}`.execute(h.db);
    await setWeekday(p.id, 3);
    expect((await getGoal(p.id, g.id, VIEWER)).data).toMatchObject({
      checkin_state: 'due',
      next_checkin_on: '2025-06-25',
    });
    await setWeekday(p.id, 5);
    const after = await getGoal(p.id, g.id, VIEWER);
    expect(after.data).toMatchObject({ checkin_state: 'current', next_checkin_on: '2025-06-27' });
    expect(after.data.updated_at).toBe(before.data.updated_at);
    expect((await sql`SELECT * FROM goals WHERE id = ${g.id}`.execute(h.db)).rows).toEqual(goalsRow.rows);
  });
});
