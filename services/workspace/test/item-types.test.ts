import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../src/domain/workflows.ts';
import { ADMIN, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Descriptor = {
  type: string;
  kind: string;
  title_hint: string;
  body_label: string;
  body_hint: string;
  fields: { key: string; label: string; placeholder: string; required: boolean }[];
};
type Status = { id: string; name: string; category: string; description: string };

describe('GET /v1/item-types', () => {
  it('WS-063 lists exactly the six company-wide types, in picker order', async () => {
    const r = await h.call('GET', '/v1/item-types', OUTSIDER);
    expect(r.status).toBe(200);
    expect(r.data.map((d: Descriptor) => d.type)).toEqual(['task', 'bug', 'feature', 'chore', 'question', 'note']);
    expect(r.data.map((d: Descriptor) => d.kind)).toEqual(['task', 'task', 'task', 'task', 'question', 'note']);
  });

  it('WS-066 WS-067 WS-068 every descriptor carries the hints and fields; only a question has one (the answer), with a placeholder', async () => {
    const r = await h.call('GET', '/v1/item-types', OUTSIDER);
    for (const d of r.data as Descriptor[]) {
      for (const k of ['title_hint', 'body_label', 'body_hint'] as const) {
        expect(typeof d[k], `${d.type}.${k}`).toBe('string');
        expect(d[k].length).toBeGreaterThan(0);
      }
      expect(Array.isArray(d.fields)).toBe(true);
      for (const f of d.fields) expect(f.placeholder.length).toBeGreaterThan(0);
      expect(d.fields.map((f) => f.key)).toEqual(d.type === 'question' ? ['answer'] : []);
    }
  });

  it('WS-069 every descriptor field is optional (required: false)', async () => {
    const r = await h.call('GET', '/v1/item-types', OUTSIDER);
    const fields = (r.data as Descriptor[]).flatMap((d) => d.fields);
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(f.required).toBe(false);
  });

  it('WS-592 needs a signed-in caller (401 without one)', async () => {
    expect((await h.call('GET', '/v1/item-types', null)).status).toBe(401);
  });
});

describe('GET /v1/projects/{id}/item-types', () => {
  it('WS-064 WS-065 a general project offers task, question, note in the same order on every read', async () => {
    const p = await h.project({ workflow: 'general' });
    const a = await h.call('GET', `/v1/projects/${p.id}/item-types`, OWNER);
    const b = await h.call('GET', `/v1/projects/${p.id}/item-types`, OWNER);
    expect(a.status).toBe(200);
    expect(a.data.map((d: Descriptor) => d.type)).toEqual(['task', 'question', 'note']);
    expect(b.data).toEqual(a.data);
    expect(a.data[1].fields[0].key).toBe('answer');
  });

  it('WS-065 a product_development project offers all six in picker order', async () => {
    const p = await h.project({ workflow: 'product_development' });
    const r = await h.call('GET', `/v1/projects/${p.id}/item-types`, OWNER);
    expect(r.data.map((d: Descriptor) => d.type)).toEqual(['task', 'bug', 'feature', 'chore', 'question', 'note']);
  });

  it('WS-012 a viewer reads them; a non-member gets 404; a platform admin reads without a membership', async () => {
    const p = await h.team({ workflow: 'general' });
    expect((await h.call('GET', `/v1/projects/${p.id}/item-types`, VIEWER)).status).toBe(200);
    expect((await h.call('GET', `/v1/projects/${p.id}/item-types`, OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/statuses`, OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/statuses`, ADMIN)).status).toBe(200);
  });
});

describe('GET /v1/projects/{id}/statuses', () => {
  it('WS-072 a product_development project offers Triage, Backlog, Todo, In progress, In review, Done in that order', async () => {
    const p = await h.project({ workflow: 'product_development' });
    const r = await h.call('GET', `/v1/projects/${p.id}/statuses`, OWNER);
    expect(r.status).toBe(200);
    expect(r.data.map((s: Status) => s.name)).toEqual([
      'Triage',
      'Backlog',
      'Todo',
      'In progress',
      'In review',
      'Done',
    ]);
    expect(r.data.map((s: Status) => s.id)).toEqual(['triage', 'backlog', 'todo', 'in_progress', 'in_review', 'done']);
  });

  it('WS-073 a general project offers Todo, In progress, Waiting, Done in that order', async () => {
    const p = await h.project({ workflow: 'general' });
    const r = await h.call('GET', `/v1/projects/${p.id}/statuses`, OWNER);
    expect(r.data.map((s: Status) => s.name)).toEqual(['Todo', 'In progress', 'Waiting', 'Done']);
  });

  it('WS-070 WS-071 WS-074 WS-075 categories are of the fixed six, Done is the only closed one, none is canceled, each has a one-line description', async () => {
    for (const workflow of ['product_development', 'general']) {
      const p = await h.project({ workflow });
      const r = await h.call('GET', `/v1/projects/${p.id}/statuses`, OWNER);
      for (const s of r.data as Status[]) {
        expect(CATEGORIES).toContain(s.category);
        expect(s.category).not.toBe('canceled');
        expect(s.description.length).toBeGreaterThan(0);
        expect(s.description).not.toMatch(/[\r\n]/);
      }
      expect((r.data as Status[]).filter((s) => s.category === 'completed').map((s) => s.id)).toEqual(['done']);
    }
  });
});
