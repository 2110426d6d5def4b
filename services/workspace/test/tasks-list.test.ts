import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../src/schemas/tasks.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const list = (projectId: string, query = '', as = VIEWER) =>
  h.call('GET', `/v1/projects/${projectId}/items${query ? `?${query}` : ''}`, as);
const titles = (r: { data: Task[] }) => r.data.map((t) => t.title);

async function goalOn(projectId: string) {
  const id = randomUUID();
  await h.db
    .insertInto('goals')
    .values({
      id,
      project_id: projectId,
      title: 'Goal',
      lead: fid(OWNER),
      status: 'on_track',
      created_by: fid(OWNER),
      created_at: h.now(),
      updated_at: h.now(),
    })
    .execute();
  return id;
}

/** Archives a task in place (the archive route has its own tests). */
const archive = (taskId: string) =>
  sql`UPDATE tasks SET archived = true, archived_at = now() WHERE id = ${taskId}`.execute(h.db);

/**
 * A product_development project with one task of each shape the filters tell apart:
 * Bug (triage, assignee EDITOR, goal), Question (todo), Feature (in_progress, assignee OWNER),
 * Done task (done), Note (in_review, goal), Archived (archived chore). Top first: the reverse.
 */
async function fixture() {
  const p = await h.team();
  const goal = await goalOn(p.id);
  const t = {
    bug: await h.task(p.id, { title: 'Bug', type: 'bug', assignee: fid(EDITOR), goal_id: goal }),
    question: await h.task(p.id, { title: 'Question', type: 'question', status_id: 'todo' }),
    feature: await h.task(p.id, { title: 'Feature', type: 'feature', status_id: 'in_progress', assignee: fid(OWNER) }),
    done: await h.task(p.id, { title: 'Done task', type: 'task', status_id: 'done' }),
    note: await h.task(p.id, { title: 'Note', type: 'note', status_id: 'in_review', goal_id: goal }),
    archived: await h.task(p.id, { title: 'Archived', type: 'chore' }),
  };
  await archive(t.archived.id);
  return { p, goal, t };
}

let fx: Awaited<ReturnType<typeof fixture>>;
beforeAll(async () => {
  fx = await fixture();
});

describe('GET /v1/projects/{id}/items', () => {
  it('WS-012 WS-002 a viewer lists the tasks, with page pagination', async () => {
    const r = await list(fx.p.id, '', VIEWER);
    expect(r.status).toBe(200);
    expect(r.meta.pagination).toEqual({ mode: 'page', page: 1, pageSize: 100, totalItems: 5, totalPages: 1 });
  });

  it('WS-135 WS-145 top first (ascending rank), archived tasks absent by default', async () => {
    const r = await list(fx.p.id);
    expect(titles(r)).toEqual(['Note', 'Done task', 'Feature', 'Question', 'Bug']);
    const ranks = r.data.map((t: Task) => t.rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(titles(await list(fx.p.id, 'archived=false'))).toEqual(titles(r));
  });

  it('WS-029 a person who cannot see the project gets 404; a platform admin lists without a membership', async () => {
    expect((await list(fx.p.id, '', OUTSIDER)).status).toBe(404);
    expect((await list(fx.p.id, '', ADMIN)).status).toBe(200);
  });

  it('WS-137 WS-071 the state filter keeps tasks with that legacy state (by category)', async () => {
    expect(titles(await list(fx.p.id, 'state=resolved'))).toEqual(['Done task']);
    expect(titles(await list(fx.p.id, 'state=open'))).toEqual(['Note', 'Feature', 'Question', 'Bug']);
  });

  it('WS-138 the kind filter keeps tasks of that legacy kind', async () => {
    expect(titles(await list(fx.p.id, 'kind=task'))).toEqual(['Done task', 'Feature', 'Bug']);
    expect(titles(await list(fx.p.id, 'kind=question'))).toEqual(['Question']);
    expect(titles(await list(fx.p.id, 'kind=note'))).toEqual(['Note']);
  });

  it('WS-139 the type filter keeps tasks of that type', async () => {
    expect(titles(await list(fx.p.id, 'type=bug'))).toEqual(['Bug']);
    expect(titles(await list(fx.p.id, 'type=chore'))).toEqual([]);
    expect(titles(await list(fx.p.id, 'type=chore&archived=true'))).toEqual(['Archived']);
  });

  it('WS-140 the category filter keeps tasks whose status has that category', async () => {
    expect(titles(await list(fx.p.id, 'category=backlog'))).toEqual(['Bug']);
    expect(titles(await list(fx.p.id, 'category=review'))).toEqual(['Note']);
    expect(titles(await list(fx.p.id, 'category=canceled'))).toEqual([]);
  });

  it('WS-141 the status_id filter keeps tasks in that status', async () => {
    expect(titles(await list(fx.p.id, 'status_id=in_progress'))).toEqual(['Feature']);
    expect(titles(await list(fx.p.id, 'status_id=todo'))).toEqual(['Question']);
  });

  it('WS-142 the assignee filter keeps tasks owned by that principal; none keeps tasks without an owner', async () => {
    expect(titles(await list(fx.p.id, `assignee=${fid(EDITOR)}`))).toEqual(['Bug']);
    expect(titles(await list(fx.p.id, `assignee=${fid(OWNER)}`))).toEqual(['Feature']);
    expect(titles(await list(fx.p.id, 'assignee=none'))).toEqual(['Note', 'Done task', 'Question']);
  });

  it('WS-143 goal_id=<id> keeps tasks linked to that goal', async () => {
    expect(titles(await list(fx.p.id, `goal_id=${fx.goal}`))).toEqual(['Note', 'Bug']);
    expect(titles(await list(fx.p.id, `goal_id=${randomUUID()}`))).toEqual([]);
  });

  it('WS-144 goal_id=none keeps tasks with no goal', async () => {
    expect(titles(await list(fx.p.id, 'goal_id=none'))).toEqual(['Done task', 'Feature', 'Question']);
  });

  it('WS-146 archived=true lists only archived tasks', async () => {
    const r = await list(fx.p.id, 'archived=true');
    expect(titles(r)).toEqual(['Archived']);
    expect(r.data[0].archived).toBe(true);
  });

  it('WS-147 archived=all lists archived and unarchived tasks', async () => {
    expect(titles(await list(fx.p.id, 'archived=all'))).toEqual([
      'Archived',
      'Note',
      'Done task',
      'Feature',
      'Question',
      'Bug',
    ]);
  });

  it('WS-137 WS-142 WS-143 filters combine', async () => {
    expect(titles(await list(fx.p.id, `goal_id=${fx.goal}&state=open&assignee=none`))).toEqual(['Note']);
    expect(titles(await list(fx.p.id, 'kind=task&state=open&archived=all'))).toEqual(['Archived', 'Feature', 'Bug']);
  });

  it('WS-135 an unknown query key or an unusable filter, sort or page value is 422', async () => {
    for (const q of [
      'stat=open',
      'state=closed',
      'kind=epic',
      'type=epic',
      'category=done',
      'archived=yes',
      'goal_id=abc',
      'due=soon',
      'sort=rank',
      'sort_desc=maybe',
      'pagination[pageSize]=501',
      'pagination[pageSize]=0',
    ]) {
      const r = await list(fx.p.id, q);
      expect(r.status, q).toBe(422);
    }
  });
});

describe('sorts and due', () => {
  let p: { id: string };
  beforeAll(async () => {
    p = await h.team();
    // Created in order A, B, C (so C is on top) at 09:00, 11:00, 10:00: in status longest A, C, B.
    h.setNow('2025-06-10T09:00:00Z');
    await h.task(p.id, { title: 'A', target_date: '2025-06-20' });
    h.setNow('2025-06-10T11:00:00Z');
    await h.task(p.id, { title: 'B' });
    h.setNow('2025-06-10T10:00:00Z');
    await h.task(p.id, { title: 'C', target_date: '2025-06-12' });
    // Updated most recently: A.
    await sql`UPDATE tasks SET updated_at = '2025-06-11T00:00:00Z' WHERE project_id = ${p.id} AND title = 'A'`.execute(
      h.db,
    );
  });

  it('WS-148 sort=time_in_status lists the longest in their status first; sort_desc reverses', async () => {
    expect(titles(await list(p.id, 'sort=time_in_status'))).toEqual(['A', 'C', 'B']);
    expect(titles(await list(p.id, 'sort=time_in_status&sort_desc=true'))).toEqual(['B', 'C', 'A']);
  });

  it('WS-135 sort=position is the default; sort_desc lists bottom first', async () => {
    expect(titles(await list(p.id, 'sort=position'))).toEqual(['C', 'B', 'A']);
    expect(titles(await list(p.id, 'sort_desc=true'))).toEqual(['A', 'B', 'C']);
  });

  it('WS-135 sort=target_date lists the earliest first and tasks without one last, either way', async () => {
    expect(titles(await list(p.id, 'sort=target_date'))).toEqual(['C', 'A', 'B']);
    expect(titles(await list(p.id, 'sort=target_date&sort_desc=true'))).toEqual(['A', 'C', 'B']);
  });

  it('WS-135 sort=created and sort=updated list the oldest first', async () => {
    expect(titles(await list(p.id, 'sort=created'))).toEqual(['A', 'C', 'B']);
    expect(titles(await list(p.id, 'sort=updated'))).toEqual(['C', 'B', 'A']);
    expect(titles(await list(p.id, 'sort=updated&sort_desc=true'))).toEqual(['A', 'B', 'C']);
  });

  it('WS-238 WS-071 due=overdue keeps open tasks whose target date is before today in the New York calendar', async () => {
    const q = await h.team();
    await h.task(q.id, { title: 'Yesterday', target_date: '2025-06-15' });
    await h.task(q.id, { title: 'Today', target_date: '2025-06-16' });
    await h.task(q.id, { title: 'Closed late', target_date: '2025-06-01', status_id: 'done' });
    await h.task(q.id, { title: 'Undated' });
    const late = await h.task(q.id, { title: 'Archived late', target_date: '2025-06-01' });
    await archive(late.id);
    // 02:00 UTC on the 17th is still the 16th (22:00) in New York: "Today" is not overdue yet.
    h.setNow('2025-06-17T02:00:00Z');
    expect(titles(await list(q.id, 'due=overdue'))).toEqual(['Yesterday']);
    expect(titles(await list(q.id, 'due=overdue&archived=all'))).toEqual(['Archived late', 'Yesterday']);
    // 05:00 UTC on the 17th is the 17th (01:00) in New York.
    h.setNow('2025-06-17T05:00:00Z');
    expect(titles(await list(q.id, 'due=overdue'))).toEqual(['Today', 'Yesterday']);
  });
});

describe('pages', () => {
  it('WS-002 pages of 100 by default and up to 500; totalItems counts every match', async () => {
    const p = await h.team();
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: randomUUID(),
      project_id: p.id,
      type: 'task',
      title: `Bulk ${String(i).padStart(3, '0')}`,
      status_id: 'triage',
      category: 'backlog',
      status_changed_at: h.now(),
      rank: i * 1024,
      created_by: fid(OWNER),
      created_at: h.now(),
      updated_at: h.now(),
      change_seq: 1,
    }));
    await h.db.insertInto('tasks').values(rows).execute();
    const first = await list(p.id);
    expect(first.data).toHaveLength(100);
    expect(first.meta.pagination).toMatchObject({ page: 1, pageSize: 100, totalItems: 120, totalPages: 2 });
    const second = await list(p.id, 'pagination[page]=2');
    expect(titles(second)).toEqual(rows.slice(100).map((r) => r.title));
    const all = await list(p.id, 'pagination[pageSize]=500');
    expect(all.data).toHaveLength(120);
    expect(titles(all)).toEqual(rows.map((r) => r.title));
  });
});

describe('GET /v1/projects/{id}/items/{itemId}', () => {
  it('WS-136 reads one task, archived ones included', async () => {
    const r = await h.call('GET', `/v1/projects/${fx.p.id}/items/${fx.t.feature.id}`, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual(fx.t.feature);
    const a = await h.call('GET', `/v1/projects/${fx.p.id}/items/${fx.t.archived.id}`, VIEWER);
    expect(a.data.archived).toBe(true);
  });

  it('WS-136 a task of another project, or no task, is 404 item_not_found; a non-member gets 404 too', async () => {
    const other = await h.team();
    const r = await h.call('GET', `/v1/projects/${other.id}/items/${fx.t.feature.id}`, OWNER);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('item_not_found');
    expect((await h.call('GET', `/v1/projects/${fx.p.id}/items/${randomUUID()}`, OWNER)).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${fx.p.id}/items/${fx.t.feature.id}`, OUTSIDER)).status).toBe(404);
  });
});
