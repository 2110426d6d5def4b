import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCodingHarness, HARNESSES } from '../src/domain/harnesses.ts';
import {
  ADMIN,
  type AgentData,
  type As,
  EDITOR,
  fid,
  type Harness,
  harness,
  OWNER,
  STRANGER,
  VIEWER,
} from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Child = AgentData & {
  parent_id: string;
  child_kind: string;
  repository: string;
  harness_id: string;
  created_by: string;
  ttl_at: string;
  tools: string[];
};

/** Gives a person a role on a top agent (the row the members routes write). */
const share = (agentId: string, email: string, role: 'editor' | 'viewer') =>
  h.db
    .insertInto('agent_members')
    .values({ agent_id: agentId, principal_fid: fid(email), role, added_at: h.now() })
    .execute();

async function team(fields: Record<string, unknown> = {}) {
  const a = await h.agent(fields);
  await share(a.id, EDITOR, 'editor');
  await share(a.id, VIEWER, 'viewer');
  return a;
}

const url = (id: string) => `/v1/agents/${id}/coding-agents`;
const coding = (id: string, data: Record<string, unknown>, as: As = OWNER) =>
  h.ok<Child>('POST', url(id), data, 201, as);

/** The call is refused with this status and code, and nothing is written. */
async function refused(id: string, as: As, data: unknown, status: number, code: string) {
  const before = await h.state();
  const r = await h.call('POST', url(id), as, { data });
  expect([r.status, r.body.payload.errors?.[0]?.code]).toEqual([status, code]);
  expect(await h.state()).toEqual(before);
}

describe('coding agents', () => {
  it('18 AGT-132 AGT-136 an ephemeral coding agent for one repository, a running child on the first coding harness', async () => {
    const parent = await team({ name: 'Ops Helper', model: 'claude-sonnet', max_turns: 30 });
    const c = await coding(parent.id, { repository: 'acme/platform' }, EDITOR);
    const coder = firstCodingHarness();
    expect(coder?.features).toContain('repo_scope');
    expect(c).toMatchObject({
      lifetime: 'ephemeral',
      child_kind: 'coding',
      repository: 'acme/platform',
      parent_id: parent.id,
      swarm_id: null,
      harness_id: coder?.id,
      tools: coder?.tools,
      model: 'claude-sonnet',
      max_turns: 30,
      status: 'active',
      desired_state: 'running',
      owner_fid: fid(OWNER),
      created_by: fid(EDITOR),
      caller_role: 'editor',
    });
    expect(c.ttl_at).toBe(new Date(h.now().getTime() + 4 * 3600_000).toISOString());
    expect(c.slug).toBe('ops-helper-platform');
    const kids = await h.call('GET', `/v1/agents/${parent.id}/children`, VIEWER);
    expect((kids.data as Child[]).map((k) => k.id)).toEqual([c.id]);
    const started = (await h.events('agent.started')).filter(
      (e) => (e.payload as { data: { agent_id: string } }).data.agent_id === c.id,
    );
    expect(started.map((e) => (e.payload as { data: { reason: string } }).data.reason)).toEqual(['coding']);
  });

  it('18 AGT-132 AGT-135 a harness_id declaring repo_scope is taken', async () => {
    const parent = await team();
    const coder = HARNESSES.find((x) => x.features.includes('repo_scope'));
    const c = await coding(parent.id, { repository: 'platform', harness_id: coder?.id });
    expect(c.harness_id).toBe(coder?.id);
  });

  it('18 AGT-022 AGT-138 the parent itself, with the service token and X-Platform-Agent-Id, makes one: created_by agent:<parent>', async () => {
    const parent = await team();
    const c = await coding(parent.id, { repository: 'deepsky' }, { service: parent.id });
    expect(c.created_by).toBe(`agent:${parent.id}`);
    expect(c.owner_fid).toBe(fid(OWNER));
  });

  it('18 AGT-138 the service token with X-Platform-Agent-Id naming another agent is 403 agent_header_mismatch, nothing written', async () => {
    const parent = await team();
    const other = await team();
    await refused(parent.id, { service: other.id }, { repository: 'platform' }, 403, 'agent_header_mismatch');
  });

  it('18 AGT-137 X-Platform-Agent-Id with a person’s session is 403 agent_header_not_allowed, nothing written', async () => {
    const parent = await team();
    await refused(
      parent.id,
      { headers: { 'x-dev-principal': OWNER, 'x-platform-agent-id': parent.id } },
      { repository: 'platform' },
      403,
      'agent_header_not_allowed',
    );
    const token = await h.gatewayToken(OWNER);
    await refused(
      parent.id,
      { headers: { 'cf-access-jwt-assertion': token, 'x-platform-agent-id': parent.id } },
      { repository: 'platform' },
      403,
      'agent_header_not_allowed',
    );
  });

  it('18 AGT-133 an ephemeral parent (a swarm member) is 409 parent_not_persistent, nothing written', async () => {
    const top = await team();
    const s = await h.ok<{ members: Child[] }>(
      'POST',
      `/v1/agents/${top.id}/swarm`,
      { members: [{ name: 'Scout', instructions: 'Look around' }] },
      201,
    );
    const member = s.members[0] as Child;
    await refused(member.id, OWNER, { repository: 'platform' }, 409, 'parent_not_persistent');
    await refused(member.id, { service: member.id }, { repository: 'platform' }, 409, 'parent_not_persistent');
  });

  it('18 AGT-134 an archived or expired parent is 409 parent_not_active, nothing written', async () => {
    for (const status of ['archive', 'expired'] as const) {
      const parent = await team();
      await h.db.updateTable('agents').set({ status }).where('id', '=', parent.id).execute();
      await refused(parent.id, OWNER, { repository: 'platform' }, 409, 'parent_not_active');
    }
  });

  it('18 AGT-135 a harness without repo_scope is 422 harness_not_coding; an unknown one 422 harness_not_found; nothing written', async () => {
    const parent = await team();
    const plain = HARNESSES.filter((x) => !x.features.includes('repo_scope'));
    expect(plain.length).toBeGreaterThan(0);
    for (const x of plain) {
      await refused(parent.id, OWNER, { repository: 'platform', harness_id: x.id }, 422, 'harness_not_coding');
    }
    await refused(parent.id, OWNER, { repository: 'platform', harness_id: 'nope' }, 422, 'harness_not_found');
  });

  it('18 AGT-132 AGT-327 AGT-329 roles and bodies: no access 404, viewer and admin 403, a bad body 422, nothing written', async () => {
    const parent = await team();
    await refused(parent.id, STRANGER, { repository: 'platform' }, 404, 'agent_not_found');
    await refused(parent.id, VIEWER, { repository: 'platform' }, 403, 'insufficient_role');
    await refused(parent.id, ADMIN, { repository: 'platform' }, 403, 'insufficient_role');
    await refused(
      parent.id,
      { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } },
      { repository: 'platform' },
      404,
      'agent_not_found',
    );
    await refused('01900000-0000-7000-8000-000000000000', OWNER, { repository: 'platform' }, 404, 'agent_not_found');
    await refused(parent.id, OWNER, {}, 422, 'validation_failed');
    await refused(parent.id, OWNER, { repository: 'two words' }, 422, 'validation_failed');
    await refused(parent.id, OWNER, { repository: 'platform', extra: 1 }, 422, 'validation_failed');
  });
});
