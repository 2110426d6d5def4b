import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsage } from '../src/store/usage-writes.ts';
import { ADMIN, fid, type Harness, harness, OTHER, STAFF, tag } from './harness.ts';

let h: Harness;
const SERVICE = { service: null };
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

const post = (data: Record<string, unknown>, as: Parameters<Harness['call']>[2] = SERVICE) =>
  h.call('POST', '/v1/people', as, { data });

const rowsOf = (email: string) => h.db.selectFrom('identities').selectAll().where('email', '=', email).execute();

describe('GET /v1/people', () => {
  it('BRK-039 q matches part of the email, in any case', async () => {
    const t = tag();
    const email = `findme-${t}@broker.test`;
    await post({ email, name: 'Quiet Person', kind: 'person' });
    const r = await h.call('GET', `/v1/people?q=FINDME-${t.toUpperCase()}`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data.map((p: { email: string }) => p.email)).toEqual([email]);
  });

  it('BRK-040 q matches part of the name, in any case', async () => {
    const t = tag();
    const email = `n-${t}@broker.test`;
    await post({ email, name: `Marguerite ${t} Okafor`, kind: 'person' });
    const r = await h.call('GET', `/v1/people?q=${encodeURIComponent(`rite ${t} oka`)}`, ADMIN);
    expect(r.data.map((p: { email: string }) => p.email)).toEqual([email]);
  });

  it('BRK-039 q treats % and _ as plain characters', async () => {
    const r = await h.call('GET', '/v1/people?q=%25', ADMIN);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([]);
  });

  it('BRK-041 BRK-042 people_only=true omits agents and services', async () => {
    const t = tag();
    await post({ email: `po-person-${t}@broker.test`, kind: 'person' });
    await post({ email: `po-agent-${t}@broker.test`, kind: 'agent' });
    await post({ email: `po-service-${t}@broker.test`, kind: 'service' });
    const all = await h.call('GET', `/v1/people?q=po-&people_only=false`, ADMIN);
    expect(new Set(all.data.map((p: { kind: string }) => p.kind))).toEqual(new Set(['person', 'agent', 'service']));
    const only = await h.call('GET', `/v1/people?q=po-&people_only=true`, ADMIN);
    expect(only.data.length).toBeGreaterThan(0);
    expect(only.data.every((p: { kind: string }) => p.kind === 'person')).toBe(true);
  });

  it('BRK-181 a platform admin reads every person; BRK-172 others only themselves and what they created', async () => {
    const t = tag();
    const creator = `lead-${t}@broker.test`;
    await h.call('GET', '/v1/catalog', creator);
    await post({ email: `bot-${t}@mail.broker.test`, creator_email: creator });
    await post({ email: `stranger-${t}@broker.test`, kind: 'person' });
    const admin = await h.call('GET', `/v1/people?q=${t}`, ADMIN);
    expect(admin.data).toHaveLength(3);
    const mine = await h.call('GET', `/v1/people?q=${t}`, creator);
    expect(mine.status).toBe(200);
    expect(mine.data.map((p: { email: string }) => p.email)).toEqual([`bot-${t}@mail.broker.test`, creator]);
  });

  it('BRK-002 pages by email with pagination meta', async () => {
    const t = tag();
    for (const n of ['c', 'a', 'b']) await post({ email: `${n}-page-${t}@broker.test`, kind: 'person' });
    const r = await h.call('GET', `/v1/people?q=page-${t}&pagination[pageSize]=2&pagination[page]=1`, ADMIN);
    expect(r.data.map((p: { email: string }) => p.email[0])).toEqual(['a', 'b']);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 2, totalItems: 3, totalPages: 2 });
    const tooBig = await h.call('GET', '/v1/people?pagination[pageSize]=501', ADMIN);
    expect(tooBig.status).toBe(422);
  });

  it('BRK-171 GET /v1/people without credentials is 401', async () => {
    expect((await h.call('GET', '/v1/people', null)).status).toBe(401);
  });
});

describe('POST /v1/people', () => {
  it('BRK-043 BRK-178 the service token creates an identity, an agent unless told otherwise', async () => {
    const email = `Mailbox-${tag()}@Mail.Broker.Test`;
    const r = await post({ email });
    expect(r.status).toBe(201);
    const lower = email.toLowerCase();
    expect(r.data).toMatchObject({ fid: fid(lower), email: lower, kind: 'agent', name: lower.split('@')[0] });
    const listed = await h.call('GET', `/v1/people?q=${encodeURIComponent(lower)}`, ADMIN);
    expect(listed.data.map((p: { fid: string }) => p.fid)).toEqual([fid(lower)]);
  });

  it('BRK-044 updates an existing identity by email: new values, no second row', async () => {
    const email = `upd-${tag()}@broker.test`;
    await post({ email, name: 'First', kind: 'agent' });
    const r = await post({ email, name: 'Second', kind: 'service' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ email, name: 'Second', kind: 'service' });
    const rows = await rowsOf(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Second', kind: 'service' });
    // Fields not sent are kept.
    const again = await post({ email });
    expect(again.data).toMatchObject({ name: 'Second', kind: 'service' });
  });

  it('BRK-045 creator_email groups usage under that person in GET /v1/budgets/groups', async () => {
    const t = tag();
    const person = `owner-${t}@broker.test`;
    const agent = `helper-${t}@mail.broker.test`;
    const r = await post({ email: agent, kind: 'agent', creator_email: person });
    expect(r.data).toMatchObject({ creator_fid: fid(person), creator_email: person });
    // The creator was unknown: they join the roster as a person.
    expect((await rowsOf(person))[0]).toMatchObject({ kind: 'person', fid: fid(person) });
    await insertUsage(h.db, [usageRow(fid(agent), 700_000), usageRow(fid(person), 300_000)]);
    const groups = await h.call('GET', `/v1/budgets/groups?actor=${person}`, ADMIN);
    expect(groups.status).toBe(200);
    expect(groups.data).toHaveLength(1);
    expect(groups.data[0]).toMatchObject({ person_fid: fid(person), identity_count: 2, spend_micros: 1_000_000 });
    expect(groups.data[0].members.map((m: { email: string }) => m.email)).toEqual([person, agent]);
  });

  it('BRK-045 an identity cannot be its own creator, and a person has none', async () => {
    const email = `self-${tag()}@broker.test`;
    const own = await post({ email, creator_email: email });
    expect(own.status).toBe(422);
    expect(own.errors[0]).toMatchObject({ code: 'bad_creator', field: 'body/data/creator_email' });
    const person = await post({ email, kind: 'person', creator_email: STAFF });
    expect(person.status).toBe(422);
    expect(await rowsOf(email)).toHaveLength(0);
  });

  it('BRK-172 a staff caller may not POST /v1/people and nothing is written', async () => {
    const email = `refused-${tag()}@broker.test`;
    const r = await post({ email }, OTHER);
    expect(r.status).toBe(403);
    expect(await rowsOf(email)).toHaveLength(0);
  });

  it('BRK-003 a POST without Idempotency-Key is 400 and writes nothing', async () => {
    const email = `nokey-${tag()}@broker.test`;
    const r = await h.call('POST', '/v1/people', SERVICE, { data: { email } }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await rowsOf(email)).toHaveLength(0);
  });

  it('BRK-004 a body of {data} alone is accepted; unknown fields and bad emails are 422', async () => {
    const extra = await post({ email: `x-${tag()}@broker.test`, role: 'admin' });
    expect(extra.status).toBe(422);
    expect(extra.errors[0].field).toBe('body/data/role');
    const bad = await post({ email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(bad.errors[0].field).toBe('body/data/email');
  });

  it('BRK-048 a replayed key answers the first result without a second write', async () => {
    const email = `replay-${tag()}@broker.test`;
    const key = randomUUID();
    const first = await h.call('POST', '/v1/people', SERVICE, { data: { email, name: 'One' } }, key);
    const second = await h.call('POST', '/v1/people', SERVICE, { data: { email, name: 'One' } }, key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.data).toEqual(first.data);
  });
});

function usageRow(actor: string, cost: number) {
  return {
    id: randomUUID(),
    occurred_at: h.now(),
    actor_fid: actor,
    provider: 'openai',
    provider_kind: 'openai',
    model: 'gpt-4.1-mini',
    requested_model: null,
    request_kind: 'chat',
    input_tokens: 10,
    output_tokens: 5,
    cache_read_tokens: 0,
    cost_micros: cost,
    cache_savings_micros: 0,
    routing_savings_micros: 0,
    source: 'report' as const,
    estimated: false,
  };
}
