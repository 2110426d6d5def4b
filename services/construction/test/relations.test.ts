import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATION_TYPES } from '../src/domain/plan-items.ts';
import { closeProject, newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const relate = (projectId: string, data: Record<string, unknown>) =>
  h.call('POST', projectUrl(projectId, '/relations'), EDITOR, { data });
const list = async (projectId: string) => {
  const r = await h.call('GET', projectUrl(projectId, '/relations'), READER);
  expect(r.status).toBe(200);
  return r.data as {
    id: string;
    relation_type: string;
    direction: string;
    from_project_id: string;
    to_project_id: string;
    other_project: { id: string; code: string; name: string };
  }[];
};

describe('relations between projects', () => {
  it('17 CON-063 POST relations relates projects: the relation appears in GET relations of both, with its direction', async () => {
    const a = await newProject(h);
    const b = await newProject(h);
    const r = await relate(a.id, { to_project_id: b.id, relation_type: 'depends_on', note: 'Needs the substation' });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      from_project_id: a.id,
      to_project_id: b.id,
      relation_type: 'depends_on',
      direction: 'outgoing',
      other_project: { id: b.id, code: b.code, name: b.name },
      note: 'Needs the substation',
    });
    expect(await list(a.id)).toEqual([
      expect.objectContaining({
        id: r.data.id,
        direction: 'outgoing',
        other_project: expect.objectContaining({ id: b.id }),
      }),
    ]);
    expect(await list(b.id)).toEqual([
      expect.objectContaining({
        id: r.data.id,
        direction: 'incoming',
        other_project: expect.objectContaining({ id: a.id }),
      }),
    ]);
    const ev = await h.events('development_project.related');
    expect(ev.at(-1)?.payload.data).toMatchObject({
      project_id: a.id,
      to_project_id: b.id,
      relation_type: 'depends_on',
    });
  });

  it('17 CON-064 each of the six relation types is accepted and any other is refused with nothing written', async () => {
    const a = await newProject(h);
    const b = await newProject(h);
    expect(RELATION_TYPES).toEqual(['parent_of', 'depends_on', 'blocks', 'updates', 'shared_milestone', 'related_to']);
    for (const relation_type of RELATION_TYPES) {
      const r = await relate(a.id, { to_project_id: b.id, relation_type });
      expect([relation_type, r.status]).toEqual([relation_type, 201]);
    }
    expect((await list(a.id)).map((x) => x.relation_type).sort()).toEqual([...RELATION_TYPES].sort());
    const before = await h.state();
    for (const relation_type of ['child_of', 'PARENT_OF', '']) {
      const r = await relate(a.id, { to_project_id: b.id, relation_type });
      expect([r.status, r.errors[0]?.code]).toEqual([422, 'validation_failed']);
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 relating a project to itself is 422 validation_failed; an unknown other project 404; nothing written', async () => {
    const a = await newProject(h);
    const before = await h.state();
    const self = await relate(a.id, { to_project_id: a.id, relation_type: 'related_to' });
    expect([self.status, self.errors[0]?.code, self.errors[0]?.field]).toEqual([
      422,
      'validation_failed',
      'to_project_id',
    ]);
    const missing = await relate(a.id, {
      to_project_id: '00000000-0000-4000-8000-000000000003',
      relation_type: 'blocks',
    });
    expect([missing.status, missing.errors[0]?.code, missing.errors[0]?.field]).toEqual([
      404,
      'project_not_found',
      'to_project_id',
    ]);
    expect(await h.state()).toEqual(before);
  });

  it('17 the same type in the same direction twice is 409 relation_exists; the other direction is another relation', async () => {
    const a = await newProject(h);
    const b = await newProject(h);
    await h.ok('POST', projectUrl(a.id, '/relations'), { to_project_id: b.id, relation_type: 'blocks' }, 201);
    const before = await h.state();
    const again = await relate(a.id, { to_project_id: b.id, relation_type: 'blocks' });
    expect([again.status, again.errors[0]?.code]).toEqual([409, 'relation_exists']);
    expect(await h.state()).toEqual(before);
    const back = await relate(b.id, { to_project_id: a.id, relation_type: 'blocks' });
    expect(back.status).toBe(201);
    expect((await list(a.id)).map((x) => x.direction).sort()).toEqual(['incoming', 'outgoing']);
  });

  it('17 two concurrent identical relations make one: 201 and 409 relation_exists', async () => {
    const a = await newProject(h);
    const b = await newProject(h);
    const rs = await Promise.all([
      relate(a.id, { to_project_id: b.id, relation_type: 'updates' }),
      relate(a.id, { to_project_id: b.id, relation_type: 'updates' }),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await list(a.id)).toHaveLength(1);
  });

  it('17 CON-034 a completed project takes no new relation (409 project_closed); a closed project may still be the target', async () => {
    const a = await newProject(h);
    const b = await newProject(h);
    await closeProject(h, a.id);
    const before = await h.state();
    const r = await relate(a.id, { to_project_id: b.id, relation_type: 'related_to' });
    expect([r.status, r.errors[0]?.code]).toEqual([409, 'project_closed']);
    expect(await h.state()).toEqual(before);
    expect((await relate(b.id, { to_project_id: a.id, relation_type: 'related_to' })).status).toBe(201);
  });
});
