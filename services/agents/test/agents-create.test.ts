import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fid, type Harness, harness, OWNER, STRANGER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('creating an agent', () => {
  it('18 AGT-014 AGT-023 AGT-026 AGT-039 AGT-046 AGT-021 a create without slug proposes one from the name; defaults as the spec says', async () => {
    const a = await h.agent({ name: 'Rent Roll Helper' });
    expect(a.slug).toBe('rent-roll-helper');
    expect(a.email).toBe('rent-roll-helper@agents.dev.company.com');
    expect(a.lifetime).toBe('persistent');
    expect(a.max_turns).toBe(10);
    expect(a.contributes_to_knowledge).toBe(false);
    expect(a.created_by).toBe(fid(OWNER));
    expect(a.owner_fid).toBe(fid(OWNER));
    expect(a.desired_state).toBe('stopped');
    expect(a.generation).toBe(1);
    const again = await h.agent({ name: 'Rent Roll Helper' });
    expect(again.slug).toBe('rent-roll-helper-2');
    expect((await h.events('agent.created')).length).toBeGreaterThanOrEqual(2);
  });

  it('18 AGT-027 a person creating an ephemeral agent is 422 and nothing is written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/agents', OWNER, { data: { name: 'x', lifetime: 'ephemeral' } });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].code).toBe('ephemeral_not_allowed');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-111 AGT-327 an unknown agent and an agent the caller has no role on are both 404', async () => {
    const a = await h.agent();
    expect((await h.call('GET', `/v1/agents/${a.id}`, STRANGER)).status).toBe(404);
    expect((await h.call('GET', '/v1/agents/01900000-0000-7000-8000-000000000000', OWNER)).status).toBe(404);
    const mine = await h.call('GET', `/v1/agents/${a.id}`, OWNER);
    expect(mine.status).toBe(200);
    expect(mine.data.caller_role).toBe('owner');
  });
});
