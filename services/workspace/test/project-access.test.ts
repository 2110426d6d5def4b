import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER, viaToken } from './harness.ts';

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

const SUPERADMIN = 'superadmin@dev.local';
type Call = [string, 'POST' | 'PATCH' | 'PUT' | 'DELETE', string, unknown?];

/** A project with a task, a goal led by the editor, a view and a pending join request, and the writes on it. */
async function fixture() {
  const p = await h.team();
  const base = `/v1/projects/${p.id}`;
  const t = await h.task(p.id);
  const g = await h.goal(p.id, { lead: fid(EDITOR) });
  const views = (await h.call('GET', `${base}/views`, OWNER)).data as { id: string }[];
  h.expectStatus('ask', await h.call('POST', `${base}/join-requests`, OUTSIDER, { data: {} }), 201);
  const task = `${base}/items/${t.id}`;
  const editorWrites: Call[] = [
    ['add task', 'POST', `${base}/items`, { data: { title: 'x' } }],
    ['edit task', 'PATCH', task, { data: { version: 1, title: 'x' } }],
    ['move task', 'POST', `${task}/move`, { data: {} }],
    ['archive task', 'POST', `${task}/archive`, { data: {} }],
    ['resolve task', 'POST', `${task}/resolve`, { data: {} }],
    ['add view', 'POST', `${base}/views`, { data: { name: 'Mine', layout: 'list' } }],
  ];
  const ownerWrites: Call[] = [
    ['update project', 'PATCH', base, { data: { name: 'x' } }],
    ['archive project', 'POST', `${base}/status`, { data: { action: 'archive' } }],
    ['place legal hold', 'POST', `${base}/status`, { data: { action: 'legal_hold' } }],
    ['add goal', 'POST', `${base}/goals`, { data: { title: 'x', lead: fid(OWNER) } }],
    ['edit goal', 'PATCH', `${base}/goals/${g.id}`, { data: { title: 'x' } }],
    ['delete goal', 'DELETE', `${base}/goals/${g.id}`],
    ['check in', 'POST', `${base}/goals/${g.id}/checkins`, { data: { status: 'on_track', note: 'x' } }],
    ['delete view', 'DELETE', `${base}/views/${views[0]?.id}`],
    ['reorder views', 'PUT', `${base}/views/order`, { data: { view_ids: views.map((v) => v.id).reverse() } }],
    ['add member', 'POST', `${base}/members`, { data: { principal_id: fid('new@ws.test'), role: 'viewer' } }],
    ['change member', 'POST', `${base}/members/${fid(EDITOR)}`, { data: { role: 'viewer' } }],
    ['remove member', 'POST', `${base}/members/${fid(VIEWER)}`, { data: { remove: true } }],
    [
      'decide join request',
      'POST',
      `${base}/join-requests/${fid(OUTSIDER)}/decision`,
      { data: { decision: 'approve' } },
    ],
  ];
  return { p, t, base, editorWrites, ownerWrites };
}

/**
 * Every call is 403 `forbidden` and nothing at all is written (row counts, change number). A
 * member who is neither owner nor lead is told `not_a_member` on a check-in (WS-024).
 */
async function expectAllRefused(
  projectId: string,
  calls: Call[],
  as: Parameters<Harness['call']>[2],
  checkinCode = 'forbidden',
) {
  const before = await h.counts();
  const seq = await h.seq(projectId);
  for (const [what, method, url, body] of calls) {
    const r = await h.call(method, url, as, body);
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(403);
    expect(r.errors[0].code, what).toBe(what === 'check in' ? checkinCode : 'forbidden');
  }
  expect(await h.counts()).toEqual(before);
  expect(await h.seq(projectId)).toBe(seq);
}

describe('14.6 platform admins read every project; changing one needs a membership', () => {
  it('14.6 WS-026 a platform admin (or Super Admin) without a membership reads the project but every write is 403 forbidden, nothing written', async () => {
    const { p, base, editorWrites, ownerWrites } = await fixture();
    for (const who of [ADMIN, SUPERADMIN]) {
      for (const url of [
        base,
        `${base}/items`,
        `${base}/goals`,
        `${base}/views`,
        `${base}/members`,
        `${base}/join-requests`,
      ]) {
        expect((await h.call('GET', url, who)).status, `${who} ${url}`).toBe(200);
      }
      await expectAllRefused(p.id, [...editorWrites, ...ownerWrites], who);
    }
  });

  it('14.6 WS-027 a platform admin who is a member writes with the membership role only: an editor’s here, without the header too', async () => {
    const { p, editorWrites, ownerWrites } = await fixture();
    await h.member(p.id, ADMIN, 'editor');
    await expectAllRefused(p.id, ownerWrites, ADMIN, 'not_a_member');
    for (const [what, method, url, body] of editorWrites.slice(0, 2)) {
      const r = await h.call(method, url, ADMIN, body);
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    }
  });
});

describe('14.5 a project owner’s rights are not used through the shared service token', () => {
  it('14.5 WS-475 through the service token an owner acts as an editor: owner-only writes are 403, nothing written; editor writes and reads go through; directly the owner may', async () => {
    const { p, base, editorWrites, ownerWrites } = await fixture();
    await expectAllRefused(p.id, ownerWrites, viaToken(OWNER), 'not_a_member');
    const refused = await h.call('PATCH', base, viaToken(OWNER), { data: { name: 'x' } });
    expect(refused.errors[0].message).toContain('service token');
    // An owner who is also a platform admin fares no better.
    await h.member(p.id, ADMIN, 'owner');
    await expectAllRefused(p.id, ownerWrites, viaToken(ADMIN), 'not_a_member');
    for (const [what, method, url, body] of editorWrites.slice(0, 2)) {
      const r = await h.call(method, url, viaToken(OWNER), body);
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    }
    expect((await h.call('GET', `${base}/join-requests`, viaToken(OWNER))).status).toBe(200);
    // A person still creates projects through the token, and becomes their owner.
    const created = await h.call('POST', '/v1/projects', viaToken(OUTSIDER), { data: { name: 'Via token' } });
    expect(created.status).toBe(201);
    expect(created.data.role).toBe('owner');

    const direct = await h.call('PATCH', base, OWNER, { data: { name: 'Renamed by the owner' } });
    expect(direct.status).toBe(200);
  });
});

describe('14.13 a legal hold is released by platform admins only', () => {
  const status = (projectId: string, action: string, as: Parameters<Harness['call']>[2]) =>
    h.call('POST', `/v1/projects/${projectId}/status`, as, { data: { action } });

  it('14.13 WS-174 owners place a legal hold but may not release it (403, nothing written); a platform admin without a membership releases it', async () => {
    const p = await h.team();
    const placed = await status(p.id, 'legal_hold', OWNER);
    expect(placed.status).toBe(200);
    expect(placed.data.legal_hold).toBe(true);
    const before = await h.counts();
    const seq = await h.seq(p.id);
    for (const as of [
      OWNER,
      EDITOR,
      viaToken(ADMIN),
      { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } },
    ]) {
      const r = await status(p.id, 'release_legal_hold', as);
      expect([r.status, r.errors[0]?.code], JSON.stringify(as)).toEqual(
        typeof as === 'object' && 'x-platform-as-member' in as.headers
          ? [404, 'project_not_found']
          : [403, 'forbidden'],
      );
    }
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
    expect((await h.call('GET', `/v1/projects/${p.id}`, OWNER)).data.legal_hold).toBe(true);

    const released = await status(p.id, 'release_legal_hold', ADMIN);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.data.legal_hold).toBe(false);
    expect(await h.seq(p.id)).toBe(seq + 1);
    const events = await h.events('project.legal_hold_changed');
    expect(events.at(-1)?.payload.data).toMatchObject({ projectId: p.id, legalHold: false, actor: fid(ADMIN) });
  });

  it('a verified Super Admin releases a legal hold too, on an archived project as well; an admin owner releases it as admin', async () => {
    const p = await h.team();
    expect((await status(p.id, 'legal_hold', OWNER)).status).toBe(200);
    expect((await status(p.id, 'archive', OWNER)).status).toBe(200);
    const r = await status(p.id, 'release_legal_hold', SUPERADMIN);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.legal_hold).toBe(false);

    const q = await h.project({}, ADMIN);
    expect((await status(q.id, 'legal_hold', ADMIN)).status).toBe(200);
    expect((await status(q.id, 'release_legal_hold', ADMIN)).status).toBe(200);
  });
});
