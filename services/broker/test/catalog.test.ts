import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { ADMIN, endpointsAt, type Harness, harness, STAFF } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // Every provider has a key except anthropic.
  const endpoints = endpointsAt(BUILT_IN_CATALOG, 'http://127.0.0.1:9/v1').map((e) =>
    e.id === 'anthropic' ? { ...e, apiKey: undefined } : e,
  );
  h = await harness({ endpoints });
});
afterAll(() => h.close_());

describe('GET /v1/catalog', () => {
  it('BRK-034 returns providers, models, limits and prices', async () => {
    const r = await h.call('GET', '/v1/catalog', STAFF);
    expect(r.status).toBe(200);
    expect(r.data.default_provider).toBe('openai');
    expect(r.data.providers.map((p: { id: string }) => p.id)).toEqual(['openai', 'anthropic', 'speech']);
    const mini = r.data.models.find((m: { wire_id: string }) => m.wire_id === 'gpt-4.1-mini');
    expect(mini).toEqual({
      provider: 'openai',
      wire_id: 'gpt-4.1-mini',
      name: 'GPT-4.1 mini',
      available: true,
      limits: { context_window: 1_047_576, max_output_tokens: 32_768 },
      prices: { input: 400_000, output: 1_600_000, cache_read: 100_000 },
      family: 'gpt-4.1',
      tier: 'standard',
      routing_enabled: true,
    });
    expect(r.data.models).toHaveLength(BUILT_IN_CATALOG.models.length);
    expect(r.data.speech).toEqual({ provider: 'speech', model: 'tts-1', voice: 'alloy', max_input_chars: 4096 });
  });

  it('BRK-035 a provider without a configured key shows available false, and no key or address is shown', async () => {
    const r = await h.call('GET', '/v1/catalog', STAFF);
    const byId = Object.fromEntries(r.data.providers.map((p: { id: string; available: boolean }) => [p.id, p]));
    expect(byId.anthropic.available).toBe(false);
    expect(byId.openai.available).toBe(true);
    const haiku = r.data.models.find((m: { wire_id: string }) => m.wire_id === 'claude-haiku-4-5');
    expect(haiku.available).toBe(false);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('test-key');
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('key_env');
  });

  it('BRK-175 a staff caller reads the catalog', async () => {
    expect((await h.call('GET', '/v1/catalog', 'someone@broker.test')).status).toBe(200);
  });

  it('BRK-179 the service token reads the catalog', async () => {
    expect((await h.call('GET', '/v1/catalog', { service: null })).status).toBe(200);
    expect((await h.call('GET', '/v1/catalog/model?provider=openai&wire_id=gpt-4o', { service: null })).status).toBe(
      200,
    );
  });

  it('BRK-171 the catalog without credentials is 401', async () => {
    const r = await h.call('GET', '/v1/catalog', null);
    expect(r.status).toBe(401);
  });
});

describe('GET /v1/catalog/model', () => {
  it('BRK-036 returns one model by provider and wire_id', async () => {
    const r = await h.call('GET', '/v1/catalog/model?provider=anthropic&wire_id=claude-sonnet-4-5', ADMIN);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      provider: 'anthropic',
      wire_id: 'claude-sonnet-4-5',
      limits: { context_window: 200_000, max_output_tokens: 64_000 },
      prices: { input: 3_000_000, output: 15_000_000, cache_read: 300_000 },
      available: false,
    });
  });

  it('BRK-037 an unknown provider or model answers 422', async () => {
    const p = await h.call('GET', '/v1/catalog/model?provider=nope&wire_id=gpt-4o', STAFF);
    expect(p.status).toBe(422);
    expect(p.errors[0]).toMatchObject({ code: 'unknown_provider', field: 'querystring/provider' });
    const m = await h.call('GET', '/v1/catalog/model?provider=openai&wire_id=claude-haiku-4-5', STAFF);
    expect(m.status).toBe(422);
    expect(m.errors[0]).toMatchObject({ code: 'unknown_model', field: 'querystring/wire_id' });
    const missing = await h.call('GET', '/v1/catalog/model?provider=openai', STAFF);
    expect(missing.status).toBe(422);
  });
});
