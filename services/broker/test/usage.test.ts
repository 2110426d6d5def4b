import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../src/store/usage-writes.ts';
import { insertUsage } from '../src/store/usage-writes.ts';
import { ADMIN, fid, type Harness, harness, tag } from './harness.ts';

/** A person, the agent and the service they created, and someone else. */
const P = 'pat@usage.test';
const A = 'pat-bot@mail.usage.test';
const S = 'svc-pat@service.broker';
const Q = 'quinn@usage.test';

let h: Harness;

const row = (
  who: string,
  at: string,
  provider: string,
  model: string,
  cost: number,
  extra: Partial<UsageRecord> = {},
): UsageRecord => ({
  id: randomUUID(),
  occurred_at: new Date(at),
  actor_fid: fid(who),
  provider,
  provider_kind: provider === 'anthropic' ? 'anthropic' : 'openai',
  model,
  requested_model: null,
  request_kind: provider === 'anthropic' ? 'messages' : 'chat',
  input_tokens: 100,
  output_tokens: 10,
  cache_read_tokens: 20,
  cost_micros: cost,
  cache_savings_micros: cost / 10,
  routing_savings_micros: 0,
  source: 'relay',
  estimated: false,
  ...extra,
});

beforeAll(async () => {
  h = await harness({ now: '2025-06-16T15:00:00Z' });
  for (const who of [P, Q]) await h.call('GET', '/v1/catalog', who);
  const service = { service: null };
  h.expectStatus('agent', await h.call('POST', '/v1/people', service, { data: { email: A, creator_email: P } }), 201);
  h.expectStatus(
    'service',
    await h.call('POST', '/v1/people', service, { data: { email: S, kind: 'service', creator_email: P } }),
    201,
  );
  // Costs are distinct powers of two, so every sum names the rows it adds up.
  await insertUsage(h.db, [
    row(P, '2025-06-01T10:00:00Z', 'openai', 'gpt-4.1-mini', 1000),
    row(P, '2025-06-10T10:00:00Z', 'anthropic', 'claude-haiku-4-5', 2000),
    row(A, '2025-06-10T11:00:00Z', 'openai', 'gpt-4.1-mini', 4000),
    row(A, '2025-06-16T09:00:00Z', 'openai', 'gpt-4.1-nano', 8000, {
      requested_model: 'gpt-4.1',
      routing_savings_micros: 500,
    }),
    row(S, '2025-06-16T10:00:00Z', 'anthropic', 'claude-haiku-4-5', 16000),
    row(Q, '2025-06-10T12:00:00Z', 'openai', 'gpt-4.1-mini', 32000),
    row(P, '2025-05-31T23:00:00Z', 'openai', 'gpt-4.1-mini', 64000),
  ]);
});
afterAll(() => h.close_());

type Row = Record<string, string | number>;
const costs = (rows: Row[]) => rows.map((r) => r.cost_micros);
const get = async (url: string, as: Parameters<Harness['call']>[2] = ADMIN) => {
  const r = await h.call('GET', url, as);
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.data as Row[];
};

describe('GET /v1/usage', () => {
  it('BRK-059 without group there is one row per day, this month so far by default; BRK-011 days are YYYY-MM-DD', async () => {
    const rows = await get('/v1/usage', P);
    expect(rows.map((r) => [r.day, r.cost_micros, r.calls])).toEqual([
      ['2025-06-01', 1000, 1],
      ['2025-06-10', 6000, 2],
      ['2025-06-16', 24000, 2],
    ]);
    expect(rows[0]).toEqual({
      day: '2025-06-01',
      calls: 1,
      input_tokens: 100,
      output_tokens: 10,
      cache_read_tokens: 20,
      cost_micros: 1000,
      cache_savings_micros: 100,
      routing_savings_micros: 0,
    });
  });

  it('BRK-052 filters by from: no row is before from', async () => {
    const rows = await get(`/v1/usage?person=${P}&from=2025-06-10&to=2025-06-30`);
    expect(rows.map((r) => r.day)).toEqual(['2025-06-10', '2025-06-16']);
    const earlier = await get(`/v1/usage?person=${P}&from=2025-05-31&to=2025-06-01`);
    expect(earlier.map((r) => [r.day, r.cost_micros])).toEqual([
      ['2025-05-31', 64000],
      ['2025-06-01', 1000],
    ]);
  });

  it('BRK-053 filters by to: no row is after to', async () => {
    const rows = await get(`/v1/usage?person=${P}&to=2025-06-10`);
    expect(rows.map((r) => r.day)).toEqual(['2025-06-01', '2025-06-10']);
    const may = await get(`/v1/usage?person=${P}&to=2025-05-31`);
    // from defaults to the first day of to's month.
    expect(may.map((r) => [r.day, r.cost_micros])).toEqual([['2025-05-31', 64000]]);
  });

  it('BRK-054 filters by actor, named by FID or email', async () => {
    const byFid = await get(`/v1/usage?actor=${fid(A)}&group=call`);
    expect(byFid.every((r) => r.actor_fid === fid(A))).toBe(true);
    expect(costs(byFid)).toEqual([8000, 4000]);
    const byEmail = await get(`/v1/usage?actor=${encodeURIComponent(A)}&group=call`);
    expect(costs(byEmail)).toEqual([8000, 4000]);
  });

  it('BRK-055 filters by person: the person and the identities they created', async () => {
    const rows = await get(`/v1/usage?person=${P}&group=call`);
    expect(new Set(rows.map((r) => r.actor_fid))).toEqual(new Set([fid(P), fid(A), fid(S)]));
    expect(costs(rows).reduce((s, c) => Number(s) + Number(c), 0)).toBe(31000);
  });

  it('BRK-056 filters by provider', async () => {
    const rows = await get(`/v1/usage?person=${P}&provider=anthropic&group=call`);
    expect(rows.every((r) => r.provider === 'anthropic')).toBe(true);
    expect(costs(rows)).toEqual([16000, 2000]);
  });

  it('BRK-057 filters by model', async () => {
    const rows = await get(`/v1/usage?person=${P}&model=gpt-4.1-mini`);
    expect(rows.map((r) => [r.day, r.cost_micros])).toEqual([
      ['2025-06-01', 1000],
      ['2025-06-10', 4000],
    ]);
  });

  it('BRK-058 by_creator counts agents and services under their creator', async () => {
    const apart = await get(`/v1/usage?person=${P}&group=person`);
    // By email, byte order: pat-bot@ sorts before pat@.
    expect(apart.map((r) => [r.actor_email, r.cost_micros])).toEqual([
      [A, 12000],
      [P, 3000],
      [S, 16000],
    ]);
    const together = await get(`/v1/usage?person=${P}&group=person&by_creator=true`);
    expect(together).toHaveLength(1);
    expect(together[0]).toMatchObject({ actor_fid: fid(P), actor_email: P, actor_kind: 'person', cost_micros: 31000 });
    const asActor = await get(`/v1/usage?actor=${P}&by_creator=true&group=call`);
    expect(costs(asActor)).toEqual([16000, 8000, 4000, 2000, 1000]);
  });

  it('BRK-060 group=person_model sums over the range per person and model', async () => {
    const rows = await get(`/v1/usage?person=${P}&group=person_model&from=2025-05-01`);
    expect(rows.map((r) => [r.actor_email, r.provider, r.model, r.cost_micros, r.calls])).toEqual([
      [A, 'openai', 'gpt-4.1-mini', 4000, 1],
      [A, 'openai', 'gpt-4.1-nano', 8000, 1],
      [P, 'anthropic', 'claude-haiku-4-5', 2000, 1],
      [P, 'openai', 'gpt-4.1-mini', 65000, 2],
      [S, 'anthropic', 'claude-haiku-4-5', 16000, 1],
    ]);
  });

  it('BRK-061 group=person sums over the range, one row per person', async () => {
    const rows = await get('/v1/usage?group=person&from=2025-05-01');
    const emails = rows.map((r) => r.actor_email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(rows.find((r) => r.actor_email === Q)?.cost_micros).toBe(32000);
    expect(rows.find((r) => r.actor_email === P)?.cost_micros).toBe(67000);
  });

  it('BRK-062 group=model sums over the range, one row per model', async () => {
    const rows = await get(`/v1/usage?person=${P}&group=model`);
    expect(rows.map((r) => [r.provider, r.model, r.cost_micros])).toEqual([
      ['anthropic', 'claude-haiku-4-5', 18000],
      ['openai', 'gpt-4.1-mini', 5000],
      ['openai', 'gpt-4.1-nano', 8000],
    ]);
  });

  it('BRK-063 group=provider sums over the range, one row per provider', async () => {
    const rows = await get(`/v1/usage?person=${P}&group=provider`);
    expect(rows.map((r) => [r.provider, r.provider_kind, r.cost_micros, r.calls])).toEqual([
      ['anthropic', 'anthropic', 18000, 2],
      ['openai', 'openai', 13000, 3],
    ]);
  });

  it('BRK-064 a malformed from or to, or from after to, is 422 bad_period naming the field', async () => {
    const cases: [string, string][] = [
      ['from=2025-13-01', 'querystring/from'],
      ['to=yesterday', 'querystring/to'],
      ['from=2025-02-30', 'querystring/from'],
      ['from=2025-06-10&to=2025-06-01', 'querystring/from'],
    ];
    for (const [q, field] of cases) {
      const r = await h.call('GET', `/v1/usage?${q}`, P);
      expect(r.status, q).toBe(422);
      expect(r.errors[0], q).toMatchObject({ code: 'bad_period', field });
    }
    const summary = await h.call('GET', '/v1/usage/summary?from=06/01/2025', P);
    expect(summary.status).toBe(422);
    expect(summary.errors[0].code).toBe('bad_period');
    const badGroup = await h.call('GET', '/v1/usage?group=week', P);
    expect(badGroup.status).toBe(422);
    expect(badGroup.errors[0]).toMatchObject({ code: 'validation_failed', field: 'querystring/group' });
  });

  it('BRK-014 BRK-016 group=call lists usage rows, newest first, with the spec fields; no requested_model when not substituted', async () => {
    const r = await h.call('GET', `/v1/usage?actor=${A}&group=call&pagination[pageSize]=1`, ADMIN);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 1, totalItems: 2, totalPages: 2 });
    const next = await h.call(
      'GET',
      `/v1/usage?actor=${A}&group=call&pagination[pageSize]=1&pagination[page]=2`,
      ADMIN,
    );
    const call = next.data[0];
    expect(call).toMatchObject({
      provider_kind: 'openai',
      model: 'gpt-4.1-mini',
      request_kind: 'chat',
      input_tokens: 100,
      output_tokens: 10,
      cache_read_tokens: 20,
      actor_fid: fid(A),
      routing_savings_micros: 0,
      day: '2025-06-10',
      occurred_at: '2025-06-10T11:00:00.000Z',
    });
    expect('requested_model' in call).toBe(false);
    expect(call).not.toHaveProperty('client_id');
  });

  it('BRK-015 a substituted call shows requested_model and the model used', async () => {
    const rows = await get(`/v1/usage?actor=${A}&group=call&model=gpt-4.1-nano`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requested_model: 'gpt-4.1', model: 'gpt-4.1-nano', routing_savings_micros: 500 });
  });

  it('BRK-176 a staff caller reads their own usage; naming someone else is 403', async () => {
    expect(costs(await get('/v1/usage?group=call', Q))).toEqual([32000]);
    expect(costs(await get(`/v1/usage?actor=${Q}&group=call`, Q))).toEqual([32000]);
    for (const q of [`actor=${P}`, `person=${P}`, `actor=${fid(A)}`]) {
      const r = await h.call('GET', `/v1/usage?${q}`, Q);
      expect(r.status, q).toBe(403);
    }
    // What they created is theirs to read.
    expect(costs(await get(`/v1/usage?actor=${A}&group=call`, P))).toEqual([8000, 4000]);
  });

  it('BRK-168 a broker JWT reads usage as the token’s person', async () => {
    const token = await h.signer?.sign(
      { email: P, sub: fid(P), client_id: `pc-${tag()}`, kind: 'personal', owner_email: P },
      h.now(),
    );
    const viaToken = await get('/v1/usage?group=call', { token: token?.access_token as string });
    const viaHeader = await get('/v1/usage?group=call', P);
    expect(viaToken).toEqual(viaHeader);
    expect(viaToken).toHaveLength(5);
  });

  it('BRK-065 GET /v1/usage/summary totals equal the sums of GET /v1/usage rows for the same filters', async () => {
    for (const q of [`person=${P}`, `person=${P}&provider=openai`, 'from=2025-05-01', `actor=${A}&by_creator=false`]) {
      const rows = await get(`/v1/usage?${q}`);
      const summary = (await h.call('GET', `/v1/usage/summary?${q}`, ADMIN)).data;
      for (const k of [
        'calls',
        'input_tokens',
        'output_tokens',
        'cache_read_tokens',
        'cost_micros',
        'cache_savings_micros',
        'routing_savings_micros',
      ]) {
        expect(summary[k], `${q} ${k}`).toBe(rows.reduce((s, r) => s + Number(r[k]), 0));
      }
    }
    const s = (await h.call('GET', `/v1/usage/summary?person=${P}`, ADMIN)).data;
    expect(s).toMatchObject({ from: '2025-06-01', to: '2025-06-16', calls: 5, cost_micros: 31000 });
  });

  it('BRK-012 money fields are integers', async () => {
    const rows = await get(`/v1/usage?person=${P}&group=person_model`);
    for (const r of rows)
      for (const k of Object.keys(r)) if (k.endsWith('_micros')) expect(Number.isInteger(r[k])).toBe(true);
  });
});

describe('POST /v1/usage', () => {
  const report = (data: Record<string, unknown>, as: Parameters<Harness['call']>[2] = P, key?: string | null) =>
    h.call('POST', '/v1/usage', as, { data }, key);
  const eventsOf = (who: string) =>
    h.db
      .selectFrom('usage_events')
      .selectAll()
      .where('actor_fid', '=', fid(who))
      .where('source', '=', 'report')
      .execute();

  it('BRK-046 BRK-066 BRK-174 a staff report stores a usage row priced from the catalog', async () => {
    const who = `reporter-${tag()}@usage.test`;
    const r = await report(
      {
        provider: 'openai',
        model: 'gpt-4.1-mini',
        request_kind: 'chat',
        input_tokens: 1000,
        output_tokens: 500,
        cache_read_tokens: 200,
        occurred_at: '2025-06-16T14:00:00Z',
      },
      who,
    );
    expect(r.status).toBe(201);
    // 800 uncached at 0.40 $/M, 200 cache reads at 0.10, 500 output at 1.60: 320 + 20 + 800 micro-dollars.
    expect(r.data).toMatchObject({
      actor_fid: fid(who),
      provider: 'openai',
      provider_kind: 'openai',
      model: 'gpt-4.1-mini',
      request_kind: 'chat',
      cost_micros: 1140,
      cache_savings_micros: 60,
      routing_savings_micros: 0,
      source: 'report',
      day: '2025-06-16',
    });
    const rows = await eventsOf(who);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].cost_micros)).toBe(1140);
    const daily = await h.db.selectFrom('usage_daily').selectAll().where('actor_fid', '=', fid(who)).execute();
    expect(daily.map((d) => [d.day, Number(d.calls), Number(d.cost_micros)])).toEqual([['2025-06-16', 1, 1140]]);
  });

  it('BRK-047 a report without Idempotency-Key is 400 and writes no row', async () => {
    const who = `nokey-${tag()}@usage.test`;
    const r = await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 5 }, who, null);
    expect(r.status).toBe(400);
    expect(await eventsOf(who)).toHaveLength(0);
  });

  it('BRK-048 a replay with the same body returns the first result and writes no second row', async () => {
    const who = `replay-${tag()}@usage.test`;
    const key = randomUUID();
    const body = { provider: 'openai', model: 'gpt-4o', input_tokens: 5 };
    const first = await report(body, who, key);
    const again = await report(body, who, key);
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    expect(await eventsOf(who)).toHaveLength(1);
  });

  it('BRK-049 a replay with a different body is 409 and writes nothing', async () => {
    const who = `conflict-${tag()}@usage.test`;
    const key = randomUUID();
    await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 5 }, who, key);
    const r = await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 6 }, who, key);
    expect(r.status).toBe(409);
    const rows = await eventsOf(who);
    expect(rows.map((e) => Number(e.input_tokens))).toEqual([5]);
  });

  it('BRK-050 an admin reports for someone else with actor_fid', async () => {
    const r = await report(
      { provider: 'anthropic', model: 'claude-haiku-4-5', input_tokens: 10, actor_fid: fid(Q) },
      ADMIN,
    );
    expect(r.status).toBe(201);
    expect(r.data.actor_fid).toBe(fid(Q));
    const rows = await eventsOf(Q);
    expect(rows.map((e) => e.id)).toContain(r.data.id);
    const unknown = await report(
      { provider: 'openai', model: 'gpt-4o', input_tokens: 1, actor_fid: randomUUID() },
      ADMIN,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.errors[0]).toMatchObject({ code: 'unknown_actor', field: 'body/data/actor_fid' });
  });

  it('BRK-051 a non-admin may not report for someone else: 403, no row', async () => {
    const before = (await eventsOf(P)).length;
    const r = await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 10, actor_fid: fid(P) }, Q);
    expect(r.status).toBe(403);
    expect(await eventsOf(P)).toHaveLength(before);
    // Naming themselves is fine.
    const own = await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 10, actor_fid: fid(Q) }, Q);
    expect(own.status).toBe(201);
  });

  it('BRK-119 an unknown provider or model, or impossible tokens, is 422 and writes nothing', async () => {
    const who = `bad-${tag()}@usage.test`;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ provider: 'nope', model: 'gpt-4o', input_tokens: 1 }, 'unknown_provider', 'body/data/provider'],
      [{ provider: 'openai', model: 'claude-haiku-4-5', input_tokens: 1 }, 'unknown_model', 'body/data/model'],
      [
        { provider: 'openai', model: 'gpt-4o', input_tokens: 1, cache_read_tokens: 2 },
        'bad_tokens',
        'body/data/cache_read_tokens',
      ],
      [
        { provider: 'openai', model: 'gpt-4o', input_tokens: 1, occurred_at: '2025-06-17T00:00:00Z' },
        'bad_occurred_at',
        'body/data/occurred_at',
      ],
      [{ provider: 'openai', model: 'gpt-4o', input_tokens: -1 }, 'validation_failed', 'body/data/input_tokens'],
    ];
    for (const [data, code, field] of cases) {
      const r = await report(data, who);
      expect(r.status, code).toBe(422);
      expect(r.errors[0], code).toMatchObject({ code, field });
    }
    expect(await eventsOf(who)).toHaveLength(0);
  });

  it('BRK-172 the bare service token may not report usage', async () => {
    const r = await report({ provider: 'openai', model: 'gpt-4o', input_tokens: 1 }, { service: null });
    expect(r.status).toBe(403);
  });
});
