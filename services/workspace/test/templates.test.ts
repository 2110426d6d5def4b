import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type TemplateRead = {
  id: string;
  name: string;
  workflow: string;
  builtin: boolean;
  starter_tasks: { type: string; title: string; body?: string }[];
};

const templates = async (as: string = OUTSIDER): Promise<TemplateRead[]> => {
  const r = await h.call('GET', '/v1/project-templates?pagination[pageSize]=200', as);
  expect(r.status).toBe(200);
  return r.data;
};

const save = (data: Record<string, unknown>, as: string = OUTSIDER) =>
  h.call('POST', '/v1/project-templates', as, { data: { name: `Template ${tag()}`, ...data } });

const items = async (projectId: string) => {
  const r = await h.call('GET', `/v1/projects/${projectId}/items`, OWNER);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data as { type: string; title: string; body: string; origin: string; source: string }[];
};

describe('project templates', () => {
  it('WS-050 GET /v1/project-templates lists exactly two built-ins, one product_development and one general', async () => {
    const r = await h.call('GET', '/v1/project-templates', OUTSIDER);
    expect(r.status).toBe(200);
    expect(r.meta.pagination).toBeDefined();
    const builtins = (r.data as TemplateRead[]).filter((t) => t.builtin);
    expect(builtins.map((t) => t.workflow).sort()).toEqual(['general', 'product_development']);
    // Built-ins come first.
    expect((r.data as TemplateRead[]).slice(0, 2).every((t) => t.builtin)).toBe(true);
  });

  it('WS-051 every template read carries its workflow, saved ones included', async () => {
    await save({ workflow: 'general' });
    await save({});
    const all = await templates();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const t of all) expect(['product_development', 'general']).toContain(t.workflow);
  });

  it('WS-053 a template saved without a workflow reads product_development; naming general it reads general', async () => {
    const plain = await save({});
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.data.workflow).toBe('product_development');
    expect(plain.data.builtin).toBe(false);
    expect(plain.data.created_by).toBe(fid(OUTSIDER));
    const general = await save({ workflow: 'general' });
    expect(general.data.workflow).toBe('general');
    const listed = await templates();
    expect(listed.find((t) => t.id === plain.data.id)?.workflow).toBe('product_development');
    expect(listed.find((t) => t.id === general.data.id)?.workflow).toBe('general');
    expect((await h.events('project.template_saved')).at(-1)?.payload.data).toEqual({
      templateId: general.data.id,
      workflow: 'general',
      actor: fid(OUTSIDER),
    });
  });

  it('WS-052 a project created from a saved template gets the template workflow', async () => {
    for (const workflow of ['general', 'product_development']) {
      const t = await save({ workflow });
      const p = await h.project({ template_id: t.data.id });
      expect(p.workflow).toBe(workflow);
      expect(p.template_id).toBe(t.data.id);
    }
  });

  it('WS-038 a project created with template_id takes the template workflow, whatever workflow was sent', async () => {
    const general = (await templates()).find((t) => t.builtin && t.workflow === 'general') as TemplateRead;
    const p = await h.project({ template_id: general.id, workflow: 'product_development' });
    expect(p.workflow).toBe('general');
    const saved = await save({});
    const q = await h.project({ template_id: saved.data.id, workflow: 'general' });
    expect(q.workflow).toBe('product_development');
  });

  it('WS-038 an unknown template_id is 422 template_not_found; no project written', async () => {
    const before = await h.counts();
    const r = await h.call('POST', '/v1/projects', OWNER, {
      data: { name: 'From nothing', template_id: '0190e9d5-0000-7000-8000-000000000000' },
    });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'template_not_found', field: 'data/template_id' });
    expect(await h.counts()).toEqual(before);
  });

  it('WS-091 a project made from a template starts with its starter tasks, each origin template (legacy source template)', async () => {
    const t = await save({
      workflow: 'general',
      starter_tasks: [
        { type: 'task', title: '  Plan the week  ' },
        { type: 'question', title: 'Who decides?', body: 'Before Friday' },
      ],
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    expect(t.data.starter_tasks).toEqual([
      { type: 'task', title: 'Plan the week' },
      { type: 'question', title: 'Who decides?', body: 'Before Friday' },
    ]);
    const p = await h.project({ template_id: t.data.id }, EDITOR);
    const got = await h.call('GET', `/v1/projects/${p.id}/items`, EDITOR);
    expect(got.status).toBe(200);
    const list = got.data as Awaited<ReturnType<typeof items>>;
    expect(list.map((x) => [x.type, x.title, x.origin, x.source]).sort()).toEqual([
      ['question', 'Who decides?', 'template', 'template'],
      ['task', 'Plan the week', 'template', 'template'],
    ]);
    const created = (await h.events('project.item_created')).filter((e) => e.payload.data.projectId === p.id);
    expect(created).toHaveLength(2);
    for (const e of created) expect(e.payload.data.origin).toBe('template');
  });

  it('WS-091 the built-in templates give their projects starter tasks with origin template', async () => {
    for (const workflow of ['product_development', 'general']) {
      const b = (await templates()).find((t) => t.builtin && t.workflow === workflow) as TemplateRead;
      const p = await h.project({ template_id: b.id });
      const list = await items(p.id);
      expect(list).toHaveLength(b.starter_tasks.length);
      for (const x of list) expect(x.origin).toBe('template');
    }
  });

  it('WS-091 a project made without a template has no tasks', async () => {
    const p = await h.project();
    expect(await items(p.id)).toEqual([]);
  });

  it('WS-053 a starter task of a type the workflow does not offer is 422 unoffered_type naming the task; nothing written', async () => {
    const before = await h.counts();
    const r = await save({
      workflow: 'general',
      starter_tasks: [
        { type: 'task', title: 'Fine' },
        { type: 'bug', title: 'Not offered in general' },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.errors[0]).toMatchObject({ code: 'unoffered_type', field: 'data/starter_tasks/1/type' });
    const blank = await save({ starter_tasks: [{ type: 'task', title: '   ' }] });
    expect(blank.status).toBe(422);
    expect(blank.errors[0]).toMatchObject({ code: 'invalid_name', field: 'data/starter_tasks/0/title' });
    const extra = await save({ starter_tasks: [{ type: 'task', title: 'x', status: 'done' }] });
    expect(extra.status).toBe(422);
    const unknown = await save({ starter_tasks: [{ type: 'epic', title: 'x' }] });
    expect(unknown.status).toBe(422);
    expect(await h.counts()).toEqual(before);
  });

  it('WS-053 saving a template needs a sign-in (401) and an Idempotency-Key (400); nothing written', async () => {
    const before = await h.counts();
    expect((await save({}, null as unknown as string)).status).toBe(401);
    const noKey = await h.call('POST', '/v1/project-templates', OUTSIDER, { data: { name: 'No key' } }, null);
    expect(noKey.status).toBe(400);
    expect(noKey.errors[0].code).toBe('idempotency_key_required');
    expect(await h.counts()).toEqual(before);
  });
});
