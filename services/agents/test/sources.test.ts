import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Src = { kind: string; id: string; read_in_run: boolean };
const ACTIONS = ['send_email', 'send_sms', 'send_announcement', 'git_commit', 'open_pull_request'] as const;

/** A swarm member under `parent`, written straight to the table (swarms are another area). */
async function childOf(parent: AgentData) {
  const id = randomUUID();
  const slug = `child-${tag()}`;
  await h.db
    .insertInto('agents')
    .values({
      id,
      slug,
      owner_fid: parent.owner_fid,
      created_by: `agent:${parent.id}`,
      email: `${slug}@agents.test`,
      lifetime: 'ephemeral',
      child_kind: 'swarm',
      parent_id: parent.id,
      top_id: parent.id,
      harness_id: 'platform',
      created_at: h.now(),
      updated_at: h.now(),
    })
    .execute();
  return { ...parent, id };
}

const cite = (a: { id: string }, data: Record<string, unknown>) =>
  h.ok<{ id: string; sources: Src[] }>('POST', `/v1/agents/${a.id}/action-sources`, data, 201, { service: a.id });

describe('action sources', () => {
  it('18 AGT-221 AGT-223 AGT-225 each action’s posted evidence and insight sources are stored with read_in_run', async () => {
    const a = await h.agent();
    for (const action of ACTIONS) {
      const evidence = randomUUID();
      const insight = randomUUID();
      const r = await cite(a, {
        action,
        message: 'Done.',
        sources: [
          { kind: 'evidence', id: evidence },
          { kind: 'insight', id: insight },
        ],
        read_ids: [evidence],
        run_id: randomUUID(),
      });
      expect(r.sources).toEqual([
        { kind: 'evidence', id: evidence, read_in_run: true },
        { kind: 'insight', id: insight, read_in_run: false },
      ]);
      const stored = await h.db.selectFrom('action_sources').selectAll().where('action_id', '=', r.id).execute();
      expect(stored.map((s) => [s.kind, s.source_id, s.read_in_run]).sort()).toEqual(
        [
          ['evidence', evidence, true],
          ['insight', insight, false],
        ].sort(),
      );
    }
  });

  it('18 AGT-222 AGT-224 AGT-225 without sources the post is accepted and every UUID of the message is a row', async () => {
    const a = await h.agent();
    const [x, y] = [randomUUID(), randomUUID()];
    const r = await cite(a, {
      action: 'send_email',
      message: `Per ${x.toUpperCase()} and ${y} (see ${x} again), the invoice is late.`,
      read_ids: [y],
    });
    expect(r.sources).toEqual([
      { kind: 'message', id: x, read_in_run: false },
      { kind: 'message', id: y, read_in_run: true },
    ]);
    const none = await cite(a, { action: 'git_commit', message: 'Fix typo' });
    expect(none.sources).toEqual([]);
    const rows = await h.db.selectFrom('action_sources').selectAll().where('action_id', '=', r.id).execute();
    for (const row of rows) expect(typeof row.read_in_run).toBe('boolean');
    expect(rows.length).toBe(2);
  });

  it('18 AGT-226 AGT-227 AGT-228 sources of an agent list its own and its descendants’ rows with agent_id; no access is 404', async () => {
    const top = await h.agent();
    const child = await childOf(top);
    const grandchild = await childOf(child);
    const [p, q, r] = [randomUUID(), randomUUID(), randomUUID()];
    h.setNow('2026-03-02T12:01:00Z');
    await cite(top, { action: 'send_email', message: `see ${p}` });
    h.setNow('2026-03-02T12:02:00Z');
    await cite(child, { action: 'send_sms', message: 'x', sources: [{ kind: 'evidence', id: q }] });
    h.setNow('2026-03-02T12:03:00Z');
    await cite(grandchild, { action: 'git_commit', message: `ref ${r}` });
    h.setNow('2026-03-02T12:00:00Z');
    const all = await h.call('GET', `/v1/agents/${top.id}/sources`);
    expect(all.status).toBe(200);
    expect(all.data.map((x: { source_id: string; agent_id: string }) => [x.source_id, x.agent_id])).toEqual([
      [r, grandchild.id],
      [q, child.id],
      [p, top.id],
    ]);
    const childOnly = await h.call('GET', `/v1/agents/${child.id}/sources`);
    expect(childOnly.data.map((x: { agent_id: string }) => x.agent_id)).toEqual([grandchild.id, child.id]);
    expect((await h.call('GET', `/v1/agents/${top.id}/sources`, STRANGER)).status).toBe(404);
    expect((await h.call('GET', `/v1/agents/${child.id}/sources`, STRANGER)).status).toBe(404);
  });

  it('18 AGT-229 AGT-230 AGT-231 observer sources: actions citing any id, newest first, only of agents the caller may list', async () => {
    const mine = await h.agent({}, OWNER);
    const shared = await h.agent({}, STRANGER);
    await h.db
      .insertInto('agent_members')
      .values({ agent_id: shared.id, principal_fid: fid(OWNER), role: 'viewer', added_at: h.now() })
      .execute();
    const hidden = await h.agent({}, EDITOR);
    const [k1, k2, other] = [randomUUID(), randomUUID(), randomUUID()];
    h.setNow('2026-03-02T13:01:00Z');
    const first = await cite(mine, { action: 'send_email', message: `about ${k1}` });
    h.setNow('2026-03-02T13:02:00Z');
    await cite(mine, { action: 'send_sms', message: `about ${other}` });
    h.setNow('2026-03-02T13:03:00Z');
    const second = await cite(shared, {
      action: 'send_announcement',
      message: 'x',
      sources: [{ kind: 'insight', id: k2 }],
    });
    h.setNow('2026-03-02T13:04:00Z');
    const third = await cite(hidden, { action: 'open_pull_request', message: `${k1} ${k2}` });
    h.setNow('2026-03-02T12:00:00Z');
    const r = await h.call('GET', `/v1/observer/sources?ids=${k1},${k2}`, OWNER);
    expect(r.status).toBe(200);
    type Observed = { id: string; agent_id: string; cited: string[]; created_at: string };
    const rows = r.data as Observed[];
    expect(rows.map((x) => x.id)).toEqual([second.id, first.id]);
    for (const x of rows) expect(x.cited.some((id) => id === k1 || id === k2)).toBe(true);
    expect(rows.every((x) => x.agent_id !== hidden.id)).toBe(true);
    const admin = (await h.call('GET', `/v1/observer/sources?ids=${k1},${k2}`, ADMIN)).data as Observed[];
    expect(admin.map((x) => x.id)).toEqual([third.id, second.id, first.id]);
    const asMember = await h.call('GET', `/v1/observer/sources?ids=${k1},${k2}`, {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(asMember.data).toEqual([]);
    const times = admin.map((x) => x.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('18 AGT-232 more than 200 ids are 422 too_many_ids; 200 are accepted', async () => {
    const ids = Array.from({ length: 201 }, () => randomUUID());
    const r = await h.call('GET', `/v1/observer/sources?ids=${ids.join(',')}`, OWNER);
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].code).toBe('too_many_ids');
    expect((await h.call('GET', `/v1/observer/sources?ids=${ids.slice(0, 200).join(',')}`, OWNER)).status).toBe(200);
    expect((await h.call('GET', '/v1/observer/sources?ids=not-a-uuid', OWNER)).status).toBe(422);
  });

  it('18 AGT-327 a post on an agent the caller cannot see is 404 and writes nothing', async () => {
    const a = await h.agent();
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${a.id}/action-sources`, STRANGER, {
      data: { action: 'send_email', message: randomUUID() },
    });
    expect(r.status).toBe(404);
    const bad = await h.call(
      'POST',
      `/v1/agents/${a.id}/action-sources`,
      { service: null },
      {
        data: { action: 'post_tweet', message: 'x' },
      },
    );
    expect(bad.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });
});
