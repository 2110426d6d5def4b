import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../src/store/usage-writes.ts';
import { insertUsage } from '../src/store/usage-writes.ts';
import { ADMIN, fid, type Harness, harness } from './harness.ts';

/** A person with an agent and a service identity, another person, and someone who never spent. */
const P = 'bea@budgets.test';
const A = 'bea-bot@mail.budgets.test';
const S = 'bea-svc@service.broker';
const Q = 'cal@budgets.test';
const IDLE = 'idle@budgets.test';

let h: Harness;

const usage = (who: string, at: string, cost: number, tokens: [number, number]): UsageRecord => ({
  id: randomUUID(),
  occurred_at: new Date(at),
  actor_fid: fid(who),
  provider: 'openai',
  provider_kind: 'openai',
  model: 'gpt-4.1-mini',
  requested_model: null,
  request_kind: 'chat',
  input_tokens: tokens[0],
  output_tokens: tokens[1],
  cache_read_tokens: 0,
  cost_micros: cost,
  cache_savings_micros: 0,
  routing_savings_micros: 0,
  source: 'report',
  estimated: false,
});

beforeAll(async () => {
  h = await harness({ now: '2025-06-16T15:00:00Z' });
  for (const who of [P, Q, IDLE]) await h.call('GET', '/v1/catalog', who);
  const service = { service: null };
  h.expectStatus('agent', await h.call('POST', '/v1/people', service, { data: { email: A, creator_email: P } }), 201);
  h.expectStatus(
    'service',
    await h.call('POST', '/v1/people', service, { data: { email: S, kind: 'service', creator_email: P } }),
    201,
  );
  await insertUsage(h.db, [
    usage(P, '2025-06-02T10:00:00Z', 1_234_567, [1000, 100]),
    usage(A, '2025-06-03T10:00:00Z', 2_000_000, [2000, 200]),
    usage(S, '2025-06-04T10:00:00Z', 4_000_000, [4000, 400]),
    usage(Q, '2025-06-05T10:00:00Z', 8_000_000, [8000, 800]),
    // Last month: not this month's spend.
    usage(P, '2025-05-31T23:59:59Z', 50_000_000, [9, 9]),
  ]);
});
afterAll(() => h.close_());

type Row = Record<string, unknown>;
const list = async (url: string, as: Parameters<Harness['call']>[2] = ADMIN) => {
  const r = await h.call('GET', url, as);
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.data as Row[];
};
const byEmail = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.email as string, r]));
const ours = (rows: Row[]) => rows.filter((r) => String(r.email).includes('budgets.test') || r.email === S);
const putLimit = (url: string, limit: unknown, as: Parameters<Harness['call']>[2] = ADMIN) =>
  h.call('PUT', url, as, { data: { limit } });

describe('the default budget', () => {
  it('BRK-072 GET /v1/budgets/default returns the default limit in cents', async () => {
    const r = await h.call('GET', '/v1/budgets/default', P);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ limit: 10_000, service_limit: 0, updated_by: null, updated_at: null });
  });

  it('14.4 BRK-073 an admin may set the service credentials’ default beside the default; omitted, it is kept', async () => {
    const r = await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 10_000, service_limit: 500 } });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ limit: 10_000, service_limit: 500 });
    h.expectStatus('keep', await putLimit('/v1/budgets/default', 10_000), 200);
    expect((await h.call('GET', '/v1/budgets/default', P)).data.service_limit).toBe(500);
    const bad = await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 10_000, service_limit: -1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.payload.errors[0].code).toBe('bad_limit');
    h.expectStatus(
      'restore',
      await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 10_000, service_limit: 0 } }),
      200,
    );
  });

  it('BRK-073 BRK-182 an admin sets the default; GET then shows it', async () => {
    const r = await putLimit('/v1/budgets/default', 25_000);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ limit: 25_000, updated_by: ADMIN, updated_at: '2025-06-16T15:00:00.000Z' });
    expect((await h.call('GET', '/v1/budgets/default', Q)).data.limit).toBe(25_000);
    const rows = byEmail(await list('/v1/budgets'));
    expect(rows[IDLE].limit).toBe(25_000);
    h.expectStatus('restore', await putLimit('/v1/budgets/default', 10_000), 200);
  });

  it('BRK-182 a non-admin may not set the default: 403, nothing written', async () => {
    const r = await putLimit('/v1/budgets/default', 1, P);
    expect(r.status).toBe(403);
    expect((await h.call('GET', '/v1/budgets/default', P)).data.limit).toBe(10_000);
  });

  it('BRK-088 a bad limit is 422 bad_limit and nothing is written', async () => {
    for (const bad of [-1, 1.5, '100', null, 100_000_001]) {
      const r = await putLimit('/v1/budgets/default', bad);
      expect(r.status, String(bad)).toBe(422);
      expect(r.errors[0], String(bad)).toMatchObject({ code: 'bad_limit', field: 'body/data/limit' });
      const o = await putLimit(`/v1/budgets/${Q}`, bad);
      expect(o.status, String(bad)).toBe(422);
      expect(o.errors[0].code).toBe('bad_limit');
    }
    const missing = await h.call('PUT', '/v1/budgets/default', ADMIN, { data: {} });
    expect(missing.status).toBe(422);
    expect(missing.errors[0]).toMatchObject({ code: 'bad_limit', field: 'body/data/limit' });
    expect((await h.call('GET', '/v1/budgets/default', ADMIN)).data.limit).toBe(10_000);
    expect(await h.count('budget_overrides')).toBe(0);
  });

  it('BRK-003 a budget PUT without Idempotency-Key is 400 and writes nothing', async () => {
    const r = await h.call('PUT', '/v1/budgets/default', ADMIN, { data: { limit: 5 } }, null);
    expect(r.status).toBe(400);
    expect((await h.call('GET', '/v1/budgets/default', ADMIN)).data.limit).toBe(10_000);
  });
});

describe('GET /v1/budgets', () => {
  it('BRK-074 BRK-075 every known person has a row with this month’s spend and the default as effective limit', async () => {
    const rows = byEmail(await list('/v1/budgets'));
    expect(rows[P]).toEqual({
      actor_fid: fid(P),
      email: P,
      name: 'bea',
      kind: 'person',
      month: '2025-06',
      spend: 123,
      spend_micros: 1_234_567,
      token_count: 1100,
      limit: 10_000,
      override: null,
      over_budget: false,
    });
    expect(rows[IDLE]).toMatchObject({ spend: 0, spend_micros: 0, token_count: 0, limit: 10_000 });
    expect(rows[Q]).toMatchObject({ spend: 800, limit: 10_000 });
  });

  it('BRK-017 BRK-018 BRK-019 rows carry kind, spend, limit, token_count, spend_micros; agents and services their creator', async () => {
    const rows = ours(await list('/v1/budgets'));
    for (const r of rows) {
      expect(['person', 'agent', 'service']).toContain(r.kind);
      for (const k of ['spend', 'limit', 'token_count', 'spend_micros']) expect(Number.isInteger(r[k]), k).toBe(true);
      if (r.kind !== 'person') expect(r).toMatchObject({ creator_fid: fid(P), creator_name: 'bea' });
      else expect(r).not.toHaveProperty('creator_fid');
    }
    expect(byEmail(rows)[S]).toMatchObject({ kind: 'service', spend_micros: 4_000_000, spend: 400 });
  });

  it('BRK-076 show=people lists people only', async () => {
    const rows = await list('/v1/budgets?show=people');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.kind === 'person')).toBe(true);
  });

  it('BRK-077 show=services lists services only; agents show under show=agents', async () => {
    const rows = await list('/v1/budgets?show=services');
    expect(rows.every((r) => r.kind === 'service')).toBe(true);
    expect(rows.map((r) => r.email)).toContain(S);
    const agents = await list('/v1/budgets?show=agents');
    expect(agents.map((r) => r.email)).toEqual([A]);
  });

  it('BRK-078 actor limits the list to one person and what they created', async () => {
    const rows = await list(`/v1/budgets?actor=${P}`);
    expect(rows.map((r) => r.email).sort()).toEqual([A, P, S].sort());
    const byFid = await list(`/v1/budgets?actor=${fid(P)}&show=services`);
    expect(byFid.map((r) => r.email)).toEqual([S]);
    const unknown = await h.call('GET', '/v1/budgets?actor=nobody@budgets.test', ADMIN);
    expect(unknown.status).toBe(404);
  });

  it('BRK-181 non-admins see themselves and what they created; naming anyone else is 403', async () => {
    expect((await list('/v1/budgets', P)).map((r) => r.email).sort()).toEqual([A, P, S].sort());
    expect((await list('/v1/budgets', Q)).map((r) => r.email)).toEqual([Q]);
    expect((await h.call('GET', `/v1/budgets?actor=${P}`, Q)).status).toBe(403);
    expect((await h.call('GET', `/v1/budgets/groups?actor=${P}`, Q)).status).toBe(403);
  });

  it('BRK-002 the list is paged', async () => {
    const r = await h.call('GET', '/v1/budgets?pagination[pageSize]=2', ADMIN);
    expect(r.data).toHaveLength(2);
    expect(r.meta.pagination).toMatchObject({ page: 1, pageSize: 2 });
    expect(r.meta.pagination.totalItems).toBeGreaterThanOrEqual(5);
  });
});

describe('GET /v1/budgets/groups', () => {
  it('BRK-079 BRK-080 BRK-081 one row per person summing what they created, the person first', async () => {
    const groups = await list('/v1/budgets/groups');
    const emails = groups.map((g) => g.email);
    expect(new Set(emails).size).toBe(emails.length);
    const bea = groups.find((g) => g.person_fid === fid(P)) as Row & { members: Row[] };
    expect(bea).toMatchObject({
      email: P,
      name: 'bea',
      kind: 'person',
      identity_count: 3,
      spend_micros: 7_234_567,
      spend: 723,
      token_count: 7700,
    });
    expect(bea.members.map((m) => m.email)).toEqual([P, A, S]);
    expect(bea.members[0]).toMatchObject({ kind: 'person', spend_micros: 1_234_567 });
    // The agent and the service are in their creator's group, not groups of their own.
    expect(groups.some((g) => g.person_fid === fid(A) || g.person_fid === fid(S))).toBe(false);
  });

  it('BRK-082 show narrows the groups as on GET /v1/budgets', async () => {
    const services = await list('/v1/budgets/groups?show=services');
    const bea = services.find((g) => g.person_fid === fid(P)) as Row & { members: Row[] };
    expect(bea.members.map((m) => m.email)).toEqual([S]);
    expect(bea).toMatchObject({ identity_count: 1, spend_micros: 4_000_000 });
    expect(services.some((g) => g.person_fid === fid(Q))).toBe(false);
    const people = await list('/v1/budgets/groups?show=people');
    for (const g of people as (Row & { members: Row[] })[]) {
      expect(g.members.every((m) => m.kind === 'person')).toBe(true);
    }
    expect(people.find((g) => g.person_fid === fid(P))).toMatchObject({ identity_count: 1, spend_micros: 1_234_567 });
  });

  it('BRK-083 actor limits the groups to that person', async () => {
    const groups = await list(`/v1/budgets/groups?actor=${P}`);
    expect(groups.map((g) => g.person_fid)).toEqual([fid(P)]);
    const mine = await list('/v1/budgets/groups', Q);
    expect(mine.map((g) => g.person_fid)).toEqual([fid(Q)]);
  });
});

describe('one identity’s budget', () => {
  it('BRK-084 BRK-181 GET /v1/budgets/{actor} returns one person by email or FID (admins: anyone)', async () => {
    const r = await h.call('GET', `/v1/budgets/${P}`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ actor_fid: fid(P), spend: 123, spend_micros: 1_234_567, limit: 10_000 });
    const byFid = await h.call('GET', `/v1/budgets/${fid(Q)}`, ADMIN);
    expect(byFid.data).toMatchObject({ email: Q, spend: 800 });
    expect((await h.call('GET', `/v1/budgets/${A}`, P)).status).toBe(200);
    expect((await h.call('GET', `/v1/budgets/${P}`, Q)).status).toBe(403);
  });

  it('BRK-085 an unknown person is 404 person_not_found', async () => {
    const r = await h.call('GET', '/v1/budgets/ghost@budgets.test', ADMIN);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('person_not_found');
    const put = await putLimit('/v1/budgets/ghost@budgets.test', 5);
    expect(put.status).toBe(404);
    expect(await h.count('budget_overrides')).toBe(0);
  });

  it('BRK-086 BRK-182 PUT sets the override: GET then shows it as the effective limit', async () => {
    const r = await putLimit(`/v1/budgets/${Q}`, 500);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ email: Q, limit: 500, override: 500, spend: 800, over_budget: true });
    expect((await h.call('GET', `/v1/budgets/${Q}`, Q)).data).toMatchObject({ limit: 500, override: 500 });
    const row = await h.db
      .selectFrom('budget_overrides')
      .selectAll()
      .where('actor_fid', '=', fid(Q))
      .executeTakeFirst();
    expect(row).toMatchObject({ set_by: ADMIN });
    expect(Number(row?.limit_cents)).toBe(500);
  });

  it('BRK-087 BRK-182 DELETE clears the override: the effective limit is the default again', async () => {
    h.expectStatus('set', await putLimit(`/v1/budgets/${P}`, 42), 200);
    const r = await h.call('DELETE', `/v1/budgets/${P}`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ email: P, limit: 10_000, override: null });
    expect((await h.call('GET', `/v1/budgets/${P}`, ADMIN)).data.limit).toBe(10_000);
  });

  it('BRK-182 a non-admin’s PUT and DELETE are 403 and change nothing', async () => {
    expect((await putLimit(`/v1/budgets/${P}`, 1, P)).status).toBe(403);
    expect((await h.call('DELETE', `/v1/budgets/${Q}`, Q)).status).toBe(403);
    expect((await h.call('GET', `/v1/budgets/${Q}`, ADMIN)).data.override).toBe(500);
    expect((await h.call('GET', `/v1/budgets/${P}`, ADMIN)).data.override).toBeNull();
  });
});

describe('14.5 budgets are not managed through the shared service token', () => {
  const rows = async () => ({
    settings: await h.db.selectFrom('budget_settings').selectAll().execute(),
    overrides: await h.db.selectFrom('budget_overrides').selectAll().orderBy('actor_fid').execute(),
  });

  it('14.5 BRK-182 through the service token a platform admin’s (or Super Admin’s) PUT and DELETE of budgets are 403, nothing written; the same admin directly may', async () => {
    h.expectStatus('set', await putLimit(`/v1/budgets/${Q}`, 500), 200);
    const before = await rows();
    for (const who of [ADMIN, 'superadmin@dev.local']) {
      const as = { service: who };
      for (const r of [
        await putLimit('/v1/budgets/default', 1, as),
        await putLimit(`/v1/budgets/${P}`, 1, as),
        await h.call('DELETE', `/v1/budgets/${Q}`, as),
      ]) {
        expect(r.status, who).toBe(403);
        expect(r.errors[0].code).toBe('forbidden');
      }
    }
    expect(await rows()).toEqual(before);
    // Reading everyone's budgets is not a change: it still goes through.
    expect((await h.call('GET', `/v1/budgets/${Q}`, { service: ADMIN })).status).toBe(200);

    h.expectStatus('direct put', await putLimit(`/v1/budgets/${P}`, 77), 200);
    h.expectStatus('direct delete', await h.call('DELETE', `/v1/budgets/${P}`, ADMIN), 200);
    h.expectStatus('direct default', await putLimit('/v1/budgets/default', 10_000), 200);
  });
});
