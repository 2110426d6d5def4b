import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Mem = {
  id: string;
  content: string;
  tier: string;
  source: string;
  recall_count: number;
  last_recalled_at: string | null;
};

/** An agent with an editor and a viewer (members written straight to the table: members are another area). */
async function sharedAgent() {
  const a = await h.agent();
  await h.db
    .insertInto('agent_members')
    .values([
      { agent_id: a.id, principal_fid: fid(EDITOR), role: 'editor', added_at: h.now() },
      { agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() },
    ])
    .execute();
  return a;
}

const remember = (a: AgentData, content: string, as: Parameters<Harness['ok']>[4] = { service: null }, tier?: string) =>
  h.ok<Mem>('POST', `/v1/agents/${a.id}/memories`, { content, ...(tier ? { tier } : {}) }, 201, as);
const list = async (a: AgentData, query = '', as: Parameters<Harness['call']>[2] = OWNER) =>
  (await h.call('GET', `/v1/agents/${a.id}/memories${query}`, as)).data as Mem[];

describe('memories', () => {
  it('18 AGT-201 AGT-202 the harness writes source agent, archive (whatever tier it sends); a person writes core', async () => {
    const a = await sharedAgent();
    const fromHarness = await remember(a, 'The landlord prefers email', { service: null }, 'core');
    expect(fromHarness).toMatchObject({ source: 'agent', tier: 'archive' });
    const fromAgentHeader = await remember(a, 'Rent is due on the first', { service: a.id });
    expect(fromAgentHeader).toMatchObject({ source: 'agent', tier: 'archive' });
    const fromPerson = await remember(a, 'Always copy the property manager', EDITOR);
    expect(fromPerson).toMatchObject({ source: 'person', tier: 'core', created_by: fid(EDITOR) });
    const archived = await remember(a, 'Old note', OWNER, 'archive');
    expect(archived).toMatchObject({ source: 'person', tier: 'archive' });
  });

  it('18 AGT-199 AGT-200 the list is newest first and q keeps only matching rows', async () => {
    const a = await h.agent();
    for (const [i, content] of [
      'Boiler serviced in May',
      'Tenant in 4B pays late',
      'Boiler pressure low',
      'Gate code 1234',
    ].entries()) {
      h.setNow(`2026-03-02T14:0${i}:00Z`);
      await remember(a, content);
    }
    h.setNow('2026-03-02T12:00:00Z');
    const all = await list(a);
    expect(all.map((m) => m.content)).toEqual([
      'Gate code 1234',
      'Boiler pressure low',
      'Tenant in 4B pays late',
      'Boiler serviced in May',
    ]);
    const boiler = await list(a, '?q=boiler');
    expect(boiler.map((m) => m.content)).toEqual(['Boiler pressure low', 'Boiler serviced in May']);
    for (const m of boiler) expect(m.content.toLowerCase()).toContain('boiler');
    expect(await list(a, '?q=100%25')).toEqual([]);
    const page = await h.call('GET', `/v1/agents/${a.id}/memories?pagination[pageSize]=3&pagination[page]=2`);
    expect(page.data.map((m: Mem) => m.content)).toEqual(['Boiler serviced in May']);
    expect(page.body.payload.meta.pagination.totalItems).toBe(4);
  });

  it('18 AGT-203 AGT-204 purging needs an editor: a viewer gets 403 and nothing goes; an editor empties the list', async () => {
    const a = await sharedAgent();
    await remember(a, 'one');
    await remember(a, 'two');
    const before = await h.state();
    const viewer = await h.call('DELETE', `/v1/agents/${a.id}/memories`, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.body.payload.errors[0].code).toBe('insufficient_role');
    const service = await h.call('DELETE', `/v1/agents/${a.id}/memories`, { service: null });
    expect(service.status).toBe(403);
    expect(service.body.payload.errors[0].code).toBe('service_token_not_allowed');
    expect((await h.call('DELETE', `/v1/agents/${a.id}/memories`, STRANGER)).status).toBe(404);
    expect(await h.state()).toEqual(before);
    const purged = await h.ok('DELETE', `/v1/agents/${a.id}/memories`, undefined, 200, EDITOR);
    expect(purged).toEqual({ agent_id: a.id, deleted: 2 });
    expect(await list(a)).toEqual([]);
  });

  it('18 AGT-205 AGT-206 an editor pins and demotes one memory and drops one, leaving the others', async () => {
    const a = await sharedAgent();
    const m1 = await remember(a, 'first');
    const m2 = await remember(a, 'second');
    const pinned = await h.ok<Mem>('PATCH', `/v1/agents/${a.id}/memories/${m1.id}`, { tier: 'core' }, 200, EDITOR);
    expect(pinned.tier).toBe('core');
    const demoted = await h.ok<Mem>('PATCH', `/v1/agents/${a.id}/memories/${m1.id}`, { tier: 'archive' }, 200, OWNER);
    expect(demoted.tier).toBe('archive');
    await h.ok('DELETE', `/v1/agents/${a.id}/memories/${m2.id}`, undefined, 200, EDITOR);
    expect((await list(a)).map((m) => m.id)).toEqual([m1.id]);
    const gone = await h.call('DELETE', `/v1/agents/${a.id}/memories/${m2.id}`, EDITOR);
    expect(gone.status).toBe(404);
    expect(gone.body.payload.errors[0].code).toBe('memory_not_found');
  });

  it('18 AGT-207 AGT-208 a viewer (403 insufficient_role) and a shared service token (403) change no memory', async () => {
    const a = await sharedAgent();
    const m = await remember(a, 'keep me');
    const before = await h.state();
    for (const as of [VIEWER, { service: null }, { service: a.id }] as const) {
      const patch = await h.call('PATCH', `/v1/agents/${a.id}/memories/${m.id}`, as, { data: { tier: 'core' } });
      const del = await h.call('DELETE', `/v1/agents/${a.id}/memories/${m.id}`, as);
      const code = as === VIEWER ? 'insufficient_role' : 'service_token_not_allowed';
      for (const r of [patch, del]) {
        expect(r.status).toBe(403);
        expect(r.body.payload.errors[0].code).toBe(code);
      }
    }
    expect(await h.state()).toEqual(before);
    expect((await list(a))[0]).toMatchObject({ id: m.id, tier: 'archive' });
  });

  it('18 AGT-209 the harness consolidates several memories into one; a pin survives; unknown ids change nothing', async () => {
    const a = await h.agent();
    const m1 = await remember(a, 'Boiler serviced in May');
    const m2 = await remember(a, 'Boiler serviced again in June');
    const keep = await remember(a, 'Unrelated');
    await h.ok('PATCH', `/v1/agents/${a.id}/memories/${m2.id}`, { tier: 'core' }, 200, OWNER);
    await h.ok('POST', `/v1/agents/${a.id}/memories/touch`, { ids: [m1.id, m2.id] }, 200, { service: null });
    const other = await h.agent();
    const foreign = await remember(other, 'not yours');
    const before = await h.state();
    const refused = await h.call(
      'POST',
      `/v1/agents/${a.id}/memories/consolidate`,
      { service: null },
      {
        data: { merge: [m1.id, foreign.id], content: 'x' },
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.payload.errors[0].code).toBe('unknown_memory');
    expect(await h.state()).toEqual(before);
    const r = await h.ok<{ memory: Mem & { merged_count: number }; replaced: string[] }>(
      'POST',
      `/v1/agents/${a.id}/memories/consolidate`,
      { merge: [m1.id, m2.id], content: 'Boiler serviced in May and June' },
      201,
      { service: a.id },
    );
    expect(r.memory).toMatchObject({
      content: 'Boiler serviced in May and June',
      tier: 'core',
      merged_count: 2,
      recall_count: 2,
    });
    expect(r.replaced).toEqual([m1.id, m2.id]);
    expect((await list(a)).map((m) => m.id).sort()).toEqual([keep.id, r.memory.id].sort());
  });

  it('18 AGT-210 touch sets last_recalled_at and counts recalls; ids the agent does not hold are skipped', async () => {
    const a = await h.agent();
    const m = await remember(a, 'recall me');
    const untouched = await remember(a, 'leave me');
    h.setNow('2026-03-03T09:00:00Z');
    const first = await h.ok<{ touched: number; ids: string[] }>(
      'POST',
      `/v1/agents/${a.id}/memories/touch`,
      { ids: [m.id, '01900000-0000-7000-8000-000000000000'] },
      200,
      { service: null },
    );
    expect(first).toMatchObject({ touched: 1, ids: [m.id] });
    await h.ok('POST', `/v1/agents/${a.id}/memories/touch`, { ids: [m.id] }, 200, { service: null });
    h.setNow('2026-03-02T12:00:00Z');
    const rows = await list(a);
    expect(rows.find((r) => r.id === m.id)).toMatchObject({
      recall_count: 2,
      last_recalled_at: '2026-03-03T09:00:00.000Z',
    });
    expect(rows.find((r) => r.id === untouched.id)).toMatchObject({ recall_count: 0, last_recalled_at: null });
  });

  it('18 AGT-327 memories of an agent the caller cannot see are 404; a viewer reads and may not write', async () => {
    const a = await sharedAgent();
    await remember(a, 'secret');
    expect((await h.call('GET', `/v1/agents/${a.id}/memories`, STRANGER)).status).toBe(404);
    expect((await list(a, '', VIEWER)).length).toBe(1);
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${a.id}/memories`, VIEWER, { data: { content: 'x' } });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });
});
