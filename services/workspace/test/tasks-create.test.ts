import { randomUUID } from 'node:crypto';
import { type Insertable, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tasks } from '../src/store/db.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const post = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('POST', `/v1/projects/${projectId}/items`, as, { data });

/** A goal row on the project (the goals routes have their own tests). */
async function goalOn(projectId: string) {
  const id = randomUUID();
  await h.db
    .insertInto('goals')
    .values({
      id,
      project_id: projectId,
      title: 'Ship it',
      lead: fid(OWNER),
      status: 'on_track',
      created_by: fid(OWNER),
      created_at: h.now(),
      updated_at: h.now(),
    })
    .execute();
  return id;
}

describe('who may add tasks', () => {
  it('WS-014 WS-081 an editor adds a task with type, title, body, assignee, origin and status_id (201)', async () => {
    const p = await h.team();
    const r = await post(p.id, {
      type: 'feature',
      title: 'Export to CSV',
      body: 'Finance asked for it',
      assignee: fid(OWNER),
      origin: 'agent',
      status_id: 'backlog',
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      type: 'feature',
      title: 'Export to CSV',
      body: 'Finance asked for it',
      assignee: fid(OWNER),
      origin: 'agent',
      status_id: 'backlog',
      status: { id: 'backlog', name: 'Backlog', category: 'backlog' },
      version: 1,
      created_by: fid(EDITOR),
      archived: false,
    });
    const read = await h.call('GET', `/v1/projects/${p.id}/items/${r.data.id}`, VIEWER);
    expect(read.status).toBe(200);
    expect(read.data).toEqual(r.data);
  });

  it('WS-013 a viewer may not add a task: 403, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const r = await post(p.id, { title: 'Not mine to add' }, VIEWER);
    expect(r.status).toBe(403);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-029 a person who cannot see the project gets 404, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const r = await post(p.id, { title: 'Hello' }, OUTSIDER);
    expect(r.status).toBe(404);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-003 without an Idempotency-Key the create is refused (400 idempotency_key_required), nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const r = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, { data: { title: 'No key' } }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.counts()).toEqual(before);
  });

  it('WS-004 a repeated Idempotency-Key adds the task once', async () => {
    const p = await h.team();
    const key = randomUUID();
    const a = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, { data: { title: 'Once' } }, key);
    const b = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, { data: { title: 'Once' } }, key);
    expect(a.status).toBe(201);
    expect(b.data.id).toBe(a.data.id);
    const list = await h.call('GET', `/v1/projects/${p.id}/items`, EDITOR);
    expect(list.data.map((t: { title: string }) => t.title).filter((t: string) => t === 'Once')).toHaveLength(1);
  });

  it('WS-004 a body {data, why} is accepted; an unknown property in data is 422 naming it, nothing written', async () => {
    const p = await h.team();
    const ok = await h.call('POST', `/v1/projects/${p.id}/items`, EDITOR, {
      data: { title: 'With why' },
      why: { code: 'triage', detail: 'from the weekly review' },
    });
    expect(ok.status).toBe(201);
    const before = await h.counts();
    const bad = await post(p.id, { title: 'Typo', titel: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.errors[0].field).toContain('titel');
    expect(await h.counts()).toEqual(before);
  });
});

describe('assignee, goal and fields', () => {
  it('WS-025 a non-member assignee is refused: 422 assignee_not_member, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const r = await post(p.id, { title: 'Who owns it', assignee: fid(OUTSIDER) });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'assignee_not_member', field: 'data/assignee' });
    expect(await h.counts()).toEqual(before);
  });

  it('WS-025 any member may own a task, a viewer included; an empty or null assignee means none', async () => {
    const p = await h.team();
    expect((await post(p.id, { title: 'Viewer owns', assignee: fid(VIEWER) })).data.assignee).toBe(fid(VIEWER));
    expect((await post(p.id, { title: 'Empty', assignee: '' })).data.assignee).toBeNull();
    expect((await post(p.id, { title: 'Null', assignee: null })).data.assignee).toBeNull();
  });

  it('WS-069 a question added without an answer gives 201; with one it is stored under fields.answer', async () => {
    const p = await h.team();
    const bare = await post(p.id, { type: 'question', title: 'Who are the users?' });
    expect(bare.status).toBe(201);
    expect(bare.data.fields).toEqual({});
    const answered = await post(p.id, { type: 'question', title: 'Which region?', fields: { answer: 'EU first' } });
    expect(answered.data.fields).toEqual({ answer: 'EU first' });
  });

  it('WS-067 a field the type does not have is refused: 422 field_not_allowed naming it, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const r = await post(p.id, { type: 'task', title: 'No answers here', fields: { answer: 'x' } });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'field_not_allowed', field: 'data/fields/answer' });
    const q = await post(p.id, { type: 'question', title: 'Q', fields: { severity: 'high' } });
    expect(q.errors[0].code).toBe('field_not_allowed');
    expect(await h.counts()).toEqual(before);
  });

  it('WS-097 goal_id links a goal on the project; a goal on another project or no goal is 422 goal_not_found; empty means none', async () => {
    const p = await h.team();
    const other = await h.team();
    const goal = await goalOn(p.id);
    const elsewhere = await goalOn(other.id);
    const linked = await post(p.id, { title: 'Towards the goal', goal_id: goal });
    expect(linked.data.goal_id).toBe(goal);
    const before = await h.counts();
    for (const goal_id of [elsewhere, randomUUID()]) {
      const r = await post(p.id, { title: 'Wrong goal', goal_id });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'goal_not_found', field: 'data/goal_id' });
    }
    expect(await h.counts()).toEqual(before);
    expect((await post(p.id, { title: 'No goal', goal_id: '' })).data.goal_id).toBeNull();
  });

  it('WS-096 WS-081 target_date and links are stored; an empty target_date means none', async () => {
    const p = await h.team();
    const r = await post(p.id, {
      title: 'Dated',
      target_date: '2025-07-01',
      links: [{ url: 'https://example.com/spec', title: 'Spec' }],
    });
    expect(r.data.target_date).toBe('2025-07-01');
    expect(r.data.links).toEqual([{ url: 'https://example.com/spec', title: 'Spec' }]);
    expect((await post(p.id, { title: 'Undated', target_date: '' })).data.target_date).toBeNull();
  });
});

describe('type and kind', () => {
  it('WS-078 a type the project does not offer is refused: 422 type_not_offered, nothing written', async () => {
    const p = await h.project({ workflow: 'general' });
    const before = await h.counts();
    for (const type of ['bug', 'feature', 'chore']) {
      const r = await post(p.id, { type, title: 'Not here' }, OWNER);
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'type_not_offered', field: 'data/type' });
    }
    expect((await post(p.id, { type: 'epic', title: 'Not a type' }, OWNER)).status).toBe(422);
    expect(await h.counts()).toEqual(before);
  });

  it("WS-082 legacy kind maps to the project's first offered type of that kind", async () => {
    const p = await h.project();
    expect((await post(p.id, { kind: 'question', title: 'Q' }, OWNER)).data.type).toBe('question');
    expect((await post(p.id, { kind: 'note', title: 'N' }, OWNER)).data.type).toBe('note');
    const t = await post(p.id, { kind: 'task', title: 'T' }, OWNER);
    expect(t.data).toMatchObject({ type: 'task', kind: 'task' });
  });

  it('WS-082 type and kind sent together must agree: agreeing gives the type, disagreeing is 422 kind_mismatch', async () => {
    const p = await h.project();
    expect((await post(p.id, { type: 'bug', kind: 'task', title: 'B' }, OWNER)).data.type).toBe('bug');
    const before = await h.counts();
    const r = await post(p.id, { type: 'bug', kind: 'question', title: 'B' }, OWNER);
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'kind_mismatch', field: 'data/kind' });
    expect(await h.counts()).toEqual(before);
  });

  it('WS-081 WS-082 neither type nor kind gives the first offered type (task)', async () => {
    const p = await h.project({ workflow: 'general' });
    expect((await post(p.id, { title: 'Plain' }, OWNER)).data.type).toBe('task');
  });

  it('WS-079 changing a task to a type the project does not offer is refused: 422, version unchanged', async () => {
    const p = await h.project({ workflow: 'general' });
    const t = await post(p.id, { type: 'task', title: 'Plain task' }, OWNER);
    const r = await h.call('PATCH', `/v1/projects/${p.id}/items/${t.data.id}`, OWNER, {
      data: { version: 1, type: 'bug' },
    });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('type_not_offered');
    const read = await h.call('GET', `/v1/projects/${p.id}/items/${t.data.id}`, OWNER);
    expect(read.data).toMatchObject({ type: 'task', version: 1 });
  });

  it('WS-080 a task keeps its type when its workflow later stops offering it', async () => {
    const p = await h.project({ workflow: 'product_development' });
    const bug = await post(p.id, { type: 'bug', title: 'Crash on save' }, OWNER);
    // Stand in for a workflow that no longer offers bugs (workflows never change through the API).
    await sql`UPDATE projects SET workflow = 'general' WHERE id = ${p.id}`.execute(h.db);
    const read = await h.call('GET', `/v1/projects/${p.id}/items/${bug.data.id}`, OWNER);
    expect(read.status).toBe(200);
    expect(read.data.type).toBe('bug');
    const list = await h.call('GET', `/v1/projects/${p.id}/items?type=bug`, OWNER);
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([bug.data.id]);
    expect((await post(p.id, { type: 'bug', title: 'Another' }, OWNER)).errors[0].code).toBe('type_not_offered');
  });
});

describe('title', () => {
  it('WS-083 the title is trimmed', async () => {
    const p = await h.team();
    expect((await post(p.id, { title: '  \t Fix the login page \n ' })).data.title).toBe('Fix the login page');
  });

  it('WS-084 an empty, blank or 201-character title is 422 naming the limit; 200 characters are accepted', async () => {
    const p = await h.team();
    const before = await h.counts();
    for (const title of ['', '   ', 'x'.repeat(201), ` ${'y'.repeat(201)} `]) {
      const r = await post(p.id, { title });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('invalid_title');
      expect(r.errors[0].field).toBe('data/title');
      expect(r.errors[0].message).toContain('1 to 200 characters');
    }
    expect((await post(p.id, {})).status).toBe(422);
    expect(await h.counts()).toEqual(before);
    const ok = await post(p.id, { title: `  ${'z'.repeat(200)}  ` });
    expect(ok.status).toBe(201);
    expect(ok.data.title).toHaveLength(200);
  });
});

describe('position, status and origin', () => {
  it('WS-085 a new task goes to the top: first in GET items, 1024 above the previous top (0 in an empty project)', async () => {
    const p = await h.team();
    const a = await post(p.id, { title: 'A' });
    const b = await post(p.id, { title: 'B' });
    const c = await post(p.id, { title: 'C' });
    expect([a.data.rank, b.data.rank, c.data.rank]).toEqual([0, -1024, -2048]);
    const list = await h.call('GET', `/v1/projects/${p.id}/items`, VIEWER);
    expect(list.data.map((t: { title: string }) => t.title)).toEqual(['C', 'B', 'A']);
  });

  it('WS-086 without status_id a task in a product_development project reads Triage', async () => {
    const p = await h.team({ workflow: 'product_development' });
    expect((await post(p.id, { title: 'New' })).data.status).toEqual({
      id: 'triage',
      name: 'Triage',
      category: 'backlog',
    });
  });

  it('WS-087 without status_id a task in a general project (no backlog status) reads Todo', async () => {
    const p = await h.team({ workflow: 'general' });
    expect((await post(p.id, { title: 'New' })).data.status).toEqual({
      id: 'todo',
      name: 'Todo',
      category: 'unstarted',
    });
  });

  it('WS-088 WS-071 status_id may name any other offered status, Done included; Done reads resolved', async () => {
    const p = await h.team({ workflow: 'general' });
    for (const id of ['in_progress', 'waiting']) {
      expect((await post(p.id, { title: id, status_id: id })).data.status_id).toBe(id);
    }
    const done = await post(p.id, { title: 'Already done', status_id: 'done' });
    expect(done.status).toBe(201);
    expect(done.data).toMatchObject({
      status: { id: 'done', name: 'Done', category: 'completed' },
      state: 'resolved',
      resolved_at: h.now().toISOString(),
      resolved_by: fid(EDITOR),
    });
    const open = await post(p.id, { title: 'Open', status_id: 'waiting' });
    expect(open.data).toMatchObject({ state: 'open', resolved_at: null, resolved_by: null });
  });

  it('WS-077 a status the project does not offer is refused: 422 status_not_offered, nothing written', async () => {
    const p = await h.team({ workflow: 'product_development' });
    const before = await h.counts();
    for (const status_id of ['waiting', 'canceled', 'nope']) {
      const r = await post(p.id, { title: 'Odd status', status_id });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'status_not_offered', field: 'data/status_id' });
    }
    expect(await h.counts()).toEqual(before);
  });

  it('WS-098 a bug added in a closed status without a resolution is 422 resolution_required; with one it is added', async () => {
    const p = await h.team();
    const before = await h.counts();
    for (const resolution of [undefined, null, '', '   ']) {
      const r = await post(p.id, { type: 'bug', title: 'Fixed already', status_id: 'done', resolution });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'resolution_required', field: 'data/resolution' });
    }
    expect(await h.counts()).toEqual(before);
    const ok = await post(p.id, { type: 'bug', title: 'Fixed already', status_id: 'done', resolution: 'Fixed in 2.1' });
    expect(ok.status).toBe(201);
    expect(ok.data.resolution).toBe('Fixed in 2.1');
    // An open bug needs none, and a task closes without one.
    expect((await post(p.id, { type: 'bug', title: 'Open bug' })).status).toBe(201);
    expect((await post(p.id, { type: 'task', title: 'Done task', status_id: 'done' })).status).toBe(201);
  });

  it('WS-089 origin defaults to human', async () => {
    const p = await h.team();
    expect((await post(p.id, { title: 'By hand' })).data).toMatchObject({ origin: 'human', source: 'human' });
  });

  it('WS-090 WS-101 origin agent or template is stored; agent reads legacy source summarizer', async () => {
    const p = await h.team();
    expect((await post(p.id, { title: 'From agent', origin: 'agent' })).data).toMatchObject({
      origin: 'agent',
      source: 'summarizer',
    });
    expect((await post(p.id, { title: 'From template', origin: 'template' })).data).toMatchObject({
      origin: 'template',
      source: 'template',
    });
    expect((await post(p.id, { title: 'Bad', origin: 'robot' })).status).toBe(422);
  });

  it("WS-091 a template's starter tasks have origin template", async () => {
    const templates = await h.db.selectFrom('project_templates').select('id').where('builtin', '=', true).execute();
    for (const t of templates) {
      const p = await h.project({ template_id: t.id });
      const list = await h.call('GET', `/v1/projects/${p.id}/items`, OWNER);
      expect(list.data.length).toBeGreaterThan(0);
      for (const task of list.data) expect(task).toMatchObject({ origin: 'template', source: 'template' });
    }
  });

  it('WS-092 status_changed_at is the creation time', async () => {
    const p = await h.team();
    h.setNow('2025-06-17T09:30:00Z');
    const r = await post(p.id, { title: 'Timed' });
    expect(r.data.status_changed_at).toBe('2025-06-17T09:30:00.000Z');
    expect(r.data.created_at).toBe(r.data.status_changed_at);
    expect(r.data.updated_at).toBe(r.data.status_changed_at);
  });

  it('WS-076 WS-100 reads show status {id, name, category} and the legacy kind, state and source', async () => {
    const p = await h.team();
    const r = await post(p.id, { type: 'chore', title: 'Upgrade deps', status_id: 'in_review' });
    const read = await h.call('GET', `/v1/projects/${p.id}/items/${r.data.id}`, VIEWER);
    expect(read.data.status).toEqual({ id: 'in_review', name: 'In review', category: 'review' });
    expect(read.data).toMatchObject({ kind: 'task', state: 'open', source: 'human' });
    const note = await post(p.id, { type: 'note', title: 'Remember', status_id: 'done' });
    expect(note.data).toMatchObject({ kind: 'note', state: 'resolved', source: 'human' });
  });

  it('WS-173 a create takes exactly one change number and the task carries it; refused creates take none', async () => {
    const p = await h.team();
    const before = await h.seq(p.id);
    const r = await post(p.id, { title: 'Numbered' });
    expect(await h.seq(p.id)).toBe(before + 1);
    const row = await h.db
      .selectFrom('tasks')
      .select('change_seq')
      .where('id', '=', r.data.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.change_seq)).toBe(before + 1);
    await post(p.id, { title: '' });
    await post(p.id, { title: 'x', status_id: 'nope' });
    expect(await h.seq(p.id)).toBe(before + 1);
  });

  it('WS-094 a create writes version 1 and its version row, and no change-log row', async () => {
    const p = await h.team();
    const r = await post(p.id, { title: 'Versioned', body: 'v1 body' });
    const versions = await h.db.selectFrom('task_versions').selectAll().where('task_id', '=', r.data.id).execute();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ version: 1, title: 'Versioned', body: 'v1 body', author: fid(EDITOR) });
    const changes = await h.db.selectFrom('task_changes').select('id').where('task_id', '=', r.data.id).execute();
    expect(changes).toHaveLength(0);
  });
});

describe('archived project and the database', () => {
  it('WS-593 adding a task to an archived project is 409 project_archived, nothing written', async () => {
    const p = await h.team();
    await sql`UPDATE projects SET status = 'archived' WHERE id = ${p.id}`.execute(h.db);
    const before = await h.counts();
    const seq = await h.seq(p.id);
    const r = await post(p.id, { title: 'Too late' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('project_archived');
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
  });

  it('WS-602 the database refuses a task row without type, status_id or rank', async () => {
    const p = await h.team();
    const row = {
      project_id: p.id,
      type: 'task',
      title: 'Direct',
      status_id: 'todo',
      category: 'unstarted',
      status_changed_at: h.now(),
      rank: 0,
      created_by: fid(OWNER),
      created_at: h.now(),
      updated_at: h.now(),
      change_seq: 0,
    };
    // The full row is accepted, so each refusal below is the missing column's.
    await h.db
      .insertInto('tasks')
      .values({ ...row, id: randomUUID() })
      .execute();
    for (const missing of ['type', 'status_id', 'rank'] as const) {
      const { [missing]: _, ...without } = row;
      await expect(
        h.db
          .insertInto('tasks')
          // Deliberately without a NOT NULL column: the database, not the type, must refuse it.
          .values({ ...without, id: randomUUID() } as Insertable<Tasks>)
          .execute(),
      ).rejects.toThrow(/null value|not-null|violates/i);
      await expect(
        h.db
          .insertInto('tasks')
          .values({ ...row, [missing]: null, id: randomUUID() })
          .execute(),
      ).rejects.toThrow();
    }
  });
});
