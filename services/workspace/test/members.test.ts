import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const person = () => `person-${tag()}@ws.test`;

const members = async (projectId: string, as: string = OWNER) => {
  const r = await h.call('GET', `/v1/projects/${projectId}/members`, as);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data as { principal_id: string; role: string; added_by: string; created_at: string }[];
};

const roleOf = async (projectId: string, email: string) =>
  (await members(projectId)).find((m) => m.principal_id === fid(email))?.role ?? null;

const add = (projectId: string, principalId: string, role: string, as: string = OWNER) =>
  h.call('POST', `/v1/projects/${projectId}/members`, as, { data: { principal_id: principalId, role } });

const change = (projectId: string, principalId: string, data: Record<string, unknown>, as: string = OWNER) =>
  h.call('POST', `/v1/projects/${projectId}/members/${principalId}`, as, { data });

const ask = (projectId: string, as: string, data: Record<string, unknown> = {}) =>
  h.call('POST', `/v1/projects/${projectId}/join-requests`, as, { data });

const decide = (projectId: string, principalId: string, data: Record<string, unknown>, as: string = OWNER) =>
  h.call('POST', `/v1/projects/${projectId}/join-requests/${principalId}/decision`, as, { data });

describe('members', () => {
  it('WS-031 GET .../members lists the creator as owner, added by themselves', async () => {
    const p = await h.project();
    expect(await members(p.id)).toEqual([
      {
        principal_id: fid(OWNER),
        role: 'owner',
        added_by: fid(OWNER),
        created_at: p.created_at,
        updated_at: p.created_at,
      },
    ]);
  });

  it('WS-059 GET .../members answers 200 to any member (a viewer) and to a platform admin, paged', async () => {
    const p = await h.team();
    const r = await h.call('GET', `/v1/projects/${p.id}/members?pagination[pageSize]=2`, VIEWER);
    expect(r.status).toBe(200);
    expect(r.data).toHaveLength(2);
    expect(r.meta.pagination).toMatchObject({ page: 1, pageSize: 2, totalItems: 3, totalPages: 2 });
    const all = await members(p.id, ADMIN);
    expect(all.map((m) => [m.principal_id, m.role])).toEqual(
      expect.arrayContaining([
        [fid(OWNER), 'owner'],
        [fid(EDITOR), 'editor'],
        [fid(VIEWER), 'viewer'],
      ]),
    );
  });

  it('WS-060 an owner adds a member (invitation): 201, then listed with the role; one project.member_added with ids only', async () => {
    const p = await h.project();
    const who = person();
    const r = await add(p.id, fid(who), 'editor');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.data).toMatchObject({ principal_id: fid(who), role: 'editor', added_by: fid(OWNER) });
    expect(await roleOf(p.id, who)).toBe('editor');
    expect((await h.events('project.member_added')).at(-1)?.payload.data).toEqual({
      projectId: p.id,
      principalId: fid(who),
      role: 'editor',
      actor: fid(OWNER),
    });
    // The new member now sees the project.
    expect((await h.call('GET', `/v1/projects/${p.id}`, who)).data.role).toBe('editor');
  });

  it('WS-060 a FID in upper case is stored lower-cased, and a service principal may be a member', async () => {
    const p = await h.project();
    const who = person();
    expect((await add(p.id, fid(who).toUpperCase(), 'viewer')).status).toBe(201);
    expect(await roleOf(p.id, who)).toBe('viewer');
    expect((await add(p.id, 'service:intelligence', 'editor')).status).toBe(201);
    expect((await members(p.id)).map((m) => m.principal_id)).toContain('service:intelligence');
  });

  it('WS-060 adding someone already a member is 409 already_member; an id that is neither a FID nor service:<name> is 422; nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const again = await add(p.id, fid(EDITOR), 'owner');
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('already_member');
    const bad = await add(p.id, 'someone@ws.test', 'viewer');
    expect(bad.status).toBe(422);
    expect(bad.errors[0].field).toBe('body/data/principal_id');
    const role = await add(p.id, fid(person()), 'admin');
    expect(role.status).toBe(422);
    expect(await h.counts()).toEqual(before);
    expect(await roleOf(p.id, EDITOR)).toBe('editor');
  });

  it('WS-060 only owners add members: an editor is 403 and nobody is added', async () => {
    const p = await h.team();
    const before = await h.counts();
    const who = person();
    const r = await add(p.id, fid(who), 'viewer', EDITOR);
    expect(r.status).toBe(403);
    expect(await h.counts()).toEqual(before);
    expect(await roleOf(p.id, who)).toBeNull();
  });

  it('WS-060 adding a person with a pending join request settles it as approved', async () => {
    const p = await h.project();
    const who = person();
    expect((await ask(p.id, who)).status).toBe(201);
    expect((await add(p.id, fid(who), 'editor')).status).toBe(201);
    const list = await h.call('GET', `/v1/projects/${p.id}/join-requests`, OWNER);
    expect(list.data[0]).toMatchObject({
      principal_id: fid(who),
      status: 'approved',
      role: 'editor',
      decided_by: fid(OWNER),
    });
  });

  it("WS-060 an owner changes a member's role: 200; the same role again changes nothing and emits nothing", async () => {
    const p = await h.team();
    const r = await change(p.id, fid(VIEWER), { role: 'editor' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ principal_id: fid(VIEWER), removed: false, member: { role: 'editor' } });
    expect(await roleOf(p.id, VIEWER)).toBe('editor');
    expect((await h.events('project.member_role_changed')).at(-1)?.payload.data).toEqual({
      projectId: p.id,
      principalId: fid(VIEWER),
      fromRole: 'viewer',
      toRole: 'editor',
      actor: fid(OWNER),
    });
    const events = (await h.events()).length;
    expect((await change(p.id, fid(VIEWER), { role: 'editor' })).status).toBe(200);
    expect((await h.events()).length).toBe(events);
  });

  it('WS-060 an owner removes a member with remove: true; they no longer see the project', async () => {
    const p = await h.team();
    const r = await change(p.id, fid(EDITOR), { remove: true });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ principal_id: fid(EDITOR), removed: true, member: null });
    expect(await roleOf(p.id, EDITOR)).toBeNull();
    expect((await h.events('project.member_removed')).at(-1)?.payload.data).toMatchObject({
      projectId: p.id,
      principalId: fid(EDITOR),
      role: 'editor',
    });
    expect((await h.call('GET', `/v1/projects/${p.id}`, EDITOR)).status).toBe(404);
  });

  it('WS-060 any member may leave (remove themselves); they may not change their own role', async () => {
    const p = await h.team();
    const promote = await change(p.id, fid(VIEWER), { role: 'owner' }, VIEWER);
    expect(promote.status).toBe(403);
    expect(await roleOf(p.id, VIEWER)).toBe('viewer');
    const other = await change(p.id, fid(EDITOR), { remove: true }, VIEWER);
    expect(other.status).toBe(403);
    const leave = await change(p.id, fid(VIEWER), { remove: true }, VIEWER);
    expect(leave.status).toBe(200);
    expect(await roleOf(p.id, VIEWER)).toBeNull();
  });

  it('WS-060 the last owner can be neither demoted nor removed: 422 last_owner; with a second owner both work', async () => {
    const p = await h.team();
    const before = await h.counts();
    for (const data of [{ role: 'editor' }, { remove: true }]) {
      const r = await change(p.id, fid(OWNER), data);
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('last_owner');
    }
    expect(await h.counts()).toEqual(before);
    expect(await roleOf(p.id, OWNER)).toBe('owner');

    expect((await change(p.id, fid(EDITOR), { role: 'owner' })).status).toBe(200);
    expect((await change(p.id, fid(OWNER), { role: 'viewer' })).status).toBe(200);
    expect(await roleOf(p.id, OWNER)).toBe('viewer');
    const last = await change(p.id, fid(EDITOR), { remove: true }, EDITOR);
    expect(last.status).toBe(422);
    expect(last.errors[0].code).toBe('last_owner');
  });

  it('WS-060 a change names a role or remove: true, not both or neither (422 role_or_remove); a non-member is 404 member_not_found', async () => {
    const p = await h.team();
    for (const data of [{}, { role: 'owner', remove: true }]) {
      const r = await change(p.id, fid(VIEWER), data);
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('role_or_remove');
    }
    expect((await change(p.id, fid(VIEWER), { remove: false })).status).toBe(422);
    const missing = await change(p.id, fid(person()), { role: 'viewer' });
    expect(missing.status).toBe(404);
    expect(missing.errors[0].code).toBe('member_not_found');
    expect(await roleOf(p.id, VIEWER)).toBe('viewer');
  });
});

describe('join requests', () => {
  it('WS-061 a person who cannot see the project asks to join: 201, listed by the owners with GET .../join-requests', async () => {
    const p = await h.project();
    const who = person();
    expect((await h.call('GET', `/v1/projects/${p.id}`, who)).status).toBe(404);
    const r = await ask(p.id, who, { message: 'I run the launch' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.data).toMatchObject({ project_id: p.id, principal_id: fid(who), status: 'pending', role: null });
    const list = await h.call('GET', `/v1/projects/${p.id}/join-requests`, OWNER);
    expect(list.status).toBe(200);
    expect(list.data).toEqual([r.data]);
    const event = (await h.events('project.join_requested')).at(-1);
    expect(event?.payload.data).toEqual({ projectId: p.id, principalId: fid(who), actor: fid(who) });
    expect(JSON.stringify(event?.payload)).not.toContain('launch');
    // Still not a member.
    expect((await h.call('GET', `/v1/projects/${p.id}`, who)).status).toBe(404);
  });

  it('WS-061 asking again while pending answers the same request and writes nothing', async () => {
    const p = await h.project();
    const who = person();
    const first = await ask(p.id, who);
    const before = await h.counts();
    const again = await ask(p.id, who, { message: 'Ping' });
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    // Only the command's own Idempotency-Key is stored.
    expect(await h.counts()).toEqual({ ...before, idempotency_keys: before.idempotency_keys + 1 });
  });

  it('WS-061 a member asking to join is 409 already_member; an unknown or archived project is 404; nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const member = await ask(p.id, VIEWER);
    expect(member.status).toBe(409);
    expect(member.errors[0].code).toBe('already_member');
    const unknown = await ask('0190e9d5-0000-7000-8000-000000000000', OUTSIDER);
    expect(unknown.status).toBe(404);
    expect(await h.counts()).toEqual(before);

    const archived = await h.project();
    await h.call('POST', `/v1/projects/${archived.id}/status`, OWNER, { data: { action: 'archive' } });
    const r = await ask(archived.id, OUTSIDER);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('project_not_found');
  });

  it('WS-061 only owners list join requests: an editor is 403, a non-member 404; pending requests come first', async () => {
    const p = await h.team();
    const a = person();
    const b = person();
    await ask(p.id, a);
    await ask(p.id, b);
    expect((await decide(p.id, fid(a), { decision: 'decline' })).status).toBe(200);
    const list = await h.call('GET', `/v1/projects/${p.id}/join-requests`, OWNER);
    expect(list.data.map((x: { principal_id: string; status: string }) => [x.principal_id, x.status])).toEqual([
      [fid(b), 'pending'],
      [fid(a), 'declined'],
    ]);
    const pending = await h.call('GET', `/v1/projects/${p.id}/join-requests?status=pending`, OWNER);
    expect(pending.data).toHaveLength(1);
    expect((await h.call('GET', `/v1/projects/${p.id}/join-requests`, EDITOR)).status).toBe(403);
    expect((await h.call('GET', `/v1/projects/${p.id}/join-requests`, a)).status).toBe(404);
  });

  it('WS-062 an approved requester becomes a member, as viewer unless the decision names a role', async () => {
    const p = await h.project();
    const who = person();
    await ask(p.id, who);
    const r = await decide(p.id, fid(who), { decision: 'approve' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ status: 'approved', role: 'viewer', decided_by: fid(OWNER) });
    expect(await roleOf(p.id, who)).toBe('viewer');
    expect((await h.call('GET', `/v1/projects/${p.id}`, who)).status).toBe(200);
    expect((await h.events('project.join_request_decided')).at(-1)?.payload.data).toEqual({
      projectId: p.id,
      principalId: fid(who),
      decision: 'approve',
      role: 'viewer',
      actor: fid(OWNER),
    });
    expect((await h.events('project.member_added')).at(-1)?.payload.data).toMatchObject({
      principalId: fid(who),
      role: 'viewer',
    });

    const other = person();
    await ask(p.id, other);
    expect((await decide(p.id, fid(other), { decision: 'approve', role: 'editor' })).status).toBe(200);
    expect(await roleOf(p.id, other)).toBe('editor');
  });

  it('WS-062 a declined requester does not become a member and may ask again later', async () => {
    const p = await h.project();
    const who = person();
    await ask(p.id, who);
    const r = await decide(p.id, fid(who), { decision: 'decline' });
    expect(r.data).toMatchObject({ status: 'declined', role: null });
    expect(await roleOf(p.id, who)).toBeNull();
    const again = await ask(p.id, who);
    expect(again.status).toBe(201);
    expect(again.data.status).toBe('pending');
  });

  it('WS-062 deciding twice is 409 join_request_decided; no request is 404; an editor is 403; nothing written', async () => {
    const p = await h.team();
    const who = person();
    await ask(p.id, who);
    const before = await h.counts();
    const editor = await decide(p.id, fid(who), { decision: 'approve' }, EDITOR);
    expect(editor.status).toBe(403);
    const none = await decide(p.id, fid(person()), { decision: 'approve' });
    expect(none.status).toBe(404);
    expect(none.errors[0].code).toBe('join_request_not_found');
    const bad = await decide(p.id, fid(who), { decision: 'maybe' });
    expect(bad.status).toBe(422);
    expect(await h.counts()).toEqual(before);

    expect((await decide(p.id, fid(who), { decision: 'decline' })).status).toBe(200);
    const twice = await decide(p.id, fid(who), { decision: 'approve' });
    expect(twice.status).toBe(409);
    expect(twice.errors[0].code).toBe('join_request_decided');
    expect(await roleOf(p.id, who)).toBeNull();
  });
});
