import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, type CatalogModel, findModel, priceUsage, type TokenCounts } from '../src/domain/catalog.ts';
import { insertDecisions } from '../src/store/routing-decisions.ts';
import { insertUsage } from '../src/store/usage-writes.ts';
import { ADMIN, fid, type Harness, harness, OTHER, STAFF } from './harness.ts';

let h: Harness;
const AGENT = 'agent-savings@agents.broker.test';
const AGENT_FID = '0190b7a0-0000-7000-8000-0000000000b2';
const model = (provider: string, wireId: string) => findModel(BUILT_IN_CATALOG, provider, wireId) as CatalogModel;

interface Call {
  at: string;
  actor: string;
  provider?: string;
  requested: string;
  used: string;
  tokens: TokenCounts;
  outcome: 'rule' | 'routed' | 'kept' | 'off';
  rule_id?: string;
  classifier?: string | null;
  grading?: number;
}

/** One relayed call as the relay records it: its usage row and its decision row, priced from the catalog. */
function priced(c: Call) {
  const provider = c.provider ?? 'openai';
  const used = model(provider, c.used);
  const cost = priceUsage(used.prices, c.tokens);
  const asked = priceUsage(model(provider, c.requested).prices, c.tokens);
  const savings = c.used === c.requested ? 0 : asked.cost_micros - cost.cost_micros;
  return { provider, used, cost, savings };
}

async function record(c: Call) {
  const { provider, used, cost, savings } = priced(c);
  const at = new Date(c.at);
  await insertUsage(h.db, [
    {
      id: randomUUID(),
      occurred_at: at,
      actor_fid: c.actor,
      provider,
      provider_kind: provider,
      model: c.used,
      requested_model: c.used === c.requested ? null : c.requested,
      request_kind: provider === 'anthropic' ? 'messages' : 'chat',
      ...c.tokens,
      cost_micros: cost.cost_micros,
      cache_savings_micros: cost.cache_savings_micros,
      routing_savings_micros: savings,
      source: 'relay',
      estimated: false,
    },
  ]);
  await insertDecisions(h.db, [
    {
      decided_at: at,
      actor_fid: c.actor,
      provider,
      family: used.family ?? null,
      tier: used.tier ?? null,
      classifier: c.classifier === undefined ? (c.outcome === 'routed' ? 'quick_check' : null) : c.classifier,
      outcome: c.outcome,
      requested_model: c.requested,
      model: c.used,
      rule_id: c.rule_id ?? null,
      grading_cost_micros: c.grading ?? 0,
      savings_micros: savings,
    },
  ]);
}

const T = (input: number, output: number, cache = 0): TokenCounts => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: cache,
});

const CALLS: Call[] = [
  // STAFF: a quick-check route to nano with cache reads, a rule to mini, a kept call.
  {
    at: '2025-06-10T10:00:00Z',
    actor: fid(STAFF),
    requested: 'gpt-4.1',
    used: 'gpt-4.1-nano',
    tokens: T(1_000, 200, 400),
    outcome: 'routed',
  },
  {
    at: '2025-06-11T10:00:00Z',
    actor: fid(STAFF),
    requested: 'gpt-4.1',
    used: 'gpt-4.1-mini',
    tokens: T(5_000, 1_000),
    outcome: 'rule',
    rule_id: 'to-mini',
  },
  {
    at: '2025-06-11T11:00:00Z',
    actor: fid(STAFF),
    requested: 'gpt-4o',
    used: 'gpt-4o',
    tokens: T(2_000, 500, 1_000),
    outcome: 'kept',
    classifier: 'gpt-4.1-nano',
    grading: 35,
  },
  // STAFF's agent: a classifier route on Anthropic, and a call by a rule since removed.
  {
    at: '2025-06-12T10:00:00Z',
    actor: AGENT_FID,
    provider: 'anthropic',
    requested: 'claude-opus-4-1',
    used: 'claude-sonnet-4-5',
    tokens: T(3_000, 800),
    outcome: 'routed',
    classifier: 'gpt-4.1-nano',
    grading: 50,
  },
  {
    at: '2025-06-12T11:00:00Z',
    actor: AGENT_FID,
    requested: 'gpt-4o',
    used: 'gpt-4o-mini',
    tokens: T(800, 100),
    outcome: 'rule',
    rule_id: 'gone',
  },
  // OTHER, and a call last month.
  {
    at: '2025-06-13T10:00:00Z',
    actor: fid(OTHER),
    requested: 'gpt-4.1',
    used: 'gpt-4.1-nano',
    tokens: T(600, 60),
    outcome: 'routed',
  },
  {
    at: '2025-05-20T10:00:00Z',
    actor: fid(STAFF),
    requested: 'gpt-4.1',
    used: 'gpt-4.1-nano',
    tokens: T(900, 90),
    outcome: 'routed',
  },
];

const june = (c: Call) => c.at.startsWith('2025-06');
const sum = (calls: Call[], f: (p: ReturnType<typeof priced>, c: Call) => number) =>
  calls.reduce((s, c) => s + f(priced(c), c), 0);

beforeAll(async () => {
  h = await harness({ now: '2025-06-16T15:00:00Z' });
  const now = h.now();
  await h.db
    .insertInto('identities')
    .values({
      fid: AGENT_FID,
      email: AGENT,
      name: 'Savings agent',
      kind: 'agent',
      creator_fid: fid(STAFF),
      creator_email: STAFF,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const r = await h.call('PUT', '/v1/routing/rules', ADMIN, {
    data: {
      rules: [{ id: 'to-mini', name: 'GPT-4.1 to mini', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-mini' }],
    },
  });
  h.expectStatus('rules', r, 200);
  for (const c of CALLS) await record(c);
});
afterAll(async () => h.close_());

const SAVINGS = '/v1/savings';

describe('GET /v1/savings', () => {
  it('BRK-067 carries cache savings: the sum of the calls’ cache savings in the period', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    expect(r.status).toBe(200);
    const expected = sum(CALLS.filter(june), (p) => p.cost.cache_savings_micros);
    expect(expected).toBeGreaterThan(0);
    expect(r.data.cache_savings_micros).toBe(expected);
    expect(r.data).toMatchObject({ from: '2025-06-01', to: '2025-06-30' });
  });

  it('BRK-068 by_model rows each carry a baseline: cost + cache savings + routing savings', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    const nano = r.data.by_model.find((m: { model: string }) => m.model === 'gpt-4.1-nano');
    const nanoCalls = CALLS.filter((c) => june(c) && c.used === 'gpt-4.1-nano');
    expect(nano).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-nano',
      calls: nanoCalls.length,
      cost_micros: sum(nanoCalls, (p) => p.cost.cost_micros),
      cache_savings_micros: sum(nanoCalls, (p) => p.cost.cache_savings_micros),
      routing_savings_micros: sum(nanoCalls, (p) => p.savings),
      baseline_micros: sum(nanoCalls, (p) => p.cost.cost_micros + p.cost.cache_savings_micros + p.savings),
    });
    expect(r.data.by_model).toHaveLength(new Set(CALLS.filter(june).map((c) => c.used)).size);
    for (const m of r.data.by_model) {
      expect(m.baseline_micros).toBe(m.cost_micros + m.cache_savings_micros + m.routing_savings_micros);
    }
    const baselines = r.data.by_model.map((m: { baseline_micros: number }) => m.baseline_micros);
    expect(baselines).toEqual([...baselines].sort((a, b) => b - a));
    expect(r.data.baseline_micros).toBe(baselines.reduce((a: number, b: number) => a + b, 0));
  });

  it('BRK-069 routing carries routed calls, gross and net savings and grading cost', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    const calls = CALLS.filter(june);
    const gross = sum(calls, (p) => p.savings);
    const grading = sum(calls, (_p, c) => c.grading ?? 0);
    expect(r.data.routing).toMatchObject({
      routed_calls: calls.filter((c) => c.used !== c.requested).length,
      gross_savings_micros: gross,
      grading_cost_micros: grading,
      net_savings_micros: gross - grading,
    });
    expect(grading).toBe(85);
    expect(r.data.routing_savings_micros).toBe(gross);
  });

  it('BRK-070 routing savings by rule, named as the rules are now (null once removed)', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    const byRule = (id: string) => CALLS.filter((c) => june(c) && c.rule_id === id);
    expect(r.data.routing.by_rule).toEqual(
      expect.arrayContaining([
        {
          rule_id: 'to-mini',
          name: 'GPT-4.1 to mini',
          routed_calls: 1,
          savings_micros: sum(byRule('to-mini'), (p) => p.savings),
        },
        { rule_id: 'gone', name: null, routed_calls: 1, savings_micros: sum(byRule('gone'), (p) => p.savings) },
      ]),
    );
    expect(r.data.routing.by_rule).toHaveLength(2);
  });

  it('BRK-071 routing savings by family and tier (the tier calls were sent to)', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, ADMIN);
    const rows = r.data.routing.by_family_tier.map(
      (x: { family: string; tier: string; routed_calls: number; grading_cost_micros: number }) => [
        x.family,
        x.tier,
        x.routed_calls,
        x.grading_cost_micros,
      ],
    );
    expect(rows).toEqual([
      ['claude', 'standard', 1, 50],
      ['gpt-4.1', 'light', 2, 0],
      ['gpt-4.1', 'standard', 1, 0],
      ['gpt-4o', 'light', 1, 0],
      ['gpt-4o', 'heavy', 0, 35],
    ]);
    const nano = CALLS.filter((c) => june(c) && c.used === 'gpt-4.1-nano');
    expect(r.data.routing.by_family_tier[1].savings_micros).toBe(sum(nano, (p) => p.savings));
  });

  it('from, to and actor narrow the figures; without them this month to today', async () => {
    const may = await h.call('GET', `${SAVINGS}?from=2025-05-01&to=2025-05-31`, ADMIN);
    expect(may.data.routing.routed_calls).toBe(1);
    expect(may.data.by_model.map((m: { model: string }) => m.model)).toEqual(['gpt-4.1-nano']);
    const oneDay = await h.call('GET', `${SAVINGS}?from=2025-06-11&to=2025-06-11`, ADMIN);
    expect(oneDay.data.by_model.map((m: { model: string }) => m.model).sort()).toEqual(['gpt-4.1-mini', 'gpt-4o']);
    const agent = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30&actor=${AGENT}`, ADMIN);
    expect(agent.data.routing.routed_calls).toBe(2);
    expect(agent.data.routing.grading_cost_micros).toBe(50);
    const byDefault = await h.call('GET', SAVINGS, ADMIN);
    expect(byDefault.data).toMatchObject({ from: '2025-06-01', to: '2025-06-16' });
    expect(byDefault.data.routing.routed_calls).toBe(CALLS.filter((c) => june(c) && c.used !== c.requested).length);
  });

  it('non-admins see themselves and the identities they created; naming anyone else is 403', async () => {
    const own = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, STAFF);
    expect(own.status).toBe(200);
    const mine = CALLS.filter((c) => june(c) && (c.actor === fid(STAFF) || c.actor === AGENT_FID));
    expect(own.data.routing.routed_calls).toBe(mine.filter((c) => c.used !== c.requested).length);
    expect(own.data.cost_micros).toBe(sum(mine, (p) => p.cost.cost_micros));
    const agent = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30&actor=${AGENT_FID}`, STAFF);
    expect(agent.data.routing.routed_calls).toBe(2);
    const other = await h.call('GET', `${SAVINGS}?actor=${OTHER}`, STAFF);
    expect([other.status, other.errors[0].code]).toEqual([403, 'forbidden']);
    const theirs = await h.call('GET', `${SAVINGS}?from=2025-06-01&to=2025-06-30`, OTHER);
    expect(theirs.data.routing.routed_calls).toBe(1);
    expect((await h.call('GET', SAVINGS, null)).status).toBe(401);
  });

  it('BRK-064 a malformed day or from after to is 422 bad_period', async () => {
    const bad = await h.call('GET', `${SAVINGS}?to=2025-13-01`, ADMIN);
    expect([bad.status, bad.errors[0].code, bad.errors[0].field]).toEqual([422, 'bad_period', 'querystring/to']);
    const inverted = await h.call('GET', `${SAVINGS}?from=2025-06-02&to=2025-06-01`, ADMIN);
    expect([inverted.status, inverted.errors[0].code]).toEqual([422, 'bad_period']);
  });

  it('an empty period answers zeros and empty lists', async () => {
    const r = await h.call('GET', `${SAVINGS}?from=2024-01-01&to=2024-01-31`, ADMIN);
    expect(r.data).toEqual({
      from: '2024-01-01',
      to: '2024-01-31',
      cost_micros: 0,
      cache_savings_micros: 0,
      routing_savings_micros: 0,
      baseline_micros: 0,
      by_model: [],
      routing: {
        routed_calls: 0,
        gross_savings_micros: 0,
        grading_cost_micros: 0,
        net_savings_micros: 0,
        by_rule: [],
        by_family_tier: [],
      },
    });
  });
});
