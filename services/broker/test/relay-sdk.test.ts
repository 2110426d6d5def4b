/**
 * The relay through the official SDKs over a real port, and byte for byte against the provider
 * called directly: chat completions, responses and messages, plain and streamed, and speech.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, findModel, priceUsage } from '../src/domain/catalog.ts';
import { fid, tag } from './harness.ts';
import { PROVIDER_KEY, type RelayHarness, relayHarness } from './relay-setup.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await relayHarness();
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
// The SDKs put their key in Authorization (the broker's credential tokens): a dev-header caller sends none.
const openai = (email: string) =>
  new OpenAI({
    baseURL: `${h.url}/v1/relay`,
    apiKey: 'x',
    maxRetries: 0,
    defaultHeaders: { 'x-dev-principal': email, authorization: null },
  });
const anthropic = (email: string) =>
  new Anthropic({
    baseURL: `${h.url}/v1/relay`,
    apiKey: 'x',
    maxRetries: 0,
    defaultHeaders: { 'x-dev-principal': email, authorization: null, 'x-api-key': null },
  });
const rowsOf = async (email: string) => (await h.usageRows()).filter((r) => r.actor_fid === fid(email));
const lastRequest = () => h.fake.requests[h.fake.requests.length - 1];
const model = (provider: string, wireId: string) => {
  const m = findModel(BUILT_IN_CATALOG, provider, wireId);
  if (!m) throw new Error(`no ${provider}/${wireId}`);
  return m;
};

/** Calls the fake directly with the same bytes the relay got, for a byte comparison. */
async function direct(path: string, body: string) {
  const r = await fetch(h.fake.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${PROVIDER_KEY}` },
    body,
  });
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}

describe('chat completions through the OpenAI SDK', () => {
  it('BRK-106 BRK-120 BRK-173 a staff chat completion reaches the named provider without an Idempotency-Key', async () => {
    const me = person();
    const before = h.fake.requests.length;
    const c = await openai(me).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Say hello to the relay' }],
      provider: 'openai',
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(c.choices[0].message.content).toBe('gpt-4.1 heard: Say hello to the relay');
    expect(h.fake.requests.length).toBe(before + 1);
    const sent = lastRequest();
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['idempotency-key']).toBeUndefined();
    expect(sent.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
  });

  it('BRK-107 provider is stripped from the body the upstream receives', async () => {
    await openai(person()).chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'strip me' }],
      provider: 'openai',
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const sent = lastRequest().json;
    expect(sent).not.toHaveProperty('provider');
    expect(sent).toEqual({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'strip me' }] });
  });

  it('BRK-014 BRK-016 BRK-066 BRK-121 a plain chat call writes one priced usage row without requested_model', async () => {
    const me = person();
    const c = await openai(me).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'count my tokens please' }],
      fake: { usage: { input_tokens: 1000, output_tokens: 200, cached_tokens: 400 } },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(c.usage?.prompt_tokens).toBe(1000);
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      actor_fid: fid(me),
      provider: 'openai',
      provider_kind: 'openai',
      model: 'gpt-4.1',
      requested_model: null,
      request_kind: 'chat',
      input_tokens: 1000,
      output_tokens: 200,
      cache_read_tokens: 400,
      routing_savings_micros: 0,
      source: 'relay',
      estimated: false,
    });
    // gpt-4.1: $2 input, $0.50 cache read, $8 output per million tokens.
    // 600 × 2 + 400 × 0.5 + 200 × 8 = 3000 micro-dollars; cache savings 400 × 1.5 = 600.
    expect(row.cost_micros).toBe(3000);
    expect(row.cache_savings_micros).toBe(600);
    expect(
      priceUsage(model('openai', 'gpt-4.1').prices, { input_tokens: 1000, output_tokens: 200, cache_read_tokens: 400 }),
    ).toEqual({ cost_micros: 3000, cache_savings_micros: 600 });
  });

  it('BRK-014 a streamed chat call with include_usage is recorded from the usage chunk', async () => {
    const me = person();
    const stream = await openai(me).chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'stream to me' }],
      stream: true,
      stream_options: { include_usage: true },
      fake: { usage: { input_tokens: 50, output_tokens: 10 } },
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('gpt-4.1-mini heard: stream to me');
    expect(usage?.prompt_tokens).toBe(50);
    const [row] = await rowsOf(me);
    expect(row).toMatchObject({ model: 'gpt-4.1-mini', request_kind: 'chat', input_tokens: 50, output_tokens: 10 });
    // gpt-4.1-mini: $0.40 input, $1.60 output: 50 × 0.4 + 10 × 1.6 = 36.
    expect(row.cost_micros).toBe(36);
    expect(row.estimated).toBe(false);
  });

  it('BRK-014 a streamed chat call without include_usage is estimated from the text, and stream_options is not injected', async () => {
    const me = person();
    const content = 'x'.repeat(40);
    const stream = await openai(me).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(lastRequest().json).not.toHaveProperty('stream_options');
    const [row] = await rowsOf(me);
    expect(row.estimated).toBe(true);
    expect(row.input_tokens).toBe(10);
    expect(row.output_tokens).toBe(Math.ceil(text.length / 4));
  });

  it('BRK-111 BRK-112 relayed chat bytes equal the provider’s own, plain and streamed, and are not enveloped', async () => {
    for (const stream of [false, true]) {
      const body = JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: `bytes ${stream}` }],
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
      });
      const relayed = await h.post('/v1/relay/chat/completions', body, { 'x-dev-principal': person() });
      expect(relayed.status).toBe(200);
      expect(lastRequest().body.equals(Buffer.from(body))).toBe(true);
      const own = await direct('/chat/completions', body);
      expect(relayed.bytes.equals(own.bytes)).toBe(true);
      expect(relayed.headers.get('content-type')).toBe(own.type);
      expect(relayed.text).not.toContain('"header"');
      expect(relayed.text).not.toContain('"payload"');
    }
  });
});

describe('responses through the OpenAI SDK', () => {
  it('BRK-108 BRK-014 a responses call reaches the responses API and is recorded', async () => {
    const me = person();
    const r = await openai(me).responses.create({
      model: 'gpt-4.1',
      input: 'What is routed?',
      fake: { usage: { input_tokens: 300, output_tokens: 30, cached_tokens: 100 } },
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(r.output_text).toBe('gpt-4.1 heard: What is routed?');
    expect(r.id).toMatch(/^resp_/);
    expect(lastRequest().path).toBe('/v1/responses');
    const [row] = await rowsOf(me);
    expect(row).toMatchObject({
      request_kind: 'responses',
      model: 'gpt-4.1',
      input_tokens: 300,
      output_tokens: 30,
      cache_read_tokens: 100,
    });
    // 200 × 2 + 100 × 0.5 + 30 × 8 = 690.
    expect(row.cost_micros).toBe(690);
  });

  it('BRK-108 a streamed responses call is recorded from response.completed', async () => {
    const me = person();
    const stream = await openai(me).responses.create({
      model: 'gpt-4o-mini',
      input: 'stream the response',
      stream: true,
      fake: { usage: { input_tokens: 1000, output_tokens: 1000 } },
    } as OpenAI.Responses.ResponseCreateParamsStreaming);
    let text = '';
    let completed = false;
    for await (const e of stream) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.completed') completed = true;
    }
    expect(completed).toBe(true);
    expect(text).toBe('gpt-4o-mini heard: stream the response');
    const [row] = await rowsOf(me);
    // gpt-4o-mini: $0.15 input, $0.60 output: 1000 × 0.15 + 1000 × 0.6 = 750.
    expect(row).toMatchObject({ request_kind: 'responses', input_tokens: 1000, output_tokens: 1000, cost_micros: 750 });
  });

  it('BRK-112 relayed responses stream bytes equal the provider’s own', async () => {
    const body = JSON.stringify({ model: 'gpt-4.1', input: 'compare the stream', stream: true });
    const relayed = await h.post('/v1/relay/responses', body, { 'x-dev-principal': person() });
    const own = await direct('/responses', body);
    expect(relayed.status).toBe(200);
    expect(relayed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(relayed.bytes.equals(own.bytes)).toBe(true);
  });
});

describe('messages through the Anthropic SDK', () => {
  it('BRK-105 the SDK with baseURL <broker>/v1/relay calls /v1/relay/v1/messages and the upstream gets the body', async () => {
    const me = person();
    const m = await anthropic(me).messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello Claude' }],
    });
    expect(m.content[0]).toEqual({ type: 'text', text: 'claude-haiku-4-5 heard: Hello Claude' });
    const sent = lastRequest();
    expect(sent.path).toBe('/v1/messages');
    expect(sent.json).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello Claude' }],
    });
    expect(sent.headers['x-api-key']).toBe(PROVIDER_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    // The SDK names its own anthropic-version, which is passed on.
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('BRK-105 without anthropic-version the configured default goes upstream', async () => {
    const r = await h.post(
      '/v1/relay/messages',
      { model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'version' }] },
      { 'x-dev-principal': person() },
    );
    expect(r.status).toBe(200);
    expect(lastRequest().headers['anthropic-version']).toBe('2023-06-01');
  });

  it('BRK-014 BRK-066 a messages call counts cache reads into input tokens and prices them', async () => {
    const me = person();
    await anthropic(me).messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'cached context' }],
      fake: { usage: { input_tokens: 2000, output_tokens: 100, cached_tokens: 1500 } },
    } as Anthropic.MessageCreateParamsNonStreaming);
    const [row] = await rowsOf(me);
    expect(row).toMatchObject({
      provider: 'anthropic',
      provider_kind: 'anthropic',
      request_kind: 'messages',
      input_tokens: 2000,
      cache_read_tokens: 1500,
      output_tokens: 100,
    });
    // claude-haiku-4-5: $1 input, $0.10 cache read, $5 output: 500 × 1 + 1500 × 0.1 + 100 × 5 = 1150.
    expect(row.cost_micros).toBe(1150);
    // The cache reads would have cost 1500 × 1 at the input price: 1350 saved.
    expect(row.cache_savings_micros).toBe(1350);
  });

  it('BRK-105 a streamed messages call is recorded from message_start and message_delta', async () => {
    const me = person();
    const stream = anthropic(me).messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream it' }],
      fake: { usage: { input_tokens: 100, output_tokens: 40, cached_tokens: 20 } },
    } as Anthropic.MessageStreamParams);
    const final = await stream.finalMessage();
    expect(final.content[0]).toEqual({ type: 'text', text: 'claude-haiku-4-5 heard: stream it' });
    const [row] = await rowsOf(me);
    // claude-haiku-4-5: $1 input, $0.10 cache read, $5 output: 80 × 1 + 20 × 0.1 + 40 × 5 = 282.
    expect(row).toMatchObject({ input_tokens: 100, cache_read_tokens: 20, output_tokens: 40, cost_micros: 282 });
  });

  it('BRK-111 BRK-112 relayed messages bytes equal the provider’s own on both paths', async () => {
    for (const path of ['/v1/relay/messages', '/v1/relay/v1/messages']) {
      for (const stream of [false, true]) {
        const body = JSON.stringify({
          model: 'claude-opus-4-1',
          max_tokens: 10,
          messages: [{ role: 'user', content: `${path} ${stream}` }],
          stream,
        });
        const relayed = await h.post(path, body, { 'x-dev-principal': person() });
        const own = await direct('/messages', body);
        expect(relayed.status).toBe(200);
        expect(relayed.bytes.equals(own.bytes)).toBe(true);
      }
    }
  });

  it('BRK-105 the caller’s anthropic-version and anthropic-beta go upstream; its own credentials do not', async () => {
    await h.post(
      '/v1/relay/messages',
      { model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'beta' }] },
      {
        'x-dev-principal': person(),
        'anthropic-version': '2024-01-01',
        'anthropic-beta': 'prompt-caching-2024-07-31',
        'x-api-key': 'callers-own-key',
      },
    );
    const sent = lastRequest().headers;
    expect(sent['anthropic-version']).toBe('2024-01-01');
    expect(sent['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(sent['x-api-key']).toBe(PROVIDER_KEY);
    expect(sent['x-dev-principal']).toBeUndefined();
  });
});

describe('speech', () => {
  it('BRK-109 BRK-110 speech answers audio/mpeg made with the fixed model and voice', async () => {
    const me = person();
    const r = await h.post(
      '/v1/relay/speech',
      { input: 'Read this aloud', model: 'tts-1-hd', voice: 'nova', response_format: 'wav' },
      { 'x-dev-principal': me },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/mpeg');
    const sent = lastRequest();
    expect(sent.path).toBe('/v1/audio/speech');
    expect(sent.json).toEqual({ model: 'tts-1', voice: 'alloy', input: 'Read this aloud', response_format: 'mp3' });
    const own = await direct('/audio/speech', sent.body.toString());
    expect(r.bytes.equals(own.bytes)).toBe(true);
    expect(r.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
    const [row] = await rowsOf(me);
    // Speech is billed per character: 15 characters at $15 per million = 225 micro-dollars.
    expect(row).toMatchObject({
      provider: 'speech',
      model: 'tts-1',
      request_kind: 'speech',
      input_tokens: 15,
      output_tokens: 0,
      cost_micros: 225,
    });
  });

  it('BRK-109 a passage longer than the catalog allows is 422 and goes nowhere', async () => {
    const before = h.fake.requests.length;
    const r = await h.post(
      '/v1/relay/speech',
      { input: 'a'.repeat(BUILT_IN_CATALOG.speech.max_input_chars + 1) },
      { 'x-dev-principal': person() },
    );
    expect(r.status).toBe(422);
    expect(r.json.payload.errors[0]).toMatchObject({ code: 'validation_failed', field: 'body/input' });
    expect(h.fake.requests.length).toBe(before);
  });
});
