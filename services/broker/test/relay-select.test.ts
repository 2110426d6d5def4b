/**
 * Which provider a relay call goes to, and the refusals that never reach one: a catalog where
 * a model is offered by the default provider and another, by one other provider, by two
 * non-default providers, and by a provider without a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CatalogModel, CatalogProvider, ProviderKind } from '../src/domain/catalog.ts';
import { fid, tag } from './harness.ts';
import { codes, type RelayHarness, relayHarness } from './relay-setup.ts';

const provider = (id: string, kind: ProviderKind, apis: CatalogProvider['apis']): CatalogProvider => ({
  id,
  name: id,
  kind,
  apis,
  base_url: 'https://unused.example/v1',
  key_env: `${id.toUpperCase()}_KEY`,
});
const model = (p: string, wireId: string): CatalogModel => ({
  provider: p,
  wire_id: wireId,
  name: wireId,
  context_window: 1000,
  max_output_tokens: 100,
  prices: { input: 1_000_000, output: 2_000_000, cache_read: 100_000 },
});

const CATALOG: Catalog = {
  default_provider: 'alpha',
  providers: [
    provider('alpha', 'openai', ['chat', 'responses']),
    provider('beta', 'openai', ['chat', 'responses']),
    provider('gamma', 'openai', ['chat']),
    provider('keyless', 'openai', ['chat']),
    provider('claude', 'anthropic', ['messages']),
  ],
  models: [
    model('alpha', 'shared'),
    model('beta', 'shared'),
    model('beta', 'beta-only'),
    model('beta', 'twin'),
    model('gamma', 'twin'),
    model('gamma', 'gamma-chat'),
    model('keyless', 'no-key-model'),
    model('claude', 'claude-x'),
  ],
  speech: { provider: 'alpha', model: 'shared', voice: 'v', max_input_chars: 100 },
};

let h: RelayHarness;
beforeAll(async () => {
  h = await relayHarness({
    catalog: CATALOG,
    fake: { key: undefined },
    endpointsFor: (base) =>
      CATALOG.providers.map((p) => ({
        id: p.id,
        baseUrl: base,
        apiKey: p.id === 'keyless' ? undefined : `key-${p.id}`,
      })),
  });
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
const lastRequest = () => h.fake.requests[h.fake.requests.length - 1];
/** Which provider's key the fake last received. */
const lastKey = () => lastRequest().headers.authorization ?? lastRequest().headers['x-api-key'];
const chat = (body: object, who = person()) => h.post('/v1/relay/chat/completions', body, { 'x-dev-principal': who });
const msg = [{ role: 'user', content: 'hi' }];

/** Runs `send` and returns what came back with how many upstream requests it made. */
async function upstreamCalls<T>(send: () => Promise<T>): Promise<{ r: T; calls: number }> {
  const before = h.fake.requests.length;
  const r = await send();
  return { r, calls: h.fake.requests.length - before };
}

describe('provider selection', () => {
  it('BRK-116 an omitted provider means the default provider when it offers the model', async () => {
    const me = person();
    const r = await chat({ model: 'shared', messages: msg }, me);
    expect(r.status).toBe(200);
    expect(lastKey()).toBe('Bearer key-alpha');
    const responses = await h.post('/v1/relay/responses', { model: 'shared', input: 'hi' }, { 'x-dev-principal': me });
    expect(responses.status).toBe(200);
    expect(lastRequest().path).toBe('/v1/responses');
    expect(lastKey()).toBe('Bearer key-alpha');
    const rows = (await h.usageRows()).filter((x) => x.actor_fid === fid(me));
    expect(rows.map((x) => x.provider)).toEqual(['alpha', 'alpha']);
  });

  it('BRK-117 else the one provider offering the model is used', async () => {
    const r = await chat({ model: 'beta-only', messages: msg });
    expect(r.status).toBe(200);
    expect(lastKey()).toBe('Bearer key-beta');
  });

  it('BRK-106 a named provider selects the upstream, even when the default offers the model', async () => {
    const r = await chat({ model: 'shared', provider: 'beta', messages: msg });
    expect(r.status).toBe(200);
    expect(lastKey()).toBe('Bearer key-beta');
    const twin = await chat({ model: 'twin', provider: 'gamma', messages: msg });
    expect(twin.status).toBe(200);
    expect(lastKey()).toBe('Bearer key-gamma');
  });

  it('BRK-118 several providers offering the model with none named is 422 and no upstream call', async () => {
    const { r, calls } = await upstreamCalls(() => chat({ model: 'twin', messages: msg }));
    expect(r.status).toBe(422);
    expect(codes(r)).toEqual(['ambiguous_provider']);
    expect(calls).toBe(0);
  });

  it('BRK-119 an unknown provider is 422 unknown_provider and no upstream call', async () => {
    const { r, calls } = await upstreamCalls(() => chat({ model: 'shared', provider: 'nobody', messages: msg }));
    expect(r.status).toBe(422);
    expect(r.json.payload.errors[0]).toMatchObject({ code: 'unknown_provider', field: 'body/provider' });
    expect(calls).toBe(0);
  });

  it('BRK-119 an unknown model, one the named provider lacks, or one not offered on this API is 422 unknown_model', async () => {
    for (const [path, body] of [
      ['/v1/relay/chat/completions', { model: 'no-such-model', messages: msg }],
      ['/v1/relay/chat/completions', { model: 'beta-only', provider: 'alpha', messages: msg }],
      ['/v1/relay/responses', { model: 'gamma-chat', input: 'hi' }],
      ['/v1/relay/responses', { model: 'gamma-chat', provider: 'gamma', input: 'hi' }],
      ['/v1/relay/messages', { model: 'shared', max_tokens: 5, messages: msg }],
    ] as const) {
      const { r, calls } = await upstreamCalls(() => h.post(path, body, { 'x-dev-principal': person() }));
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(r.json.payload.errors[0]).toMatchObject({ code: 'unknown_model', field: 'body/model' });
      expect(calls).toBe(0);
    }
  });

  it('BRK-125 a provider without a key is 503 provider_unavailable and no upstream call', async () => {
    const me = person();
    const { r, calls } = await upstreamCalls(() => chat({ model: 'no-key-model', messages: msg }, me));
    expect(r.status).toBe(503);
    expect(codes(r)).toEqual(['provider_unavailable']);
    expect(calls).toBe(0);
    expect((await h.usageRows()).filter((x) => x.actor_fid === fid(me))).toEqual([]);
  });
});

describe('the forwarded body', () => {
  it('BRK-111 the upstream receives the caller’s bytes as sent when nothing is rewritten', async () => {
    const sent =
      '{ "messages" : [ {"role":"user","content":"spacing \\u00e9 kept"} ],\n  "model":"shared", "temperature": 0.25 }';
    const r = await h.post('/v1/relay/chat/completions', sent, { 'x-dev-principal': person() });
    expect(r.status).toBe(200);
    expect(lastRequest().body.toString('utf8')).toBe(sent);
  });

  it('BRK-107 BRK-111 with provider named, the upstream receives every other field unchanged and no provider', async () => {
    const body = { provider: 'beta', model: 'shared', messages: msg, temperature: 0.5, metadata: { a: [1, 2] } };
    const r = await chat(body);
    expect(r.status).toBe(200);
    const { provider: _named, ...rest } = body;
    expect(lastRequest().json).toEqual(rest);
  });

  it('BRK-105 messages take provider from the body too, and strip it', async () => {
    const r = await h.post(
      '/v1/relay/messages',
      { provider: 'claude', model: 'claude-x', max_tokens: 5, messages: msg },
      { 'x-dev-principal': person() },
    );
    expect(r.status).toBe(200);
    expect(lastRequest().path).toBe('/v1/messages');
    expect(lastRequest().json).toEqual({ model: 'claude-x', max_tokens: 5, messages: msg });
    expect(lastRequest().headers['x-api-key']).toBe('key-claude');
  });

  it('BRK-119 a body that is not JSON is 400, without a model 422 naming the field; neither goes upstream', async () => {
    const bad = await upstreamCalls(() =>
      h.post('/v1/relay/chat/completions', '{"model":', { 'x-dev-principal': person() }),
    );
    expect(bad.r.status).toBe(400);
    expect(codes(bad.r)).toEqual(['malformed_json']);
    expect(bad.calls).toBe(0);
    const noModel = await upstreamCalls(() => chat({ messages: msg }));
    expect(noModel.r.status).toBe(422);
    expect(noModel.r.json.payload.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/model' });
    expect(noModel.calls).toBe(0);
    const list = await upstreamCalls(() =>
      h.post('/v1/relay/chat/completions', '[1]', { 'x-dev-principal': person() }),
    );
    expect(list.r.status).toBe(422);
    expect(list.calls).toBe(0);
  });

  it('BRK-171 a relay without a caller or with an invalid token is 401 and goes nowhere', async () => {
    const { r, calls } = await upstreamCalls(() =>
      h.post('/v1/relay/chat/completions', { model: 'shared', messages: msg }),
    );
    expect(r.status).toBe(401);
    expect(calls).toBe(0);
    const forged = await upstreamCalls(() =>
      h.post('/v1/relay/chat/completions', { model: 'shared', messages: msg }, { authorization: 'Bearer not-a-token' }),
    );
    expect(forged.r.status).toBe(401);
    expect(forged.calls).toBe(0);
  });
});
