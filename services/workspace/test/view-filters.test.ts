import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Filters,
  grouping,
  type MatchableTask,
  readFilters,
  saveFilters,
  viewMatches,
} from '../src/domain/views.ts';
import type { View } from '../src/schemas/views.ts';
import { EDITOR, fid, type Harness, harness, OWNER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (projectId: string) => `/v1/projects/${projectId}/views`;

/** A goal on the project, written directly (the goals routes have their own tests). */
async function goal(projectId: string): Promise<string> {
  const id = randomUUID();
  const now = h.now();
  await h.db
    .insertInto('goals')
    .values({
      id,
      project_id: projectId,
      title: `Goal ${tag()}`,
      lead: fid(OWNER),
      status: 'on_track',
      created_by: fid(OWNER),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

const save = (projectId: string, filters: unknown, as = EDITOR) =>
  h.call('POST', url(projectId), as, { data: { name: `View ${tag()}`, layout: 'list', filters } });

async function saved(projectId: string, filters: unknown): Promise<View> {
  const r = await save(projectId, filters);
  h.expectStatus('save view', r, 201);
  return r.data as View;
}

/** Expects a strict-save refusal naming the filter field; nothing written. */
async function refused(projectId: string, filters: unknown, field: string) {
  const counts = await h.counts();
  const r = await save(projectId, filters);
  expect(r.status).toBe(422);
  expect(r.body.payload.errors[0].field).toContain(field);
  expect(await h.counts()).toEqual(counts);
  return r.body.payload.errors[0];
}

async function readView(projectId: string, viewId: string): Promise<View> {
  const r = await h.call('GET', url(projectId), EDITOR);
  h.expectStatus('views', r, 200);
  return (r.data as View[]).find((v) => v.id === viewId) as View;
}

describe('filter values on save (strict)', () => {
  it('WS-232 types takes the task types the project offers: an unoffered or unknown type is 422', async () => {
    const pd = await h.team();
    expect((await saved(pd.id, { types: ['bug', 'feature', 'note'] })).filters.types).toEqual([
      'bug',
      'feature',
      'note',
    ]);
    const general = await h.team({ workflow: 'general' });
    expect((await saved(general.id, { types: ['task', 'question'] })).filters.types).toEqual(['task', 'question']);
    const e = await refused(general.id, { types: ['task', 'bug'] }, 'filters/types');
    expect(e).toMatchObject({ code: 'invalid_filter', field: 'data/filters/types/1' });
    await refused(pd.id, { types: ['epic'] }, 'filters/types');
  });

  it('WS-233 categories takes the six categories: any other value is 422', async () => {
    const p = await h.team();
    const six = ['backlog', 'unstarted', 'started', 'review', 'completed', 'canceled'];
    expect((await saved(p.id, { categories: six })).filters.categories).toEqual(six);
    await refused(p.id, { categories: ['started', 'blocked'] }, 'filters/categories');
  });

  it('WS-234 status_ids takes the statuses the project offers: any other status is 422', async () => {
    const pd = await h.team();
    expect((await saved(pd.id, { status_ids: ['triage', 'in_review'] })).filters.status_ids).toEqual([
      'triage',
      'in_review',
    ]);
    const e = await refused(pd.id, { status_ids: ['waiting'] }, 'filters/status_ids');
    expect(e.code).toBe('invalid_filter');
    const general = await h.team({ workflow: 'general' });
    expect((await saved(general.id, { status_ids: ['waiting'] })).filters.status_ids).toEqual(['waiting']);
    await refused(general.id, { status_ids: ['triage'] }, 'filters/status_ids');
    await refused(general.id, { status_ids: ['nope'] }, 'filters/status_ids');
  });

  it('WS-235 assignees takes principal ids and none', async () => {
    const p = await h.team();
    const v = await saved(p.id, { assignees: [fid(EDITOR), 'none', 'service:agents'] });
    expect(v.filters.assignees).toEqual([fid(EDITOR), 'none', 'service:agents']);
    await refused(p.id, { assignees: ['editor@ws.test'] }, 'filters/assignees');
  });

  it('WS-236 assignees never takes me: 422', async () => {
    const p = await h.team();
    const e = await refused(p.id, { assignees: [fid(EDITOR), 'me'] }, 'filters/assignees/1');
    expect(e.code).toBe('invalid_filter');
    expect(e.message).toContain('never me');
  });

  it('WS-237 goal_ids takes goals on the project or none: a goal of another project is 422', async () => {
    const p = await h.team();
    const other = await h.team();
    const mine = await goal(p.id);
    const theirs = await goal(other.id);
    expect((await saved(p.id, { goal_ids: [mine, 'none'] })).filters.goal_ids).toEqual([mine, 'none']);
    await refused(p.id, { goal_ids: [theirs] }, 'filters/goal_ids/0');
    await refused(p.id, { goal_ids: [randomUUID()] }, 'filters/goal_ids/0');
    await refused(p.id, { goal_ids: ['some goal'] }, 'filters/goal_ids/0');
  });

  it('WS-256 a save with an unknown filter key is 422', async () => {
    const p = await h.team();
    const e = await refused(p.id, { types: ['bug'], priority: ['high'] }, 'filters/priority');
    expect(e.field).toBe('body/data/filters/priority');
    const [list] = (await h.call('GET', url(p.id), EDITOR)).data as View[];
    const patch = await h.call('PATCH', `${url(p.id)}/${list.id}`, EDITOR, {
      data: { version: 1, filters: { labels: ['x'] } },
    });
    expect(patch.status).toBe(422);
  });

  it('WS-257 a save with an unusable value is 422 (due other than overdue, archived other than true, wrong shapes)', async () => {
    const p = await h.team();
    await refused(p.id, { due: 'soon' }, 'filters/due');
    await refused(p.id, { archived: false }, 'filters/archived');
    await refused(p.id, { archived: 'true' }, 'filters/archived');
    await refused(p.id, { types: 'bug' }, 'filters/types');
    await refused(p.id, { assignees: [42] }, 'filters/assignees');
    expect((await saved(p.id, { due: 'overdue', archived: true })).filters).toEqual({ due: 'overdue', archived: true });
  });

  it('WS-258 a filter list of more than 50 values is 422; 50 values are accepted', async () => {
    const p = await h.team();
    const people = Array.from({ length: 51 }, () => randomUUID());
    await refused(p.id, { assignees: people }, 'filters/assignees');
    const v = await saved(p.id, { assignees: people.slice(0, 50) });
    expect(v.filters.assignees).toHaveLength(50);
  });

  it('WS-259 repeated filter values are dropped on save: each value stored once', async () => {
    const p = await h.team();
    const g = await goal(p.id);
    const v = await saved(p.id, {
      types: ['bug', 'task', 'bug'],
      categories: ['started', 'started'],
      status_ids: ['todo', 'todo', 'done'],
      assignees: [fid(EDITOR), 'none', fid(EDITOR).toUpperCase(), 'none'],
      goal_ids: [g, g.toUpperCase(), 'none', 'none'],
    });
    const expected = {
      types: ['bug', 'task'],
      categories: ['started'],
      status_ids: ['todo', 'done'],
      assignees: [fid(EDITOR), 'none'],
      goal_ids: [g, 'none'],
    };
    expect(v.filters).toEqual(expected);
    const row = await h.db.selectFrom('saved_views').select('filters').where('id', '=', v.id).executeTakeFirstOrThrow();
    const stored = typeof row.filters === 'string' ? JSON.parse(row.filters) : row.filters;
    expect(stored).toEqual(expected);
  });

  it('an empty filter list filters nothing and is not stored', async () => {
    const p = await h.team();
    expect((await saved(p.id, { types: [], due: 'overdue' })).filters).toEqual({ due: 'overdue' });
  });
});

describe('filter values on read (lenient)', () => {
  it('WS-260 a goal deleted after the save is left out of the read, which still answers 200', async () => {
    const p = await h.team();
    const kept = await goal(p.id);
    const gone = await goal(p.id);
    const v = await saved(p.id, { goal_ids: [gone, kept] });
    await h.db.deleteFrom('goals').where('id', '=', gone).execute();
    expect((await readView(p.id, v.id)).filters).toEqual({ goal_ids: [kept] });
    await h.db.deleteFrom('goals').where('id', '=', kept).execute();
    // No usable value left: the key is left out (the view no longer filters on goals).
    expect((await readView(p.id, v.id)).filters).toEqual({});
  });

  it('WS-260 stored values the workflow does not offer, unknown keys and odd shapes are left out, 200', async () => {
    const p = await h.team({ workflow: 'general' });
    const v = await saved(p.id, { types: ['task'] });
    const stored = {
      types: ['bug', 'task', 'epic'],
      status_ids: ['triage', 'todo'],
      categories: ['blocked'],
      assignees: ['me', 'none', 7],
      goal_ids: 'none',
      due: 'soon',
      archived: 'yes',
      labels: ['x'],
    };
    await h.db
      .updateTable('saved_views')
      .set({ filters: JSON.stringify(stored) })
      .where('id', '=', v.id)
      .execute();
    const r = await h.call('GET', url(p.id), EDITOR);
    expect(r.status).toBe(200);
    expect((r.data as View[]).find((x) => x.id === v.id)?.filters).toEqual({
      types: ['task'],
      status_ids: ['todo'],
      assignees: ['none'],
    });
  });

  it('WS-260 the answer to a PATCH that leaves filters alone is lenient too; a stale view in 409 likewise', async () => {
    const p = await h.team();
    const g = await goal(p.id);
    const v = await saved(p.id, { goal_ids: [g], types: ['bug'] });
    await h.db.deleteFrom('goals').where('id', '=', g).execute();
    const r = await h.call('PATCH', `${url(p.id)}/${v.id}`, EDITOR, { data: { version: 1, sort: 'created' } });
    expect(r.status).toBe(200);
    expect(r.data.filters).toEqual({ types: ['bug'] });
    const stale = await h.call('PATCH', `${url(p.id)}/${v.id}`, EDITOR, { data: { version: 1, sort: 'updated' } });
    expect(stale.status).toBe(409);
    expect(stale.body.payload.errors[0].value.filters).toEqual({ types: ['bug'] });
  });
});

describe('how a view matches tasks (src/domain/views.ts viewMatches)', () => {
  const today = '2025-06-16';
  const task = (t: Partial<MatchableTask> = {}): MatchableTask => ({
    type: 'task',
    status_id: 'todo',
    category: 'unstarted',
    assignee: null,
    goal_id: null,
    target_date: null,
    archived: false,
    ...t,
  });

  it('WS-238 due overdue matches open tasks past their target date; not closed tasks or tasks without a date', () => {
    const f: Filters = { due: 'overdue' };
    expect(viewMatches(task({ target_date: '2025-06-15' }), f, today)).toBe(true);
    expect(
      viewMatches(task({ target_date: '2025-06-01', category: 'started', status_id: 'in_progress' }), f, today),
    ).toBe(true);
    expect(viewMatches(task({ target_date: '2025-06-15', category: 'completed', status_id: 'done' }), f, today)).toBe(
      false,
    );
    expect(viewMatches(task({ target_date: '2025-06-15', category: 'canceled' }), f, today)).toBe(false);
    expect(viewMatches(task({ target_date: null }), f, today)).toBe(false);
    // Due today is not yet past its date; due later neither.
    expect(viewMatches(task({ target_date: today }), f, today)).toBe(false);
    expect(viewMatches(task({ target_date: '2025-07-01' }), f, today)).toBe(false);
  });

  it('WS-239 archived true shows only archived tasks', () => {
    const f: Filters = { archived: true };
    expect(viewMatches(task({ archived: true }), f, today)).toBe(true);
    expect(viewMatches(task({ archived: false }), f, today)).toBe(false);
  });

  it('WS-240 an absent archived filter shows only unarchived tasks', () => {
    expect(viewMatches(task({ archived: false }), {}, today)).toBe(true);
    expect(viewMatches(task({ archived: true }), {}, today)).toBe(false);
    expect(viewMatches(task({ archived: true, type: 'bug' }), { types: ['bug'] }, today)).toBe(false);
  });

  it('keys combine with AND, values of one key with OR; none matches unassigned tasks and tasks without a goal', () => {
    const me = fid(EDITOR);
    const g = randomUUID();
    const f: Filters = { types: ['bug', 'task'], assignees: [me, 'none'], goal_ids: ['none'] };
    expect(viewMatches(task({ type: 'bug', assignee: me }), f, today)).toBe(true);
    expect(viewMatches(task({ type: 'task' }), f, today)).toBe(true);
    expect(viewMatches(task({ type: 'feature' }), f, today)).toBe(false);
    expect(viewMatches(task({ assignee: fid(OWNER) }), f, today)).toBe(false);
    expect(viewMatches(task({ goal_id: g }), f, today)).toBe(false);
    expect(viewMatches(task({ goal_id: g }), { goal_ids: [g] }, today)).toBe(true);
    expect(viewMatches(task({ category: 'started' }), { categories: ['started'] }, today)).toBe(true);
    expect(viewMatches(task({ status_id: 'triage' }), { status_ids: ['todo'] }, today)).toBe(false);
  });

  it('WS-222 group_by is ignored by boards: a board groups by status whatever group_by holds; a list follows it', async () => {
    for (const group_by of ['status', 'goal', 'assignee', 'type', 'none'] as const) {
      expect(grouping({ layout: 'board', group_by })).toBe('status');
      expect(grouping({ layout: 'list', group_by })).toBe(group_by);
    }
    // The stored group_by of a board still reads as saved.
    const p = await h.team();
    const r = await h.call('POST', url(p.id), EDITOR, {
      data: { name: 'Board by goal', layout: 'board', group_by: 'goal' },
    });
    expect(r.status).toBe(201);
    expect(r.data.group_by).toBe('goal');
  });

  it('saveFilters and readFilters are pure: strict save throws 422, lenient read never throws', () => {
    const ctx = { workflow: 'general' as const, goalIds: new Set<string>() };
    expect(() => saveFilters({ types: ['bug'] }, ctx)).toThrow();
    expect(() => saveFilters([], ctx)).toThrow();
    expect(readFilters(null, ctx)).toEqual({});
    expect(readFilters('garbage', ctx)).toEqual({});
    expect(readFilters({ types: ['bug'] }, ctx)).toEqual({});
  });
});
