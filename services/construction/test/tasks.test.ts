import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasksOfProject } from '../src/store/tasks.ts';
import {
  addRevision,
  getTask,
  newTask,
  packageProgress,
  projectProgress,
  publishRevision,
  registerDocument,
  setProjectStatus,
  taskPackage,
  taskProject,
} from './fixtures/tasks.ts';
import { EDITOR, fid, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown, as = EDITOR) =>
  h.call(method, url, as, data === undefined ? undefined : { data });
const progress = (id: string, data: Record<string, unknown>) => send('POST', `/v1/tasks/${id}/progress`, data);
const depend = (id: string, on: string) => send('POST', `/v1/tasks/${id}/dependencies`, { depends_on_task_id: on });
const list = async (query: string) => {
  const r = await h.call('GET', `/v1/tasks?${query}`, READER);
  expect(r.status).toBe(200);
  return r.data as { id: string; owner_fid: string | null; status: string; vendor_id: string | null; title: string }[];
};
const code = (r: { errors?: { code: string }[] }) => r.errors?.[0]?.code;

describe('tasks: creation and links', () => {
  it('17 CON-078 CON-079 POST /v1/tasks creates a task with a primary link to its project (type primary) and a link to each other project', async () => {
    const [own, other1, other2] = [await taskProject(h), await taskProject(h), await taskProject(h)];
    const r = await send('POST', '/v1/tasks', {
      project_id: own,
      title: 'Pour slab',
      links: [{ project_id: other1 }, { project_id: other2, relationship_type: 'shared', share: 30 }],
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ project_id: own, title: 'Pour slab', status: 'not_started', percent_complete: 0 });
    const got = await getTask(h, r.data.id);
    const byProject = Object.fromEntries(got.links.map((l) => [l.project_id, [l.relationship_type, l.share]]));
    expect(byProject).toEqual({ [own]: ['primary', null], [other1]: ['affects', null], [other2]: ['shared', 30] });
    expect(got.links[0]).toMatchObject({ project_id: own, relationship_type: 'primary' });
    const ev = (await h.events('task.created')).at(-1)?.payload.data;
    expect(ev).toMatchObject({ task_id: r.data.id, project_id: own, actor_fid: fid(EDITOR) });
    expect([...((ev?.linked_project_ids ?? []) as string[])].sort()).toEqual([other1, other2].sort());
    // The project plan reads the task through each project it is linked to.
    expect((await tasksOfProject(h.db, own)).map((t) => [t.id, t.relationship_type])).toEqual([[r.data.id, 'primary']]);
    expect((await tasksOfProject(h.db, other2)).map((t) => [t.id, t.relationship_type])).toEqual([
      [r.data.id, 'shared'],
    ]);
  });

  it('17 CON-080 a link added without relationship_type has affects (at creation and through POST links)', async () => {
    const [own, a, b] = [await taskProject(h), await taskProject(h), await taskProject(h)];
    const t = await newTask(h, own, { links: [{ project_id: a }] });
    expect(t.links.find((l) => l.project_id === a)?.relationship_type).toBe('affects');
    const r = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: b });
    expect(r.status).toBe(201);
    const got = await getTask(h, t.id);
    expect(got.links.find((l) => l.project_id === b)).toMatchObject({ relationship_type: 'affects', share: null });
  });

  it('17 CON-081 relationship_type shared and deliverable_for are accepted and stored; an unknown one is 422 with nothing written', async () => {
    const [own, a, b, c] = [await taskProject(h), await taskProject(h), await taskProject(h), await taskProject(h)];
    const t = await newTask(h, own, { links: [{ project_id: a, relationship_type: 'deliverable_for' }] });
    expect((await send('POST', `/v1/tasks/${t.id}/links`, { project_id: b, relationship_type: 'shared' })).status).toBe(
      201,
    );
    const got = await getTask(h, t.id);
    expect(Object.fromEntries(got.links.map((l) => [l.project_id, l.relationship_type]))).toEqual({
      [own]: 'primary',
      [a]: 'deliverable_for',
      [b]: 'shared',
    });
    const before = await h.state();
    const bad = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: c, relationship_type: 'blocks' });
    expect([bad.status, code(bad)]).toEqual([422, 'validation_failed']);
    const badCreate = await send('POST', '/v1/tasks', {
      project_id: own,
      title: 'x',
      links: [{ project_id: c, relationship_type: 'related_to' }],
    });
    expect([badCreate.status, code(badCreate)]).toEqual([422, 'validation_failed']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-092 POST links counts the task toward another project with its share; linking again takes the new type and share', async () => {
    const [own, other] = [await taskProject(h), await taskProject(h)];
    const t = await newTask(h, own);
    const r = await send('POST', `/v1/tasks/${t.id}/links`, {
      project_id: other,
      relationship_type: 'shared',
      share: 40,
    });
    expect(r.status).toBe(201);
    expect(r.data.links).toContainEqual(
      expect.objectContaining({ project_id: other, relationship_type: 'shared', share: 40 }),
    );
    expect((await getTask(h, t.id)).links.find((l) => l.project_id === other)?.share).toBe(40);
    const again = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: other, share: 25 });
    expect(again.status).toBe(201);
    const got = await getTask(h, t.id);
    expect(got.links.filter((l) => l.project_id === other)).toEqual([
      expect.objectContaining({ relationship_type: 'affects', share: 25 }),
    ]);
    expect((await h.events('task.linked')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      linked_project_id: other,
      share: 25,
    });
    const over = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: other, share: 101 });
    expect([over.status, code(over)]).toEqual([422, 'validation_failed']);
    const unknown = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: randomUUID() });
    expect([unknown.status, code(unknown)]).toEqual([404, 'project_not_found']);
  });

  it('17 CON-093 DELETE links/{projectId} stops the task counting toward that project; a link that does not exist is 404 link_not_found', async () => {
    const [own, other] = [await taskProject(h), await taskProject(h)];
    const t = await newTask(h, own, { links: [{ project_id: other, share: 50 }] });
    const r = await send('DELETE', `/v1/tasks/${t.id}/links/${other}`);
    expect(r.status).toBe(200);
    const got = await getTask(h, t.id);
    expect(got.links.map((l) => l.project_id)).toEqual([own]);
    expect(await tasksOfProject(h.db, other)).toEqual([]);
    expect((await h.events('task.unlinked')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      linked_project_id: other,
    });
    const before = await h.state();
    const again = await send('DELETE', `/v1/tasks/${t.id}/links/${other}`);
    expect([again.status, code(again)]).toEqual([404, 'link_not_found']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-094 the primary link cannot be removed: 409 primary_link and the link remains', async () => {
    const own = await taskProject(h);
    const t = await newTask(h, own);
    const before = await h.state();
    const r = await send('DELETE', `/v1/tasks/${t.id}/links/${own}`);
    expect([r.status, code(r)]).toEqual([409, 'primary_link']);
    expect((await getTask(h, t.id)).links).toEqual([
      expect.objectContaining({ project_id: own, relationship_type: 'primary' }),
    ]);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-095 a second primary link is 409 primary_link and nothing is written (POST links, and links at creation)', async () => {
    const [own, other] = [await taskProject(h), await taskProject(h)];
    const t = await newTask(h, own);
    const before = await h.state();
    const viaPost = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: other, relationship_type: 'primary' });
    expect([viaPost.status, code(viaPost)]).toEqual([409, 'primary_link']);
    const ownAgain = await send('POST', `/v1/tasks/${t.id}/links`, { project_id: own, relationship_type: 'affects' });
    expect([ownAgain.status, code(ownAgain)]).toEqual([409, 'primary_link']);
    const atCreate = await send('POST', '/v1/tasks', {
      project_id: own,
      title: 'Two primaries',
      links: [{ project_id: other, relationship_type: 'primary' }],
    });
    expect([atCreate.status, code(atCreate)]).toEqual([409, 'primary_link']);
    const ownAtCreate = await send('POST', '/v1/tasks', { project_id: own, title: 'x', links: [{ project_id: own }] });
    expect([ownAtCreate.status, code(ownAtCreate)]).toEqual([409, 'primary_link']);
    expect(await h.state()).toEqual(before);
    expect((await getTask(h, t.id)).links.filter((l) => l.relationship_type === 'primary')).toHaveLength(1);
  });

  it('17 CON-078 the package is one of the primary project: another project package is 422 package_of_another_project, an unknown one 404, nothing written', async () => {
    const [own, other] = [await taskProject(h), await taskProject(h)];
    const foreign = await taskPackage(h, other);
    const before = await h.state();
    const r = await send('POST', '/v1/tasks', { project_id: own, title: 'x', package_id: foreign });
    expect([r.status, code(r)]).toEqual([422, 'package_of_another_project']);
    const u = await send('POST', '/v1/tasks', { project_id: own, title: 'x', package_id: randomUUID() });
    expect([u.status, code(u)]).toEqual([404, 'package_not_found']);
    const np = await send('POST', '/v1/tasks', { project_id: randomUUID(), title: 'x' });
    expect([np.status, code(np)]).toEqual([404, 'project_not_found']);
    const order = await send('POST', '/v1/tasks', {
      project_id: own,
      title: 'x',
      planned_start: '2026-05-02',
      planned_finish: '2026-05-01',
    });
    expect([order.status, code(order)]).toEqual([422, 'validation_failed']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-078 concurrent retries of one create with one Idempotency-Key make one task', async () => {
    const own = await taskProject(h);
    const key = randomUUID();
    const body = { data: { project_id: own, title: `Once ${tag()}` } };
    const replies = await Promise.all([1, 2, 3].map(() => h.call('POST', '/v1/tasks', EDITOR, body, key)));
    const created = replies.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.data.id)).size).toBe(1);
    for (const r of replies) expect([201, 409]).toContain(r.status);
    expect((await list(`project_id=${own}`)).map((t) => t.id)).toEqual([created[0]?.data.id]);
  });
});

describe('tasks: list filters', () => {
  it('17 CON-082 GET /v1/tasks?project_id lists tasks linked to that project in any way, and only those', async () => {
    const [p, q] = [await taskProject(h), await taskProject(h)];
    const own = await newTask(h, p);
    const counting = await newTask(h, q, { links: [{ project_id: p, relationship_type: 'deliverable_for' }] });
    const elsewhere = await newTask(h, q);
    const rows = await list(`project_id=${p}`);
    expect(rows.map((t) => t.id).sort()).toEqual([own.id, counting.id].sort());
    expect(rows.map((t) => t.id)).not.toContain(elsewhere.id);
    for (const row of rows) {
      expect((await getTask(h, row.id)).links.map((l) => l.project_id)).toContain(p);
    }
  });

  it('17 CON-083 GET /v1/tasks?owner_fid lists only tasks with that owner', async () => {
    const p = await taskProject(h);
    const owner = `fid-${tag()}`;
    const mine = [await newTask(h, p, { owner_fid: owner }), await newTask(h, p, { owner_fid: owner })];
    await newTask(h, p, { owner_fid: `fid-${tag()}` });
    await newTask(h, p);
    const rows = await list(`owner_fid=${owner}`);
    expect(rows.map((t) => t.id).sort()).toEqual(mine.map((t) => t.id).sort());
    for (const row of rows) expect(row.owner_fid).toBe(owner);
  });

  it('17 CON-084 GET /v1/tasks?status lists only tasks in that status', async () => {
    const p = await taskProject(h);
    const a = await newTask(h, p);
    const b = await newTask(h, p);
    expect((await progress(a.id, { status: 'blocked', blocked_reason: 'Crane down' })).status).toBe(200);
    const rows = await list(`project_id=${p}&status=blocked`);
    expect(rows.map((t) => t.id)).toEqual([a.id]);
    const all = await list('status=not_started');
    expect(all.map((t) => t.id)).toContain(b.id);
    for (const row of [...rows, ...all]) expect(row.status).toBe(row.id === a.id ? 'blocked' : 'not_started');
    const bad = await h.call('GET', '/v1/tasks?status=finished', READER);
    expect([bad.status, code(bad)]).toEqual([422, 'validation_failed']);
  });

  it('17 CON-085 GET /v1/tasks?vendor_id lists only tasks with that vendor', async () => {
    const p = await taskProject(h);
    const vendor = randomUUID();
    const mine = await newTask(h, p, { vendor_id: vendor });
    await newTask(h, p, { vendor_id: randomUUID() });
    await newTask(h, p);
    const rows = await list(`vendor_id=${vendor}`);
    expect(rows.map((t) => t.id)).toEqual([mine.id]);
    for (const row of rows) expect(row.vendor_id).toBe(vendor);
  });

  it('17 CON-086 GET /v1/tasks?search lists only tasks whose title holds the text, ignoring case; LIKE wildcards are literal', async () => {
    const p = await taskProject(h);
    const word = `Facade${tag()}`;
    const hits = [
      await newTask(h, p, { title: `Install ${word} panels` }),
      await newTask(h, p, { title: `${word.toUpperCase()} sealant` }),
    ];
    await newTask(h, p, { title: 'Roof membrane' });
    const rows = await list(`search=${encodeURIComponent(word.toLowerCase())}`);
    expect(rows.map((t) => t.id).sort()).toEqual(hits.map((t) => t.id).sort());
    for (const row of rows) expect(row.title.toLowerCase()).toContain(word.toLowerCase());
    expect(await list(`project_id=${p}&search=${encodeURIComponent('%')}`)).toEqual([]);
    const r = await h.call('GET', `/v1/tasks?project_id=${p}&pagination[pageSize]=2`, READER);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 2, totalItems: 3, totalPages: 2 });
    const over = await h.call('GET', '/v1/tasks?pagination[pageSize]=201', READER);
    expect(over.status).toBe(422);
  });
});

describe('tasks: reading, editing, progress', () => {
  it('17 CON-087 GET /v1/tasks/{id} carries links, prerequisites, dependents, notes and required documents', async () => {
    const [p, q] = [await taskProject(h), await taskProject(h)];
    const t = await newTask(h, p, { links: [{ project_id: q, share: 10 }] });
    const before = await newTask(h, p);
    const after = await newTask(h, p);
    expect((await depend(t.id, before.id)).status).toBe(201);
    expect((await depend(after.id, t.id)).status).toBe(201);
    expect((await send('POST', `/v1/tasks/${t.id}/notes`, { body: 'Check rebar' })).status).toBe(201);
    const doc = await registerDocument(h);
    expect((await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, {})).status).toBe(200);
    const r = await h.call('GET', `/v1/tasks/${t.id}`, READER);
    expect(r.status).toBe(200);
    expect(r.data.links.map((l: { project_id: string }) => l.project_id).sort()).toEqual([p, q].sort());
    expect(r.data.prerequisites).toEqual([expect.objectContaining({ id: before.id, status: 'not_started' })]);
    expect(r.data.dependents).toEqual([expect.objectContaining({ id: after.id })]);
    expect(r.data.notes).toEqual([expect.objectContaining({ body: 'Check rebar', created_by: fid(EDITOR) })]);
    expect(r.data.documents).toEqual([
      expect.objectContaining({ document_id: doc, revision_id: null, current: false }),
    ]);
    const missing = await h.call('GET', `/v1/tasks/${randomUUID()}`, READER);
    expect([missing.status, code(missing)]).toEqual([404, 'task_not_found']);
  });

  it('17 CON-088 PUT /v1/tasks/{id} changes the task: GET shows the new values; unsent fields stay, null clears', async () => {
    const p = await taskProject(h);
    const pkg = await taskPackage(h, p);
    const t = await newTask(h, p, { description: 'old', owner_fid: 'fid-a', vendor_id: randomUUID() });
    const vendor = randomUUID();
    const r = await send('PUT', `/v1/tasks/${t.id}`, {
      title: 'Renamed',
      owner_fid: 'fid-b',
      vendor_id: vendor,
      package_id: pkg,
      planned_start: '2026-04-01',
      planned_finish: '2026-04-30',
      description: 'new',
    });
    expect(r.status).toBe(200);
    const got = await getTask(h, t.id);
    expect(got).toMatchObject({
      title: 'Renamed',
      description: 'new',
      owner_fid: 'fid-b',
      vendor_id: vendor,
      package_id: pkg,
      planned_start: '2026-04-01',
      planned_finish: '2026-04-30',
      project_id: p,
    });
    expect((await send('PUT', `/v1/tasks/${t.id}`, { owner_fid: null })).status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({ owner_fid: null, title: 'Renamed', vendor_id: vendor });
    expect((await h.events('task.updated')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      changed_fields: ['owner_fid'],
    });
    const otherPkg = await taskPackage(h, await taskProject(h));
    const before = await h.state();
    const bad = await send('PUT', `/v1/tasks/${t.id}`, { planned_finish: '2026-03-01' });
    expect([bad.status, code(bad)]).toEqual([422, 'validation_failed']);
    const foreign = await send('PUT', `/v1/tasks/${t.id}`, { package_id: otherPkg });
    expect([foreign.status, code(foreign)]).toEqual([422, 'package_of_another_project']);
    const noStatus = await send('PUT', `/v1/tasks/${t.id}`, { status: 'done' });
    expect([noStatus.status, code(noStatus)]).toEqual([422, 'validation_failed']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-089 POST progress records status, percentage, forecast finish and blocked reason: GET shows them', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const r = await progress(t.id, { status: 'in_progress', percent_complete: 35, forecast_finish: '2026-06-15' });
    expect(r.status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({
      status: 'in_progress',
      percent_complete: 35,
      forecast_finish: '2026-06-15',
    });
    expect((await progress(t.id, { status: 'blocked', blocked_reason: 'Waiting for permit' })).status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({
      status: 'blocked',
      blocked_reason: 'Waiting for permit',
      percent_complete: 35,
    });
    expect((await progress(t.id, { percent_complete: 50 })).status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({
      status: 'blocked',
      blocked_reason: 'Waiting for permit',
      percent_complete: 50,
    });
    expect((await progress(t.id, { status: 'in_progress' })).status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({ status: 'in_progress', blocked_reason: null });
    expect((await progress(t.id, { status: 'done' })).status).toBe(200);
    expect(await getTask(h, t.id)).toMatchObject({ status: 'done', percent_complete: 100 });
    expect((await h.events('task.progressed')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      status: 'done',
      previous_status: 'in_progress',
      percent_complete: 100,
    });
    const settled = await h.state();
    expect((await progress(t.id, { status: 'done', percent_complete: 100 })).status).toBe(200);
    // A report that changes nothing writes nothing, the event included.
    expect(await h.state()).toEqual({ ...settled, idempotency_keys: settled.idempotency_keys + 1 });
    const before = await h.state();
    for (const data of [
      {},
      { status: 'finished' },
      { percent_complete: 101 },
      { status: 'done', percent_complete: 90 },
      { status: 'in_progress', blocked_reason: 'x' },
    ]) {
      const bad = await progress(t.id, data);
      expect([bad.status, code(bad)]).toEqual([422, 'validation_failed']);
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-089 progress of a task in a package measured by tasks moves the package (mean of its tasks) and the project progress', async () => {
    const p = await taskProject(h);
    const byTasks = await taskPackage(h, p, 'tasks');
    const a = await newTask(h, p, { package_id: byTasks });
    const b = await newTask(h, p, { package_id: byTasks });
    expect((await progress(a.id, { status: 'in_progress', percent_complete: 60 })).status).toBe(200);
    expect(await packageProgress(h, byTasks)).toBe(30);
    expect(await projectProgress(h, p)).toBe(30);
    expect((await progress(b.id, { percent_complete: 20 })).status).toBe(200);
    expect(await packageProgress(h, byTasks)).toBe(40);
    expect(await projectProgress(h, p)).toBe(40);
    // A report package of weight 1 at 0 halves the project's figure.
    await taskPackage(h, p, 'report');
    expect((await progress(b.id, { percent_complete: 40 })).status).toBe(200);
    expect(await packageProgress(h, byTasks)).toBe(50);
    expect(await projectProgress(h, p)).toBe(25);
    // Moving a task out of the package re-measures it.
    expect((await send('PUT', `/v1/tasks/${a.id}`, { package_id: null })).status).toBe(200);
    expect(await packageProgress(h, byTasks)).toBe(40);
    expect(await projectProgress(h, p)).toBe(20);
  });

  it('17 CON-090 a task cannot be done while a prerequisite is unfinished: 409 unfinished_prerequisite, the task unchanged', async () => {
    const p = await taskProject(h);
    const first = await newTask(h, p);
    const then = await newTask(h, p);
    expect((await depend(then.id, first.id)).status).toBe(201);
    expect((await progress(then.id, { status: 'in_progress', percent_complete: 80 })).status).toBe(200);
    const before = await h.state();
    const shown = await getTask(h, then.id);
    const r = await progress(then.id, { status: 'done' });
    expect([r.status, code(r)]).toEqual([409, 'unfinished_prerequisite']);
    expect(await getTask(h, then.id)).toEqual(shown);
    expect(await h.state()).toEqual(before);
    expect((await progress(first.id, { status: 'done' })).status).toBe(200);
    expect((await progress(then.id, { status: 'done' })).status).toBe(200);
    expect((await getTask(h, then.id)).status).toBe('done');
  });

  it('17 CON-091 a task cannot be done while a required document has no published revision (or its named revision is not published): 409 documents_not_current, unchanged', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const anyRev = await registerDocument(h);
    const named = await registerDocument(h);
    const draft = await addRevision(h, anyRev, 'A', 'approved');
    const namedRev = await addRevision(h, named, 'A', 'approved');
    const laterRev = await addRevision(h, named, 'B', 'approved');
    expect((await send('PUT', `/v1/tasks/${t.id}/documents/${anyRev}`, {})).status).toBe(200);
    expect((await send('PUT', `/v1/tasks/${t.id}/documents/${named}`, { revision_id: laterRev })).status).toBe(200);
    const refused = async () => {
      const before = await h.state();
      const shown = await getTask(h, t.id);
      const r = await progress(t.id, { status: 'done' });
      expect([r.status, code(r)]).toEqual([409, 'documents_not_current']);
      expect(await getTask(h, t.id)).toEqual(shown);
      expect(await h.state()).toEqual(before);
    };
    await refused();
    await publishRevision(h, draft);
    // The second requirement names revision B: publishing A does not meet it.
    await publishRevision(h, namedRev);
    await refused();
    expect((await getTask(h, t.id)).documents.map((d) => [d.document_id, d.current]).sort()).toEqual(
      [
        [anyRev, true],
        [named, false],
      ].sort(),
    );
    await publishRevision(h, laterRev);
    const r = await progress(t.id, { status: 'done' });
    expect(r.status).toBe(200);
    expect(r.data.status).toBe('done');
  });
});

describe('tasks: dependencies', () => {
  it('17 CON-096 POST dependencies makes the task wait: the other is among its prerequisites, it among the other dependents', async () => {
    const [p, q] = [await taskProject(h), await taskProject(h)];
    const a = await newTask(h, p);
    const b = await newTask(h, q);
    const r = await depend(a.id, b.id);
    expect(r.status).toBe(201);
    expect((await getTask(h, a.id)).prerequisites.map((t) => t.id)).toEqual([b.id]);
    expect((await getTask(h, b.id)).dependents.map((t) => t.id)).toEqual([a.id]);
    expect((await h.events('task.dependency_added')).at(-1)?.payload.data).toMatchObject({
      task_id: a.id,
      depends_on_task_id: b.id,
    });
    const unknown = await depend(a.id, randomUUID());
    expect([unknown.status, code(unknown)]).toEqual([404, 'task_not_found']);
  });

  it('17 CON-097 a dependency closing a cycle (itself, directly or through others) is 409 dependency_cycle, nothing written', async () => {
    const p = await taskProject(h);
    const [a, b, c] = [await newTask(h, p), await newTask(h, p), await newTask(h, p)];
    expect((await depend(a.id, b.id)).status).toBe(201);
    expect((await depend(b.id, c.id)).status).toBe(201);
    const before = await h.state();
    for (const [from, to] of [
      [a.id, a.id],
      [b.id, a.id],
      [c.id, a.id],
    ] as const) {
      const r = await depend(from, to);
      expect([r.status, code(r)]).toEqual([409, 'dependency_cycle']);
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-097 two concurrent dependencies that would close a cycle together: one lands, the other is 409 dependency_cycle', async () => {
    for (let round = 0; round < 4; round++) {
      const [p, q] = [await taskProject(h), await taskProject(h)];
      const [a, b, c, d] = [await newTask(h, p), await newTask(h, p), await newTask(h, q), await newTask(h, q)];
      // b waits for c already: a->b and c->a close the cycle a->b->c->a only together; d->a is harmless.
      expect((await depend(b.id, c.id)).status).toBe(201);
      const [ab, ca, da] = await Promise.all([depend(a.id, b.id), depend(c.id, a.id), depend(d.id, a.id)]);
      expect(da?.status).toBe(201);
      expect([ab?.status, ca?.status].sort()).toEqual([201, 409]);
      expect([ab, ca].find((r) => r?.status === 409)?.errors?.[0]?.code).toBe('dependency_cycle');
      const cycleEdges = [(await getTask(h, a.id)).prerequisites.length, (await getTask(h, c.id)).prerequisites.length];
      expect(cycleEdges.sort()).toEqual([0, 1]);
    }
  });

  it('17 CON-098 a duplicate dependency is 409 dependency_exists and nothing is written', async () => {
    const p = await taskProject(h);
    const [a, b] = [await newTask(h, p), await newTask(h, p)];
    expect((await depend(a.id, b.id)).status).toBe(201);
    const before = await h.state();
    const r = await depend(a.id, b.id);
    expect([r.status, code(r)]).toEqual([409, 'dependency_exists']);
    expect(await h.state()).toEqual(before);
    expect((await getTask(h, a.id)).prerequisites).toHaveLength(1);
  });
});

describe('tasks: documents and notes', () => {
  it('17 CON-099 PUT documents/{documentId} requires the document; an unknown document is 404 document_not_found', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const doc = await registerDocument(h);
    const r = await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, {});
    expect(r.status).toBe(200);
    expect((await getTask(h, t.id)).documents).toEqual([
      expect.objectContaining({ document_id: doc, revision_id: null }),
    ]);
    expect((await h.events('task.document_required')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      document_id: doc,
    });
    const before = await h.state();
    const u = await send('PUT', `/v1/tasks/${t.id}/documents/${randomUUID()}`, {});
    expect([u.status, code(u)]).toEqual([404, 'document_not_found']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-100 a required document may name a revision: the requirement stores it; a revision of another document is 404 revision_not_found', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const doc = await registerDocument(h);
    const rev = await addRevision(h, doc, 'A');
    const r = await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, { revision_id: rev });
    expect(r.status).toBe(200);
    expect((await getTask(h, t.id)).documents).toEqual([
      expect.objectContaining({ document_id: doc, revision_id: rev }),
    ]);
    const otherRev = await addRevision(h, await registerDocument(h), 'A');
    const before = await h.state();
    const bad = await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, { revision_id: otherRev });
    expect([bad.status, code(bad)]).toEqual([404, 'revision_not_found']);
    expect(await h.state()).toEqual(before);
    expect((await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, { revision_id: null })).status).toBe(200);
    expect((await getTask(h, t.id)).documents).toEqual([
      expect.objectContaining({ document_id: doc, revision_id: null }),
    ]);
  });

  it('17 CON-101 DELETE documents/{documentId} stops requiring it; one not required is 404 document_not_found', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const doc = await registerDocument(h);
    expect((await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, {})).status).toBe(200);
    const r = await send('DELETE', `/v1/tasks/${t.id}/documents/${doc}`);
    expect(r.status).toBe(200);
    expect((await getTask(h, t.id)).documents).toEqual([]);
    // No longer required: done is not held by it.
    expect((await progress(t.id, { status: 'done' })).status).toBe(200);
    const again = await send('DELETE', `/v1/tasks/${t.id}/documents/${doc}`);
    expect([again.status, code(again)]).toEqual([404, 'document_not_found']);
  });

  it('17 CON-102 POST notes adds a note: it appears on GET /v1/tasks/{id}', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const r = await send('POST', `/v1/tasks/${t.id}/notes`, { body: 'Inspector visit\non Friday' });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ body: 'Inspector visit\non Friday', created_by: fid(EDITOR) });
    expect((await getTask(h, t.id)).notes).toEqual([
      expect.objectContaining({ id: r.data.id, body: 'Inspector visit\non Friday' }),
    ]);
    expect((await h.events('task.note_added')).at(-1)?.payload.data).toMatchObject({
      task_id: t.id,
      note_id: r.data.id,
    });
    const blank = await send('POST', `/v1/tasks/${t.id}/notes`, { body: '   ' });
    expect([blank.status, code(blank)]).toEqual([422, 'validation_failed']);
  });
});

describe('tasks: closed projects and access', () => {
  for (const [rule, status] of [
    ['CON-034', 'completed'],
    ['CON-035', 'cancelled'],
  ] as const) {
    it(`17 ${rule} a ${status} project takes no more tasks: every task write answers 409 project_closed and nothing is written`, async () => {
      const [p, open] = [await taskProject(h), await taskProject(h)];
      const t = await newTask(h, p, { links: [{ project_id: open }] });
      const other = await newTask(h, p);
      const doc = await registerDocument(h);
      expect((await send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, {})).status).toBe(200);
      const onOpen = await newTask(h, open);
      const third = await taskProject(h);
      await setProjectStatus(h, p, status);
      const before = await h.state();
      const writes = [
        send('POST', '/v1/tasks', { project_id: p, title: 'More work' }),
        send('POST', '/v1/tasks', { project_id: open, title: 'Count there', links: [{ project_id: p }] }),
        send('PUT', `/v1/tasks/${t.id}`, { title: 'x' }),
        progress(t.id, { status: 'in_progress' }),
        send('POST', `/v1/tasks/${t.id}/links`, { project_id: third }),
        send('POST', `/v1/tasks/${onOpen.id}/links`, { project_id: p }),
        send('DELETE', `/v1/tasks/${t.id}/links/${open}`),
        depend(t.id, other.id),
        send('PUT', `/v1/tasks/${t.id}/documents/${doc}`, {}),
        send('DELETE', `/v1/tasks/${t.id}/documents/${doc}`),
        send('POST', `/v1/tasks/${t.id}/notes`, { body: 'x' }),
      ];
      for (const r of await Promise.all(writes)) expect([r.status, code(r)]).toEqual([409, 'project_closed']);
      expect(await h.state()).toEqual(before);
      await setProjectStatus(h, p, 'active');
    });
  }

  it('17 CON-078 task writes need ManageTasks (a reader is 403, nothing written); reads are open to anyone admitted', async () => {
    const p = await taskProject(h);
    const t = await newTask(h, p);
    const before = await h.state();
    const denied = [
      await send('POST', '/v1/tasks', { project_id: p, title: 'x' }, READER),
      await send('PUT', `/v1/tasks/${t.id}`, { title: 'x' }, READER),
      await send('POST', `/v1/tasks/${t.id}/progress`, { status: 'done' }, READER),
      await send('POST', `/v1/tasks/${t.id}/notes`, { body: 'x' }, READER),
    ];
    for (const r of denied) expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/tasks/${t.id}`, { gateway: READER })).status).toBe(200);
    expect((await h.call('GET', '/v1/tasks', { gateway: READER })).status).toBe(200);
    expect((await h.call('GET', '/v1/tasks', null)).status).toBe(401);
  });
});
