import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childOf } from './agents-fixtures.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const THIRD = 'third@agents.test';
type Member = { principal_fid: string; role: string };
const members = async (id: string, as: Parameters<Harness['call']>[2] = OWNER) => {
  const r = await h.call('GET', `/v1/agents/${id}/members`, as);
  return { status: r.status, rows: r.data as Member[], code: r.body.payload.errors?.[0]?.code };
};
const putMember = (id: string, who: string, role: string, as: Parameters<Harness['call']>[2] = OWNER) =>
  h.call('PUT', `/v1/agents/${id}/members/${fid(who)}`, as, { data: { role } });
const delMember = (id: string, who: string, as: Parameters<Harness['call']>[2] = OWNER) =>
  h.call('DELETE', `/v1/agents/${id}/members/${fid(who)}`, as);
const shared = async () => {
  const a = await h.agent();
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
  return a;
};

describe('members', () => {
  it('18 AGT-117 AGT-118 AGT-020 AGT-122 AGT-123 AGT-130 the owner first, then members in added order; PUT answers everyone', async () => {
    const a = await h.agent();
    const first = await putMember(a.id, VIEWER, 'viewer');
    expect(first.status).toBe(200);
    expect(first.data).toEqual([
      expect.objectContaining({ principal_fid: fid(OWNER), role: 'owner' }),
      expect.objectContaining({ principal_fid: fid(VIEWER), role: 'viewer' }),
    ]);
    await putMember(a.id, EDITOR, 'editor');
    const third = await putMember(a.id, THIRD, 'viewer');
    expect((third.data as Member[]).map((m) => [m.principal_fid, m.role])).toEqual([
      [fid(OWNER), 'owner'],
      [fid(VIEWER), 'viewer'],
      [fid(EDITOR), 'editor'],
      [fid(THIRD), 'viewer'],
    ]);
    // A new role keeps the member's place.
    await putMember(a.id, VIEWER, 'editor');
    const { rows } = await members(a.id, EDITOR);
    expect(rows.map((m) => [m.principal_fid, m.role])).toEqual([
      [fid(OWNER), 'owner'],
      [fid(VIEWER), 'editor'],
      [fid(EDITOR), 'editor'],
      [fid(THIRD), 'viewer'],
    ]);
    expect(rows.filter((m) => m.role === 'owner')).toHaveLength(1);
  });

  it('18 AGT-124 AGT-131 DELETE removes the member, who then has no access; it answers everyone left', async () => {
    const a = await shared();
    const r = await delMember(a.id, VIEWER);
    expect(r.status).toBe(200);
    expect((r.data as Member[]).map((m) => m.principal_fid)).toEqual([fid(OWNER), fid(EDITOR)]);
    expect((await h.call('GET', `/v1/agents/${a.id}`, VIEWER)).status).toBe(404);
    const again = await delMember(a.id, VIEWER);
    expect(again.status).toBe(200);
  });

  it('18 AGT-125 AGT-126 a viewer’s PUT or DELETE of someone else is 403 insufficient_role and nothing is written', async () => {
    const a = await shared();
    const before = await h.state();
    const put = await putMember(a.id, THIRD, 'viewer', VIEWER);
    expect(put.status).toBe(403);
    expect(put.body.payload.errors[0].code).toBe('insufficient_role');
    const del = await delMember(a.id, EDITOR, VIEWER);
    expect(del.status).toBe(403);
    expect(del.body.payload.errors[0].code).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-127 AGT-320 a viewer removes themselves; an editor shares the agent', async () => {
    const a = await shared();
    const self = await delMember(a.id, VIEWER, VIEWER);
    expect(self.status).toBe(200);
    expect((self.data as Member[]).map((m) => m.principal_fid)).not.toContain(fid(VIEWER));
    const byEditor = await putMember(a.id, THIRD, 'viewer', EDITOR);
    expect(byEditor.status).toBe(200);
    expect((byEditor.data as Member[]).at(-1)).toMatchObject({ principal_fid: fid(THIRD), role: 'viewer' });
  });

  it('18 AGT-128 AGT-129 the owner is not changed or removed through members: 409 agent_owner, nothing written', async () => {
    const a = await shared();
    const before = await h.state();
    const put = await putMember(a.id, OWNER, 'viewer', EDITOR);
    expect(put.status).toBe(409);
    expect(put.body.payload.errors[0].code).toBe('agent_owner');
    const del = await delMember(a.id, OWNER, EDITOR);
    expect(del.status).toBe(409);
    expect(del.body.payload.errors[0].code).toBe('agent_owner');
    const ownSelf = await delMember(a.id, OWNER, OWNER);
    expect(ownSelf.status).toBe(409);
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-119 AGT-120 AGT-121 a swarm member or coding agent has no members: 409 child_agent, nothing written', async () => {
    const a = await shared();
    const swarm = await childOf(h, a);
    const coding = await childOf(h, a, { child_kind: 'coding' });
    const before = await h.state();
    for (const child of [swarm, coding]) {
      expect(await members(child.id)).toMatchObject({ status: 409, code: 'child_agent' });
      const put = await putMember(child.id, THIRD, 'viewer');
      expect(put.status).toBe(409);
      expect(put.body.payload.errors[0].code).toBe('child_agent');
      const del = await delMember(child.id, EDITOR);
      expect(del.status).toBe(409);
      expect(del.body.payload.errors[0].code).toBe('child_agent');
    }
    expect(await h.state()).toEqual(before);
    // Its access is the top agent's: a stranger still gets 404.
    expect((await members(swarm.id, STRANGER)).status).toBe(404);
  });

  it('18 member events carry the agent id, principal and role; a PUT of the role held publishes nothing', async () => {
    const a = await h.agent();
    await putMember(a.id, THIRD, 'viewer');
    await putMember(a.id, THIRD, 'viewer');
    await putMember(a.id, THIRD, 'editor');
    await delMember(a.id, THIRD);
    await delMember(a.id, THIRD);
    const mine = async (type: string) =>
      (await h.events(type)).filter((e) => e.payload.data.agent_id === a.id).map((e) => e.payload.data);
    const who = { agent_id: a.id, principal_fid: fid(THIRD), actor_fid: fid(OWNER) };
    expect(await mine('agent.member_added')).toEqual([{ ...who, role: 'viewer' }]);
    expect(await mine('agent.member_role_changed')).toEqual([{ ...who, role: 'editor' }]);
    expect(await mine('agent.member_removed')).toEqual([{ ...who, role: 'editor' }]);
  });

  it('18 AGT-327 AGT-329 a stranger is 404; an admin without the header may read but not change members', async () => {
    const a = await shared();
    const before = await h.state();
    expect((await members(a.id, STRANGER)).status).toBe(404);
    expect((await putMember(a.id, THIRD, 'viewer', STRANGER)).status).toBe(404);
    expect((await delMember(a.id, EDITOR, STRANGER)).status).toBe(404);
    expect((await members(a.id, ADMIN)).status).toBe(200);
    const put = await putMember(a.id, THIRD, 'viewer', ADMIN);
    expect(put.status).toBe(403);
    expect(put.body.payload.errors[0].code).toBe('insufficient_role');
    const asMember = { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } };
    expect((await putMember(a.id, THIRD, 'viewer', asMember)).status).toBe(404);
    expect(await h.state()).toEqual(before);
  });

  it('18 a role other than editor or viewer is 422 and nothing is written', async () => {
    const a = await h.agent();
    const before = await h.state();
    expect((await putMember(a.id, THIRD, 'owner')).status).toBe(422);
    expect((await h.call('PUT', `/v1/agents/${a.id}/members/${fid(THIRD)}`, OWNER, { data: {} })).status).toBe(422);
    expect(await h.state()).toEqual(before);
  });
});
