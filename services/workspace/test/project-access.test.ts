import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const asMember = (email: string) => ({ headers: { 'x-dev-principal': email, 'x-platform-as-member': 'true' } });

describe('who may see and update a project', () => {
  it('WS-019 only owners update a project: an editor (and a viewer) PATCH is 403; project unchanged, nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const seq = await h.seq(p.id);
    for (const who of [EDITOR, VIEWER]) {
      const r = await h.call('PATCH', `/v1/projects/${p.id}`, who, { data: { name: 'Hijacked', checkin_weekday: 5 } });
      expect(r.status).toBe(403);
    }
    const read = await h.call('GET', `/v1/projects/${p.id}`, OWNER);
    expect(read.data).toMatchObject({ name: p.name, checkin_weekday: 1 });
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
  });

  it('WS-019 an owner may update: 200', async () => {
    const p = await h.team();
    const r = await h.call('PATCH', `/v1/projects/${p.id}`, OWNER, { data: { name: 'Owned' } });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe('Owned');
  });

  it('WS-026 a platform admin reads a project they do not belong to: 200, with role null', async () => {
    const p = await h.project();
    const r = await h.call('GET', `/v1/projects/${p.id}`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data.id).toBe(p.id);
    expect(r.data.role).toBeNull();
    expect((await h.call('GET', `/v1/projects/${p.id}/members`, ADMIN)).status).toBe(200);
    expect((await h.call('GET', `/v1/projects/${p.id}/items`, ADMIN)).status).toBe(200);
  });

  it('WS-027 X-Platform-As-Member: true limits a platform admin to their memberships: 404 elsewhere, 200 on their own', async () => {
    const other = await h.project();
    const before = await h.counts();
    expect((await h.call('GET', `/v1/projects/${other.id}`, asMember(ADMIN))).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${other.id}/members`, asMember(ADMIN))).status).toBe(404);
    const write = await h.call('PATCH', `/v1/projects/${other.id}`, asMember(ADMIN), { data: { name: 'No' } });
    expect(write.status).toBe(404);
    expect(await h.counts()).toEqual(before);

    const own = await h.project({}, ADMIN);
    const r = await h.call('GET', `/v1/projects/${own.id}`, asMember(ADMIN));
    expect(r.status).toBe(200);
    expect(r.data.role).toBe('owner');
  });

  it('WS-027 as a member, a platform admin acts with their membership role: a viewer admin cannot update', async () => {
    const p = await h.project();
    await h.member(p.id, ADMIN, 'viewer');
    const r = await h.call('PATCH', `/v1/projects/${p.id}`, asMember(ADMIN), { data: { name: 'No' } });
    expect(r.status).toBe(403);
    // Without the header the admin has an owner's rights.
    expect((await h.call('PATCH', `/v1/projects/${p.id}`, ADMIN, { data: { name: 'Yes' } })).status).toBe(200);
  });

  it('WS-028 X-Platform-As-Member: true cannot grant admin: a non-admin sending it reads no project beyond their memberships', async () => {
    const other = await h.project();
    const mine = await h.project({}, OUTSIDER);
    expect((await h.call('GET', `/v1/projects/${other.id}`, asMember(OUTSIDER))).status).toBe(404);
    for (const value of ['false', 'TRUE', 'yes']) {
      const r = await h.call('GET', `/v1/projects/${other.id}`, {
        headers: { 'x-dev-principal': OUTSIDER, 'x-platform-as-member': value },
      });
      expect(r.status, value).toBe(404);
    }
    const list = await h.call('GET', '/v1/projects?pagination[pageSize]=200', {
      headers: { 'x-dev-principal': OUTSIDER, 'x-platform-as-member': 'false' },
    });
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    expect((await h.call('GET', `/v1/projects/${mine.id}`, asMember(OUTSIDER))).status).toBe(200);
  });

  it('WS-029 a project the caller cannot see answers 404 (never 403) on reads, settings, status, members, join-request and task routes; nothing written', async () => {
    const p = await h.team();
    const before = await h.counts();
    const base = `/v1/projects/${p.id}`;
    const calls: [string, 'GET' | 'POST' | 'PATCH', string, unknown?][] = [
      ['read', 'GET', base],
      ['update', 'PATCH', base, { data: { name: 'x' } }],
      ['status', 'POST', `${base}/status`, { data: { action: 'archive' } }],
      ['members', 'GET', `${base}/members`],
      ['add member', 'POST', `${base}/members`, { data: { principal_id: fid(OUTSIDER), role: 'owner' } }],
      ['change member', 'POST', `${base}/members/${fid(OWNER)}`, { data: { role: 'viewer' } }],
      ['leave', 'POST', `${base}/members/${fid(OUTSIDER)}`, { data: { remove: true } }],
      ['join requests', 'GET', `${base}/join-requests`],
      ['decide', 'POST', `${base}/join-requests/${fid(OUTSIDER)}/decision`, { data: { decision: 'approve' } }],
      ['items', 'GET', `${base}/items`],
      ['add item', 'POST', `${base}/items`, { data: { title: 'x' } }],
    ];
    for (const [what, method, url, body] of calls) {
      const r = await h.call(method, url, OUTSIDER, body);
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(404);
      expect(r.errors[0].code, what).toBe('project_not_found');
    }
    // An unknown project answers the same.
    const unknown = await h.call('GET', '/v1/projects/0190e9d5-0000-7000-8000-000000000000', OWNER);
    expect(unknown.status).toBe(404);
    expect(unknown.errors[0].code).toBe('project_not_found');
    expect(await h.counts()).toEqual(before);
  });

  it('WS-029 a member below the needed role gets 403 (the project is visible to them), not 404', async () => {
    const p = await h.team();
    expect((await h.call('GET', `/v1/projects/${p.id}/join-requests`, VIEWER)).status).toBe(403);
    const r = await h.call('POST', `/v1/projects/${p.id}/status`, EDITOR, { data: { action: 'archive' } });
    expect(r.status).toBe(403);
  });
});
