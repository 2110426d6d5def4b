/**
 * Routing through the relay: the real router decides, the fake provider shows which model the
 * upstream received, and the usage and decision rows, stats and savings follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, type CatalogModel, findModel, priceUsage } from '../src/domain/catalog.ts';
import type { Router } from '../src/relay/ports.ts';
import { RoutingEngine } from '../src/relay/router.ts';
import { ADMIN, fid, tag } from './harness.ts';
import { type RelayHarness, relayHarness } from './relay-setup.ts';

let h: RelayHarness;
let engine: RoutingEngine;
// The app tells this router about rule and opt-out writes, as it tells the one it builds itself.
const router: Router = { decide: (r) => engine.decide(r), invalidate: () => engine.invalidate() };

beforeAll(async () => {
  h = await relayHarness({ router });
  engine = new RoutingEngine(h.db, BUILT_IN_CATALOG);
});
afterAll(() => h.close());

const person = () => `routed-${tag()}@broker.test`;
const model = (wireId: string) => findModel(BUILT_IN_CATALOG, 'openai', wireId) as CatalogModel;
const FORCED = { input_tokens: 1_000, output_tokens: 100, cached_tokens: 0 };
const chat = (email: string, content: string, wireId = 'gpt-4.1') =>
  h.post(
    '/v1/relay/chat/completions',
    { model: wireId, messages: [{ role: 'user', content }], fake: { usage: FORCED } },
    { 'x-dev-principal': email },
  );
const upstreamModel = () => h.fake.requests[h.fake.requests.length - 1].json.model;
const decisionsOf = async (email: string) => {
  await h.usage.settled();
  return h.db.selectFrom('routing_decisions').selectAll().where('actor_fid', '=', fid(email)).orderBy('id').execute();
};

async function put(url: string, data: unknown) {
  const r = await h.call('PUT', url, ADMIN, { data });
  h.expectStatus(url, r, 200);
}

describe('the relay follows routing', () => {
  it('BRK-114 BRK-015 a small gpt-4.1 request is sent upstream as gpt-4.1-nano, recorded with what was asked', async () => {
    const me = person();
    const r = await chat(me, 'What is two plus two?');
    expect(r.status).toBe(200);
    expect(upstreamModel()).toBe('gpt-4.1-nano');
    const [row] = (await h.usageRows()).filter((u) => u.actor_fid === fid(me));
    const tokens = { input_tokens: 1_000, output_tokens: 100, cache_read_tokens: 0 };
    const used = priceUsage(model('gpt-4.1-nano').prices, tokens).cost_micros;
    const asked = priceUsage(model('gpt-4.1').prices, tokens).cost_micros;
    expect(row).toMatchObject({ model: 'gpt-4.1-nano', requested_model: 'gpt-4.1', cost_micros: used });
    expect(row.routing_savings_micros).toBe(asked - used);
    const [d] = await decisionsOf(me);
    expect(d).toMatchObject({
      outcome: 'routed',
      classifier: 'quick_check',
      family: 'gpt-4.1',
      tier: 'light',
      requested_model: 'gpt-4.1',
      model: 'gpt-4.1-nano',
      savings_micros: asked - used,
    });
  });

  it('BRK-113 a rule put by an admin sends the next call upstream as the rule’s model', async () => {
    await put('/v1/routing/rules', {
      rules: [{ id: 'relay-mini', name: 'GPT-4.1 to mini', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-mini' }],
    });
    const me = person();
    const r = await chat(me, 'x'.repeat(5_000));
    expect(r.status).toBe(200);
    expect(upstreamModel()).toBe('gpt-4.1-mini');
    const [d] = await decisionsOf(me);
    expect(d).toMatchObject({ outcome: 'rule', rule_id: 'relay-mini', model: 'gpt-4.1-mini' });

    const savings = await h.call('GET', `/v1/savings?actor=${me}`, ADMIN);
    expect(savings.data.routing.by_rule).toEqual([
      { rule_id: 'relay-mini', name: 'GPT-4.1 to mini', routed_calls: 1, savings_micros: d.savings_micros },
    ]);
  });

  it('BRK-115 BRK-016 with routing off the upstream receives the model asked for, even with a matching rule', async () => {
    const me = person();
    await put('/v1/routing/auto-route', { email: me, enabled: false });
    const r = await chat(me, 'What is two plus two?');
    expect(r.status).toBe(200);
    expect(upstreamModel()).toBe('gpt-4.1');
    const [row] = (await h.usageRows()).filter((u) => u.actor_fid === fid(me));
    expect(row).toMatchObject({ model: 'gpt-4.1', requested_model: null, routing_savings_micros: 0 });
    const [d] = await decisionsOf(me);
    expect(d).toMatchObject({ outcome: 'off', model: 'gpt-4.1', requested_model: 'gpt-4.1', savings_micros: 0 });

    await put('/v1/routing/auto-route', { email: me, enabled: true });
    await chat(me, 'And three plus three?');
    expect(upstreamModel()).toBe('gpt-4.1-mini');
    await put('/v1/routing/rules', { rules: [] });
  });

  it('BRK-099 the stats count the relayed decisions', async () => {
    const me = person();
    await chat(me, 'Short one');
    await chat(me, 'y'.repeat(3_000));
    const today = h.now().toISOString().slice(0, 10);
    const r = await h.call('GET', `/v1/routing/stats?actor=${me}`, me);
    expect(r.status).toBe(200);
    expect(
      r.data.map((x: { day: string; outcome: string; classifier: string; tier: string; decisions: number }) => [
        x.day,
        x.outcome,
        x.classifier,
        x.tier,
        x.decisions,
      ]),
    ).toEqual([
      [today, 'kept', 'quick_check', 'heavy', 1],
      [today, 'routed', 'quick_check', 'light', 1],
    ]);
  });
});
