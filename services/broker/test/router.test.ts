import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  BUILT_IN_CATALOG,
  type CatalogModel,
  findModel,
  findProvider,
  priceUsage,
} from '../src/domain/catalog.ts';
import type { RouteDecision, Router } from '../src/relay/ports.ts';
import { RoutingEngine } from '../src/relay/router.ts';
import { ADMIN, fid, type Harness, harness, STAFF, tag } from './harness.ts';

const C = BUILT_IN_CATALOG;
let h: Harness;
/** The router the app tells about its writes (the engine under test). */
let engine: RoutingEngine;
const router: Router = { decide: (r) => engine.decide(r), invalidate: () => engine.invalidate() };

beforeAll(async () => {
  h = await harness({ router });
  engine = new RoutingEngine(h.db, C);
});
afterAll(async () => h.close_());

const small = { messages: [{ role: 'user', content: 'What is the capital of France?' }] };
const sized = (chars: number) => ({ messages: [{ role: 'user', content: 'x'.repeat(chars) }] });

function routeRequest(
  wireId: string,
  body: Record<string, unknown> = small,
  o: { email?: string; api?: Api; provider?: string; now?: Date } = {},
) {
  const provider = o.provider ?? 'openai';
  const email = o.email ?? STAFF;
  return {
    api: o.api ?? 'chat',
    actor: { fid: fid(email), email },
    provider: findProvider(C, provider) as NonNullable<ReturnType<typeof findProvider>>,
    model: findModel(C, provider, wireId) as CatalogModel,
    body,
    now: o.now ?? h.now(),
  };
}

const brief = (d: RouteDecision) => ({
  model: d.model.wire_id,
  substituted: d.substituted,
  outcome: d.outcome,
  classifier: d.classifier,
  family: d.family,
  tier: d.tier,
  rule_id: d.rule_id,
  grading_cost_micros: d.grading_cost_micros,
});

async function put(url: string, data: unknown) {
  const r = await h.call('PUT', url, ADMIN, { data });
  h.expectStatus(url, r, 200);
  return r.data;
}

describe('automatic routing (the default rule)', () => {
  it('BRK-114 BRK-094 a small gpt-4.1 request from a person never set goes to gpt-4.1-nano', async () => {
    const d = await engine.decide(routeRequest('gpt-4.1', small, { email: `new-${tag()}@broker.test` }));
    expect(brief(d)).toEqual({
      model: 'gpt-4.1-nano',
      substituted: true,
      outcome: 'routed',
      classifier: 'quick_check',
      family: 'gpt-4.1',
      tier: 'light',
      rule_id: null,
      grading_cost_micros: 0,
    });
  });

  it('BRK-114 the same on responses and messages: the cheapest light model of the family, same provider', async () => {
    const responses = await engine.decide(routeRequest('gpt-4o', { input: 'Hi there' }, { api: 'responses' }));
    expect([responses.model.provider, responses.model.wire_id, responses.outcome]).toEqual([
      'openai',
      'gpt-4o-mini',
      'routed',
    ]);
    const messages = await engine.decide(
      routeRequest('claude-opus-4-1', small, { api: 'messages', provider: 'anthropic' }),
    );
    expect([messages.model.provider, messages.model.wire_id]).toEqual(['anthropic', 'claude-haiku-4-5']);
  });

  it('requests past the quick check are kept as asked (no classifier named)', async () => {
    const cases: Record<string, unknown>[] = [
      sized(2001),
      { messages: Array.from({ length: 7 }, () => ({ role: 'user', content: 'hi' })) },
      { ...small, tools: [{ type: 'function', function: { name: 'f' } }] },
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] },
    ];
    for (const body of cases) {
      const d = await engine.decide(routeRequest('gpt-4.1', body));
      expect(brief(d)).toMatchObject({
        model: 'gpt-4.1',
        substituted: false,
        outcome: 'kept',
        classifier: 'quick_check',
      });
    }
    const edge = await engine.decide(routeRequest('gpt-4.1', sized(2000)));
    expect(edge.model.wire_id).toBe('gpt-4.1-nano');
  });

  it('the cheapest model of a family, a model outside families and speech are kept without grading', async () => {
    for (const [provider, wireId, api] of [
      ['openai', 'gpt-4.1-nano', 'chat'],
      ['speech', 'tts-1', 'speech'],
    ] as const) {
      const d = await engine.decide(routeRequest(wireId, small, { provider, api }));
      expect(brief(d)).toMatchObject({ model: wireId, substituted: false, outcome: 'kept', classifier: null });
    }
  });
});

describe('rules and opt-outs through the routes, on this replica at once', () => {
  it('BRK-113 a rule put through the API applies to the very next call', async () => {
    const rules = await put('/v1/routing/rules', {
      rules: [{ id: 'mini', name: 'to mini', match: { model: 'gpt-4.1', api: 'chat' }, target_model: 'gpt-4.1-mini' }],
    });
    const d = await engine.decide(routeRequest('gpt-4.1', sized(5000)));
    expect(brief(d)).toEqual({
      model: 'gpt-4.1-mini',
      substituted: true,
      outcome: 'rule',
      classifier: null,
      family: 'gpt-4.1',
      tier: 'standard',
      rule_id: rules[0].id,
      grading_cost_micros: 0,
    });
    // The rule names chat only: responses calls fall through to the default rule.
    const other = await engine.decide(routeRequest('gpt-4.1', { input: 'x'.repeat(5000) }, { api: 'responses' }));
    expect(other.outcome).toBe('kept');
  });

  it('BRK-113 a rule whose target is the requested model pins it: no automatic routing', async () => {
    await put('/v1/routing/rules', {
      rules: [{ id: 'pin', name: 'keep 4o', match: { model: 'gpt-4o' }, target_model: 'gpt-4o' }],
    });
    const d = await engine.decide(routeRequest('gpt-4o', small));
    expect(brief(d)).toMatchObject({ model: 'gpt-4o', substituted: false, outcome: 'rule', rule_id: 'pin' });
  });

  it('BRK-115 with routing off the model asked for is kept even when a rule matches; back on, it routes', async () => {
    const email = `off-${tag()}@broker.test`;
    await put('/v1/routing/rules', {
      rules: [{ id: 'mini', name: 'to mini', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-mini' }],
    });
    await put('/v1/routing/auto-route', { email, enabled: false });
    const off = await engine.decide(routeRequest('gpt-4.1', small, { email: email.toUpperCase() }));
    expect(brief(off)).toEqual({
      model: 'gpt-4.1',
      substituted: false,
      outcome: 'off',
      classifier: null,
      family: 'gpt-4.1',
      tier: 'heavy',
      rule_id: null,
      grading_cost_micros: 0,
    });
    await put('/v1/routing/auto-route', { email, enabled: true });
    const on = await engine.decide(routeRequest('gpt-4.1', small, { email }));
    expect([on.model.wire_id, on.outcome]).toEqual(['gpt-4.1-mini', 'rule']);
    await put('/v1/routing/rules', { rules: [] });
  });
});

describe('the hot path reads no database', () => {
  it('after the first load, decisions run no query until a write or the reload period', async () => {
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (a) => {
        queries += 1;
        return a.node;
      },
      transformResult: async (a) => a.result,
    };
    const start = new Date('2025-06-16T15:00:00Z');
    const replica = new RoutingEngine(h.db.withPlugin(counting), C, { reloadMs: 5_000 });
    await replica.decide(routeRequest('gpt-4.1', small, { now: start }));
    const afterLoad = queries;
    expect(afterLoad).toBeGreaterThan(0);
    for (let i = 0; i < 200; i++) {
      await replica.decide(
        routeRequest('gpt-4.1', i % 2 ? small : sized(3000), { now: new Date(start.getTime() + i) }),
      );
    }
    expect(queries).toBe(afterLoad);
    replica.invalidate();
    await replica.decide(routeRequest('gpt-4.1', small, { now: start }));
    expect(queries).toBeGreaterThan(afterLoad);
  });

  it('BRK-115 another replica sees an opt-out once its copy is older than the reload period', async () => {
    const email = `replica-${tag()}@broker.test`;
    const t0 = new Date('2025-06-16T15:00:00Z');
    const replica = new RoutingEngine(h.db, C, { reloadMs: 5_000 });
    expect((await replica.decide(routeRequest('gpt-4.1', small, { email, now: t0 }))).outcome).toBe('routed');
    await put('/v1/routing/auto-route', { email, enabled: false });
    // Within the period the replica goes on with its copy.
    const soon = new Date(t0.getTime() + 4_000);
    expect((await replica.decide(routeRequest('gpt-4.1', small, { email, now: soon }))).outcome).toBe('routed');
    // Past it, the call still uses the copy and starts a refresh; the next call sees the change.
    const later = new Date(t0.getTime() + 6_000);
    await replica.decide(routeRequest('gpt-4.1', small, { email, now: later }));
    await replica.loaded();
    const after = await replica.decide(routeRequest('gpt-4.1', small, { email, now: later }));
    expect([after.outcome, after.model.wire_id]).toEqual(['off', 'gpt-4.1']);
  });
});

describe('the classifier model', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { auth?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  let answer: { status: number; content: string } = { status: 200, content: 'light' };
  const USAGE = { prompt_tokens: 900, completion_tokens: 1 };
  const nano = findModel(C, 'openai', 'gpt-4.1-nano') as CatalogModel;
  const gradingCost = priceUsage(nano.prices, {
    input_tokens: 900,
    output_tokens: 1,
    cache_read_tokens: 0,
  }).cost_micros;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            answer.status === 200
              ? { choices: [{ message: { role: 'assistant', content: answer.content } }], usage: USAGE }
              : { error: { message: 'nope' } },
          ),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    await h.db
      .updateTable('routing_settings')
      .set({ classifier_provider: 'openai', classifier_model: 'gpt-4.1-nano', classifier_max_input_chars: 10_000 })
      .execute();
  });
  afterAll(async () => {
    await h.db.updateTable('routing_settings').set({ classifier_provider: null, classifier_model: null }).execute();
    await new Promise((r) => server.close(r));
  });

  const graded = () => new RoutingEngine(h.db, C, { endpoints: [{ id: 'openai', baseUrl, apiKey: 'classifier-key' }] });

  it('BRK-114 grades a request past the quick check: light → the light model, standard → the standard one', async () => {
    const e = graded();
    answer = { status: 200, content: 'light' };
    const text = `Summarise: ${'y'.repeat(3000)}`;
    const light = await e.decide(routeRequest('gpt-4.1', { messages: [{ role: 'user', content: text }] }));
    expect(brief(light)).toEqual({
      model: 'gpt-4.1-nano',
      substituted: true,
      outcome: 'routed',
      classifier: 'gpt-4.1-nano',
      family: 'gpt-4.1',
      tier: 'light',
      rule_id: null,
      grading_cost_micros: gradingCost,
    });
    const call = seen.at(-1);
    expect(call?.auth).toBe('Bearer classifier-key');
    expect(call?.body.model).toBe('gpt-4.1-nano');
    expect(call?.body.messages.at(-1)).toEqual({ role: 'user', content: text });

    answer = { status: 200, content: 'Standard' };
    const standard = await e.decide(routeRequest('gpt-4.1', sized(3000)));
    expect([standard.model.wire_id, standard.tier, standard.outcome]).toEqual(['gpt-4.1-mini', 'standard', 'routed']);
  });

  it('heavy, an error status or no usable answer keeps the model; the answer’s cost is still counted', async () => {
    const e = graded();
    answer = { status: 200, content: 'heavy' };
    expect(brief(await e.decide(routeRequest('gpt-4.1', sized(3000))))).toMatchObject({
      model: 'gpt-4.1',
      outcome: 'kept',
      classifier: 'gpt-4.1-nano',
      grading_cost_micros: gradingCost,
    });
    answer = { status: 200, content: 'no idea' };
    expect((await e.decide(routeRequest('gpt-4.1', sized(3000)))).outcome).toBe('kept');
    answer = { status: 500, content: '' };
    expect(brief(await e.decide(routeRequest('gpt-4.1', sized(3000))))).toMatchObject({
      model: 'gpt-4.1',
      outcome: 'kept',
      grading_cost_micros: 0,
    });
  });

  it('not called within the quick check, over its ceiling, for tools, or without a key or address', async () => {
    const e = graded();
    answer = { status: 200, content: 'light' };
    const before = seen.length;
    expect((await e.decide(routeRequest('gpt-4.1', small))).classifier).toBe('quick_check');
    const over = await e.decide(routeRequest('gpt-4.1', sized(10_001)));
    expect([over.outcome, over.classifier]).toEqual(['kept', 'quick_check']);
    const tools = await e.decide(routeRequest('gpt-4.1', { ...sized(3000), tools: [{ type: 'function' }] }));
    expect(tools.outcome).toBe('kept');
    expect(seen.length).toBe(before);
    const keyless = new RoutingEngine(h.db, C, { endpoints: [{ id: 'openai', baseUrl }] });
    expect(brief(await keyless.decide(routeRequest('gpt-4.1', sized(3000))))).toMatchObject({
      outcome: 'kept',
      classifier: 'gpt-4.1-nano',
      grading_cost_micros: 0,
    });
    const unreachable = new RoutingEngine(h.db, C, {
      endpoints: [{ id: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' }],
    });
    expect((await unreachable.decide(routeRequest('gpt-4.1', sized(3000)))).outcome).toBe('kept');
    expect(seen.length).toBe(before);
  });
});
