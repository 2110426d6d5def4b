import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reconciler } from '../src/runner/reconciler.ts';
import { ADMIN, type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, tag, VIEWER } from './harness.ts';
import { MemoryRunner } from './memory-runner.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Member = AgentData & {
  parent_id: string;
  swarm_id: string;
  child_kind: string;
  ttl_at: string;
  created_by: string;
  harness_id: string;
};
type Swarm = { swarm_id: string; members: Member[] };
type Dismissal = { swarm_id: string; parent_id: string; members: Member[]; stopped_ids: string[] };

/** Gives a person a role on a top agent (the members routes are another area's; this is the row they write). */
const share = (agentId: string, email: string, role: 'editor' | 'viewer') =>
  h.db
    .insertInto('agent_members')
    .values({ agent_id: agentId, principal_fid: fid(email), role, added_at: h.now() })
    .execute();

/** A persistent agent owned by OWNER with EDITOR and VIEWER on it. */
async function team(fields: Record<string, unknown> = {}) {
  const a = await h.agent(fields);
  await share(a.id, EDITOR, 'editor');
  await share(a.id, VIEWER, 'viewer');
  return a;
}

const members = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `Scout ${i + 1} ${tag()}`, instructions: `Look at part ${i + 1}` }));

const swarm = (parentId: string, n = 2, as: Parameters<Harness['call']>[2] = OWNER) =>
  h.ok<Swarm>('POST', `/v1/agents/${parentId}/swarm`, { members: members(n) }, 201, as);

const children = async (id: string, as: Parameters<Harness['call']>[2] = OWNER, query = '') => {
  const r = await h.call('GET', `/v1/agents/${id}/children${query}`, as);
  return r;
};

const row = (id: string) => h.db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
type Outbox = Awaited<ReturnType<Harness['events']>>[number];
const dataOf = (e: Outbox | undefined) => (e?.payload as { data: Record<string, unknown> } | undefined)?.data ?? {};
const eventsAbout = async (type: string, ids: readonly string[]) =>
  (await h.events(type)).filter((e) => ids.includes(String(dataOf(e).agent_id)));

describe('spawning a swarm', () => {
  it('18 AGT-112 AGT-113 a swarm spawns running ephemeral members of the parent, listed among its children', async () => {
    const parent = await team({ model: 'claude-sonnet', max_turns: 25, tools: ['send_email'] });
    const s = await swarm(parent.id, 3, EDITOR);
    expect(s.members).toHaveLength(3);
    const ids = s.members.map((m) => m.id);
    for (const m of s.members) {
      expect(m).toMatchObject({
        lifetime: 'ephemeral',
        run_type: 'always_on',
        child_kind: 'swarm',
        parent_id: parent.id,
        swarm_id: s.swarm_id,
        status: 'active',
        desired_state: 'running',
        generation: 1,
        owner_fid: fid(OWNER),
        created_by: fid(EDITOR),
        harness_id: parent.harness_id,
        model: 'claude-sonnet',
        max_turns: 25,
        tools: ['send_email'],
        caller_role: 'editor',
      });
      expect(m.ttl_at).toBe(new Date(h.now().getTime() + 4 * 3600_000).toISOString());
    }
    expect(s.members.map((m) => m.name)).toEqual(s.members.map((_, i) => expect.stringContaining(`Scout ${i + 1}`)));
    // Children follow their top agent: they hold no members of their own.
    const own = await h.db.selectFrom('agent_members').select('agent_id').where('agent_id', 'in', ids).execute();
    expect(own).toEqual([]);

    const listed = await children(parent.id);
    expect(listed.status).toBe(200);
    expect((listed.data as Member[]).map((c) => c.id).sort()).toEqual([...ids].sort());

    const created = await eventsAbout('agent.created', ids);
    const started = await eventsAbout('agent.started', ids);
    expect(created).toHaveLength(3);
    expect(started.map((e) => dataOf(e).reason)).toEqual(['swarm', 'swarm', 'swarm']);
  });

  it('18 AGT-022 AGT-112 a swarm an agent spawns (service token with X-Platform-Agent-Id) names agent:<id> as creator', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 1, { service: parent.id });
    expect(s.members[0]).toMatchObject({ created_by: `agent:${parent.id}`, owner_fid: fid(OWNER) });
  });

  it('18 AGT-112 AGT-326 a member spawns its own swarm through its top agent: same top owner, the editor of the top may', async () => {
    const top = await team();
    const first = await swarm(top.id, 1);
    const member = first.members[0] as Member;
    const nested = await swarm(member.id, 2, EDITOR);
    for (const m of nested.members) {
      expect(m.parent_id).toBe(member.id);
      expect(m.owner_fid).toBe(fid(OWNER));
      expect((await row(m.id)).top_id).toBe(top.id);
    }
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${member.id}/swarm`, VIEWER, { data: { members: members(1) } });
    expect(r.status).toBe(403);
    expect(r.body.payload.errors[0].code).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-112 AGT-327 AGT-329 refusals write nothing: no access 404, viewer and admin without a role 403, a bad body 422, an archived parent 409', async () => {
    const parent = await team();
    const archived = await team();
    await h.db.updateTable('agents').set({ status: 'archive' }).where('id', '=', archived.id).execute();
    const cases: [string, Parameters<Harness['call']>[2], unknown, number, string][] = [
      [parent.id, STRANGER, { members: members(1) }, 404, 'agent_not_found'],
      [parent.id, VIEWER, { members: members(1) }, 403, 'insufficient_role'],
      [parent.id, ADMIN, { members: members(1) }, 403, 'insufficient_role'],
      [
        parent.id,
        { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } },
        { members: members(1) },
        404,
        'agent_not_found',
      ],
      [parent.id, OWNER, { members: [] }, 422, 'validation_failed'],
      [parent.id, OWNER, { members: members(21) }, 422, 'validation_failed'],
      [parent.id, OWNER, { members: [{ name: 'No instructions' }] }, 422, 'validation_failed'],
      [archived.id, OWNER, { members: members(1) }, 409, 'parent_not_active'],
      ['01900000-0000-7000-8000-000000000000', OWNER, { members: members(1) }, 404, 'agent_not_found'],
    ];
    for (const [id, as, data, status, code] of cases) {
      const before = await h.state();
      const r = await h.call('POST', `/v1/agents/${id}/swarm`, as, { data });
      expect([r.status, r.body.payload.errors?.[0]?.code], JSON.stringify(data).slice(0, 80)).toEqual([status, code]);
      expect(await h.state()).toEqual(before);
    }
  });

  it('18 AGT-112 twenty members in one call are accepted', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 20);
    expect(new Set(s.members.map((m) => m.slug)).size).toBe(20);
  });
});

describe('the children list', () => {
  it('18 AGT-113 AGT-114 AGT-115 every child, archived ones included, newest first, paginated', async () => {
    const parent = await team();
    h.setNow('2026-03-02T12:00:00Z');
    const a = await swarm(parent.id, 1);
    h.setNow('2026-03-02T12:05:00Z');
    const b = await swarm(parent.id, 2);
    h.setNow('2026-03-02T12:10:00Z');
    const coder = await h.ok<Member>('POST', `/v1/agents/${parent.id}/coding-agents`, { repository: 'platform' }, 201);
    h.setNow('2026-03-02T12:00:00Z');
    const oldest = a.members[0] as Member;
    await h.db.updateTable('agents').set({ status: 'archive' }).where('id', '=', oldest.id).execute();
    // A grandchild is its parent's child, not this agent's.
    await swarm((b.members[0] as Member).id, 1);

    const r = await children(parent.id, VIEWER);
    expect(r.status).toBe(200);
    const ids = (r.data as Member[]).map((c) => c.id);
    const [b1, b2] = b.members.map((m) => m.id) as [string, string];
    expect(ids).toEqual([coder.id, b2, b1, oldest.id]);
    expect((r.data as Member[]).at(-1)?.status).toBe('archive');
    expect((r.data as Member[])[0]?.caller_role).toBe('viewer');

    const page = await children(parent.id, OWNER, '?pagination[page]=2&pagination[pageSize]=3');
    expect((page.data as Member[]).map((c) => c.id)).toEqual([oldest.id]);
    expect(page.body.payload.meta.pagination).toMatchObject({ page: 2, pageSize: 3, totalItems: 4, totalPages: 2 });
  });

  it('18 AGT-113 AGT-327 AGT-328 the children list needs viewer: no access 404, an admin reads it', async () => {
    const parent = await team();
    await swarm(parent.id, 1);
    expect((await children(parent.id, STRANGER)).status).toBe(404);
    const admin = await children(parent.id, ADMIN);
    expect(admin.status).toBe(200);
    expect(admin.data).toHaveLength(1);
    expect((await children('01900000-0000-7000-8000-000000000000')).status).toBe(404);
    const none = await children((await team()).id);
    expect(none.data).toEqual([]);
  });
});

describe('dismissing a swarm', () => {
  it('18 AGT-116 AGT-334 every member spins down, each publishes agent.stopped, the swarm publishes swarm.dismissed once', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 3);
    const other = await swarm(parent.id, 1);
    const ids = s.members.map((m) => m.id);
    const d = await h.ok<Dismissal>('POST', `/v1/swarms/${s.swarm_id}/dismiss`, {}, 200, EDITOR);
    expect(d.swarm_id).toBe(s.swarm_id);
    expect(d.parent_id).toBe(parent.id);
    expect([...d.stopped_ids].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const r = await row(id);
      expect([r.desired_state, r.status]).toEqual(['completed', 'active']);
    }
    expect(d.members.every((m) => m.desired_state === 'completed')).toBe(true);
    expect((await row((other.members[0] as Member).id)).desired_state).toBe('running');

    const stopped = await eventsAbout('agent.stopped', ids);
    expect(stopped.map((e) => dataOf(e).reason)).toEqual(['dismiss', 'dismiss', 'dismiss']);
    const dismissed = (await h.events('swarm.dismissed')).filter((e) => dataOf(e).swarm_id === s.swarm_id);
    expect(dismissed).toHaveLength(1);
    const data = dataOf(dismissed[0]);
    expect(data).toMatchObject({ agent_id: parent.id, lifetime: 'persistent', actor_fid: fid(EDITOR) });
    expect([...(data.member_ids as string[])].sort()).toEqual([...ids].sort());
    expect(JSON.stringify(data)).not.toContain('Look at part');
  });

  it('18 AGT-116 a repeated dismissal (body left out) changes nothing and publishes nothing: 200 with stopped_ids empty', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 2);
    await h.ok('POST', `/v1/swarms/${s.swarm_id}/dismiss`, {}, 200);
    const before = await h.state();
    // The body may be left out.
    const r = await h.call('POST', `/v1/swarms/${s.swarm_id}/dismiss`, OWNER);
    expect(r.status).toBe(200);
    const again = r.data as Dismissal;
    expect(again.stopped_ids).toEqual([]);
    expect(again.members.map((m) => m.desired_state)).toEqual(['completed', 'completed']);
    const after = (await h.state()) as Record<string, number>;
    // Only the idempotency record of the new key is new.
    expect({ ...after, idempotency_keys: 0 }).toEqual({ ...(before as Record<string, number>), idempotency_keys: 0 });
  });

  it('18 AGT-116 a member already stopped is not stopped again; the rest spin down', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 2);
    const [done, live] = s.members as [Member, Member];
    await h.db.updateTable('agents').set({ desired_state: 'completed' }).where('id', '=', done.id).execute();
    const d = await h.ok<Dismissal>('POST', `/v1/swarms/${s.swarm_id}/dismiss`, {}, 200);
    expect(d.stopped_ids).toEqual([live.id]);
    expect(await eventsAbout('agent.stopped', [done.id])).toEqual([]);
  });

  it('18 AGT-116 AGT-327 AGT-329 refusals write nothing: unknown or unseen swarm 404 swarm_not_found, viewer and admin 403', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 1);
    const cases: [string, Parameters<Harness['call']>[2], number, string][] = [
      ['01900000-0000-7000-8000-000000000000', OWNER, 404, 'swarm_not_found'],
      [s.swarm_id, STRANGER, 404, 'swarm_not_found'],
      [s.swarm_id, VIEWER, 403, 'insufficient_role'],
      [s.swarm_id, ADMIN, 403, 'insufficient_role'],
      [s.swarm_id, { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } }, 404, 'swarm_not_found'],
    ];
    for (const [id, as, status, code] of cases) {
      const before = await h.state();
      const r = await h.call('POST', `/v1/swarms/${id}/dismiss`, as, { data: {} });
      expect([r.status, r.body.payload.errors?.[0]?.code]).toEqual([status, code]);
      expect(await h.state()).toEqual(before);
    }
    expect((await row((s.members[0] as Member).id)).desired_state).toBe('running');
  });

  it('18 AGT-116 the agent that spawned the swarm dismisses it with the service token', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 1, { service: parent.id });
    const r = await h.call('POST', `/v1/swarms/${s.swarm_id}/dismiss`, { service: parent.id }, { data: {} });
    expect(r.status).toBe(200);
    expect(r.data.stopped_ids).toEqual([(s.members[0] as Member).id]);
  });
});

describe('deleting the parent', () => {
  it('18 AGT-082 deleting a persistent agent removes its swarm members and coding agents', async () => {
    const parent = await team();
    const s = await swarm(parent.id, 2);
    const nested = await swarm((s.members[0] as Member).id, 1);
    const coder = await h.ok<Member>('POST', `/v1/agents/${parent.id}/coding-agents`, { repository: 'platform' }, 201);
    const ids = [...s.members, ...nested.members, coder].map((m) => m.id);
    const r = await h.call('DELETE', `/v1/agents/${parent.id}`, OWNER);
    expect(r.status).toBe(200);
    const left = await h.db
      .selectFrom('agents')
      .select('id')
      .where('id', 'in', [parent.id, ...ids])
      .execute();
    expect(left).toEqual([]);
    expect((await h.call('POST', `/v1/swarms/${s.swarm_id}/dismiss`, OWNER, { data: {} })).status).toBe(404);
  });
});

describe('what runs', () => {
  it('18 AGT-112 AGT-116 the runner runs a Job per member until the swarm is dismissed, then none', async () => {
    const runner = new MemoryRunner();
    const rec = new Reconciler({ database: h.database, runner, intervalMs: 600_000, clock: () => h.now() });
    try {
      const parent = await team();
      const s = await swarm(parent.id, 2);
      const other = await swarm(parent.id, 1);
      await rec.pass();
      for (const m of [...s.members, ...other.members]) {
        expect(runner.running.get(m.id)).toMatchObject({ kind: 'job', generation: 1 });
        expect(runner.running.get(m.id)?.ttlAt?.toISOString()).toBe(m.ttl_at);
      }
      await h.ok('POST', `/v1/swarms/${s.swarm_id}/dismiss`, {}, 200);
      await rec.pass();
      for (const m of s.members) expect(runner.running.has(m.id)).toBe(false);
      expect(runner.running.has((other.members[0] as Member).id)).toBe(true);
    } finally {
      await rec.stop();
    }
  });
});
