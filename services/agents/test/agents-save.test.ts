import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childOf } from './agents-fixtures.ts';
import { EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const put = (id: string, data: Record<string, unknown>, as: Parameters<Harness['call']>[2] = OWNER) =>
  h.call('PUT', `/v1/agents/${id}`, as, { data });
const get = async (id: string, as: Parameters<Harness['call']>[2] = OWNER) =>
  (await h.call('GET', `/v1/agents/${id}`, as)).data;
const SKILL = randomUUID();

describe('saving an agent (raw PUT)', () => {
  it('18 AGT-015 AGT-016 AGT-017 AGT-018 AGT-019 AGT-106 the five agent fields are lost when omitted', async () => {
    const a = await h.agent({
      name: 'Full',
      instructions: 'Do things',
      project_id: randomUUID(),
      practice: 'leasing',
      conversation_id: 'conv-1',
    });
    const r = await put(a.id, { slug: a.slug });
    expect(r.status).toBe(200);
    const after = await get(a.id);
    for (const f of ['name', 'instructions', 'project_id', 'practice', 'conversation_id']) expect(after[f]).toBeNull();
    const saved = await put(a.id, { name: 'Renamed', practice: 'ops' });
    expect(saved.data).toMatchObject({ name: 'Renamed', practice: 'ops', instructions: null });
    expect(await get(a.id)).toMatchObject({ name: 'Renamed', practice: 'ops' });
  });

  it('18 AGT-107 AGT-036 AGT-041 AGT-042 slug, model, memory_model, harness_id, max_turns, skills and tools are stored as sent', async () => {
    const a = await h.agent();
    const data = {
      slug: `saved-${a.slug}`,
      model: 'anthropic/claude-sonnet-4',
      memory_model: 'auto',
      harness_id: 'platform',
      max_turns: 40,
      skills: [{ skill_id: SKILL }],
      tools: ['send_email'],
    };
    const r = await put(a.id, data);
    expect(r.status).toBe(200);
    const after = await get(a.id);
    expect(after).toMatchObject({ ...data, skills: [{ skill_id: SKILL, version_id: null }] });
    expect(after.email).toBe(`saved-${a.slug}@agents.dev.company.com`);
    const auto = await put(a.id, { model: 'auto' });
    expect(auto.data.model).toBe('auto');
  });

  it('18 AGT-040 AGT-048 max_turns, contributes_to_knowledge and the other kept fields survive a save without them', async () => {
    const a = await h.agent({
      max_turns: 25,
      contributes_to_knowledge: true,
      model: 'openai/gpt-4.1',
      tools: ['send_sms'],
      run_type: 'on_demand',
    });
    await put(a.id, { name: 'Only a name' });
    expect(await get(a.id)).toMatchObject({
      max_turns: 25,
      contributes_to_knowledge: true,
      model: 'openai/gpt-4.1',
      tools: ['send_sms'],
      run_type: 'on_demand',
      slug: a.slug,
    });
    await put(a.id, { contributes_to_knowledge: false });
    expect((await get(a.id)).contributes_to_knowledge).toBe(false);
  });

  it('18 AGT-038 a max_turns below 10 is 422 and never stored', async () => {
    const a = await h.agent({ max_turns: 12 });
    const before = await h.state();
    const r = await put(a.id, { max_turns: 9 });
    expect(r.status).toBe(422);
    expect(await h.state()).toEqual(before);
    expect((await get(a.id)).max_turns).toBe(12);
    expect((await h.call('POST', '/v1/agents', OWNER, { data: { max_turns: 3 } })).status).toBe(422);
  });

  it('18 AGT-030 AGT-031 AGT-032 AGT-033 AGT-034 AGT-035 each definition change bumps generation by one; other fields do not', async () => {
    const a = await h.agent({ instructions: 'v1' });
    let gen = a.generation;
    const changes: Record<string, unknown>[] = [
      { instructions: 'v2' },
      { instructions: 'v2', model: 'openai/gpt-4.1' },
      { instructions: 'v2', model: 'openai/gpt-4.1', memory_model: 'openai/gpt-4.1-mini' },
      {
        instructions: 'v2',
        model: 'openai/gpt-4.1',
        memory_model: 'openai/gpt-4.1-mini',
        skills: [{ skill_id: SKILL }],
      },
      { instructions: 'v2', tools: ['send_email'] },
      { instructions: 'v2', tools: ['send_email'], skills: [], harness_id: 'messenger' },
    ];
    for (const data of changes) {
      const r = await put(a.id, data);
      expect(r.status).toBe(200);
      gen += 1;
      expect(r.data.generation).toBe(gen);
    }
    const same = await put(a.id, { instructions: 'v2', name: 'No bump', practice: 'x' });
    expect(same.data.generation).toBe(gen);
    expect(same.data.harness_id).toBe('messenger');
  });

  it('18 AGT-044 AGT-045 an empty tool list grants nothing extra; always-granted tools are dropped', async () => {
    const a = await h.agent({ tools: ['send_sms'] });
    expect((await put(a.id, { tools: [] })).data.tools).toEqual([]);
    const r = await put(a.id, { tools: ['remember', 'recall', 'send_email'] });
    expect(r.data.tools).toEqual(['send_email']);
    expect((await get(a.id)).tools).toEqual(['send_email']);
  });

  it('18 AGT-108 AGT-109 a tool off the harness or skills on a harness without them is 422 and nothing is saved', async () => {
    const a = await h.agent({ name: 'Unchanged', tools: ['send_email'] });
    const before = await h.state();
    const tool = await put(a.id, { name: 'Changed', tools: ['git_commit'] });
    expect(tool.status).toBe(422);
    expect(tool.body.payload.errors[0].code).toBe('tool_not_permitted');
    const skills = await put(a.id, { name: 'Changed', harness_id: 'messenger', skills: [{ skill_id: SKILL }] });
    expect(skills.status).toBe(422);
    expect(skills.body.payload.errors[0].code).toBe('skills_not_allowed');
    // Stored tools must be on the harness a save moves the agent to.
    const moved = await put(a.id, { name: 'Changed', harness_id: 'coder' });
    expect(moved.status).toBe(422);
    expect((await put(a.id, { harness_id: 'nope' })).body.payload.errors[0].code).toBe('harness_not_found');
    expect(await h.state()).toEqual(before);
    expect(await get(a.id)).toMatchObject({ name: 'Unchanged', harness_id: 'platform', tools: ['send_email'] });
  });

  it('18 AGT-013 a save naming a slug another agent holds is 409 slug_taken and nothing is written', async () => {
    const a = await h.agent();
    const b = await h.agent();
    const before = await h.state();
    const r = await put(b.id, { slug: a.slug, name: 'x' });
    expect(r.status).toBe(409);
    expect(r.body.payload.errors[0].code).toBe('slug_taken');
    expect(await h.state()).toEqual(before);
    expect((await get(b.id)).slug).toBe(b.slug);
  });

  it('18 changing run_type or harness_id while the agent should run is 409 agent_running; other changes go through', async () => {
    const a = await h.agent({ instructions: 'keep' });
    await h.db.updateTable('agents').set({ desired_state: 'running' }).where('id', '=', a.id).execute();
    const before = await h.state();
    for (const data of [{ run_type: 'on_demand' }, { harness_id: 'messenger' }]) {
      const r = await put(a.id, { instructions: 'keep', ...data });
      expect(r.status).toBe(409);
      expect(r.body.payload.errors[0].code).toBe('agent_running');
    }
    expect(await h.state()).toEqual(before);
    expect((await put(a.id, { instructions: 'changed while running' })).status).toBe(200);
  });

  it('18 AGT-340 a save publishes agent.updated with the changed field names, and skills or tools events when those change', async () => {
    const a = await h.agent({ name: 'Evented', instructions: 'secret body text' });
    await put(a.id, {
      name: 'Evented',
      instructions: 'new body text',
      tools: ['send_email'],
      skills: [{ skill_id: SKILL }],
    });
    const mine = async (type: string) => (await h.events(type)).filter((e) => e.payload.data.agent_id === a.id);
    const [updated] = await mine('agent.updated');
    expect(updated?.payload.data.fields).toEqual(['instructions', 'skills', 'tools']);
    expect(updated?.payload.data.generation).toBe(2);
    expect(JSON.stringify(updated)).not.toContain('body text');
    expect((await mine('agent.tools_changed'))[0]?.payload.data.tools).toEqual(['send_email']);
    expect((await mine('agent.skills_changed'))[0]?.payload.data.skill_ids).toEqual([SKILL]);
    await put(a.id, { name: 'Evented', instructions: 'new body text', tools: [] });
    expect((await mine('agent.tools_changed')).length).toBe(2);
    expect((await mine('agent.skills_changed')).length).toBe(1);
    expect((await mine('agent.updated')).at(-1)?.payload.data.fields).toEqual(['tools']);
    const count = (await h.events()).length;
    const quiet = await put(a.id, { name: 'Evented', instructions: 'new body text' });
    expect(quiet.status).toBe(200);
    expect((await h.events()).length).toBe(count);
  });

  it('18 AGT-004 a command body of {data} without why is accepted', async () => {
    const a = await h.agent();
    const r = await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: { name: 'no why' } });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe('no why');
  });
});

describe('reading agents', () => {
  it('18 AGT-104 AGT-105 AGT-029 AGT-050 GET by slug and by id answer the agent; call_secret_pending false by default', async () => {
    const a = await h.agent({ name: 'By Slug' });
    const bySlug = await h.call('GET', `/v1/agents/by-slug/${a.slug}`, OWNER);
    expect(bySlug.status).toBe(200);
    expect(bySlug.data.id).toBe(a.id);
    expect(bySlug.data.caller_role).toBe('owner');
    const byId = await get(a.id);
    expect(byId.call_secret_pending).toBe(false);
    expect(['active', 'expired', 'archive']).toContain(byId.status);
    expect((await h.call('GET', '/v1/agents/by-slug/no-such-agent', OWNER)).status).toBe(404);
    expect((await h.call('GET', `/v1/agents/by-slug/${a.slug}`, STRANGER)).status).toBe(404);
  });

  it('18 AGT-053 caller_role is owner, editor and viewer for each', async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    expect((await get(a.id, OWNER)).caller_role).toBe('owner');
    expect((await get(a.id, EDITOR)).caller_role).toBe('editor');
    expect((await get(a.id, VIEWER)).caller_role).toBe('viewer');
    expect((await h.call('GET', `/v1/agents/by-slug/${a.slug}`, VIEWER)).data.caller_role).toBe('viewer');
  });

  it('18 AGT-052 no agent response carries the call secret’s hash', async () => {
    const a = await h.agent({ name: 'Hashed' });
    const hash = `hash-${randomUUID()}`;
    await h.db.updateTable('agents').set({ call_secret_hash: hash }).where('id', '=', a.id).execute();
    const answers = [
      await h.call('GET', `/v1/agents/${a.id}`, OWNER),
      await h.call('GET', `/v1/agents/by-slug/${a.slug}`, OWNER),
      await h.call('GET', '/v1/agents', OWNER),
      await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: { name: 'Hashed again' } }),
      await h.call('GET', `/v1/agents/${a.id}/members`, OWNER),
    ];
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toContain(hash);
      expect(JSON.stringify(r.body)).not.toContain('call_secret_hash');
    }
    expect(answers[0]?.data.call_secret_pending).toBe(true);
  });

  it('18 AGT-054 an ephemeral agent carries ttl_at; a persistent one none', async () => {
    const parent = await h.agent();
    const e = await h.agent({ lifetime: 'ephemeral' }, { service: parent.id });
    expect(typeof e.ttl_at).toBe('string');
    expect(new Date(e.ttl_at as string).getTime()).toBe(h.now().getTime() + 4 * 3600_000);
    expect(parent.ttl_at).toBeNull();
  });
});

describe('ephemeral agents are read, not saved or deleted', () => {
  it('18 PUT and DELETE on an ephemeral agent are 409 ephemeral_agent and nothing is written; GET reads it', async () => {
    const parent = await h.agent();
    const e = await h.agent({ lifetime: 'ephemeral' }, { service: parent.id });
    const child = await childOf(h, parent);
    const before = await h.state();
    for (const id of [e.id, child.id]) {
      const saved = await put(id, { name: 'x' });
      expect(saved.status).toBe(409);
      expect(saved.body.payload.errors[0].code).toBe('ephemeral_agent');
      const deleted = await h.call('DELETE', `/v1/agents/${id}`, OWNER);
      expect(deleted.status).toBe(409);
      expect((await h.call('GET', `/v1/agents/${id}`, OWNER)).status).toBe(200);
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('deleting an agent', () => {
  it('18 AGT-110 the owner deletes a persistent agent and its children; then GET is 404; agent.deleted is published', async () => {
    const a = await h.agent();
    const child = await childOf(h, a);
    const r = await h.call('DELETE', `/v1/agents/${a.id}`, OWNER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ id: a.id, deleted: true });
    expect((await h.call('GET', `/v1/agents/${a.id}`, OWNER)).status).toBe(404);
    expect((await h.call('GET', `/v1/agents/${child.id}`, OWNER)).status).toBe(404);
    const deleted = (await h.events('agent.deleted')).filter((e) => e.payload.data.agent_id === a.id);
    expect(deleted.length).toBe(1);
    expect((await h.events('agent.stopped')).filter((e) => e.payload.data.agent_id === a.id)).toEqual([]);
  });

  it('18 deleting a running agent also publishes agent.stopped with reason delete', async () => {
    const a = await h.agent();
    await h.db.updateTable('agents').set({ desired_state: 'running' }).where('id', '=', a.id).execute();
    expect((await h.call('DELETE', `/v1/agents/${a.id}`, OWNER)).status).toBe(200);
    const stopped = (await h.events('agent.stopped')).filter((e) => e.payload.data.agent_id === a.id);
    expect(stopped.map((e) => e.payload.data.reason)).toEqual(['delete']);
  });

  it('18 AGT-322 AGT-111 an editor’s DELETE is 403 and the agent remains; an unknown agent is 404 on GET, PUT and DELETE', async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
    const before = await h.state();
    const r = await h.call('DELETE', `/v1/agents/${a.id}`, EDITOR);
    expect(r.status).toBe(403);
    expect(r.body.payload.errors[0].code).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
    const unknown = randomUUID();
    expect((await h.call('GET', `/v1/agents/${unknown}`, OWNER)).status).toBe(404);
    expect((await put(unknown, { name: 'x' })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/agents/${unknown}`, OWNER)).status).toBe(404);
    expect(await h.state()).toEqual(before);
  });
});
