/**
 * When the provider fails: an error status, a dropped connection, an unreachable address (502
 * with one log line naming what happened, no usage row), and a caller who goes away mid-stream
 * (the upstream call is cancelled).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { fid, tag } from './harness.ts';
import { codes, PROVIDER_KEY, type RelayHarness, relayHarness } from './relay-setup.ts';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let h: RelayHarness;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const unreachable = `http://127.0.0.1:${await closedPort()}/v1`;
  h = await relayHarness({
    logLevel: 'warn',
    // Anthropic sits at an address nothing answers; the others at the fake provider.
    endpointsFor: (base) =>
      BUILT_IN_CATALOG.providers.map((p) => ({
        id: p.id,
        baseUrl: p.id === 'anthropic' ? unreachable : base,
        apiKey: PROVIDER_KEY,
      })),
  });
  // Capture what the app logs: request loggers are children of the app's and write to its stream.
  const log = h.app.log as unknown as Record<symbol, unknown>;
  const streamSym = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream') as symbol;
  log[streamSym] = { write: (line: string) => logLines.push(JSON.parse(line)) };
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
const rowsOf = async (email: string) => (await h.usageRows()).filter((r) => r.actor_fid === fid(email));
const failureLines = () => logLines.filter((l) => l.msg === 'relay upstream failed');
const chat = (email: string, content = 'fail please') =>
  h.post(
    '/v1/relay/chat/completions',
    { model: 'gpt-4.1', messages: [{ role: 'user', content }] },
    { 'x-dev-principal': email },
  );

describe('the provider fails', () => {
  it('BRK-123 BRK-124 a provider error status is 502 upstream_failed, logged with its status, message and body', async () => {
    const me = person();
    const body = JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } });
    h.fake.failNext({ status: 500, body });
    const before = failureLines().length;
    const r = await chat(me);
    expect(r.status).toBe(502);
    expect(codes(r)).toEqual(['upstream_failed']);
    expect(r.json.header.service).toBe('broker');
    expect(r.json.payload.errors[0].message).toContain('The server had an error');
    const lines = failureLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      provider: 'openai',
      model: 'gpt-4.1',
      actor: fid(me),
      upstreamStatus: 500,
      upstreamMessage: 'The server had an error',
      upstreamBody: body,
      error: 'provider answered 500',
    });
    expect(await rowsOf(me)).toEqual([]);
  });

  it('BRK-123 BRK-124 a provider that rejects the request (4xx) is 502 with its message; the log keeps 2 KiB of the body', async () => {
    const me = person();
    const long = JSON.stringify({ error: { message: 'Invalid value for temperature', padding: 'p'.repeat(5000) } });
    h.fake.failNext({ status: 400, body: long });
    const before = failureLines().length;
    const r = await chat(me);
    expect(r.status).toBe(502);
    expect(r.json.payload.errors[0]).toMatchObject({ code: 'upstream_failed', value: 400 });
    expect(r.json.payload.errors[0].message).toContain('Invalid value for temperature');
    const [line] = failureLines().slice(before);
    expect(line.upstreamStatus).toBe(400);
    expect(line.upstreamMessage).toBe('Invalid value for temperature');
    expect(line.upstreamBody).toBe(long.slice(0, 2048));
    expect(await rowsOf(me)).toEqual([]);
  });

  it('BRK-123 a provider refusing the broker’s key is 502 without repeating the provider’s words', async () => {
    h.fake.failNext({
      status: 401,
      body: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-ab***' } }),
    });
    const r = await chat(person());
    expect(r.status).toBe(502);
    expect(r.json.payload.errors[0].message).not.toContain('sk-ab');
  });

  it('BRK-123 BRK-124 a dropped connection is 502, logged with the error and no upstream status', async () => {
    const me = person();
    h.fake.failNext('drop');
    const before = failureLines().length;
    const r = await chat(me);
    expect(r.status).toBe(502);
    expect(codes(r)).toEqual(['upstream_failed']);
    const [line] = failureLines().slice(before);
    expect(line).toMatchObject({ provider: 'openai', model: 'gpt-4.1', actor: fid(me), upstreamStatus: null });
    expect(line).toHaveProperty('upstreamMessage', null);
    expect(line).toHaveProperty('upstreamBody', null);
    expect(typeof line.error).toBe('string');
    expect(line.error).not.toBe('');
    expect(await rowsOf(me)).toEqual([]);
  });

  it('BRK-123 BRK-124 an unreachable provider is 502, logged with the connection error', async () => {
    const me = person();
    const before = failureLines().length;
    const r = await h.post(
      '/v1/relay/messages',
      { model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'anyone?' }] },
      { 'x-dev-principal': me },
    );
    expect(r.status).toBe(502);
    expect(codes(r)).toEqual(['upstream_failed']);
    const [line] = failureLines().slice(before);
    expect(line).toMatchObject({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      actor: fid(me),
      upstreamStatus: null,
    });
    expect(String(line.error)).toMatch(/ECONNREFUSED|connect/i);
    expect(await rowsOf(me)).toEqual([]);
  });

  it('BRK-123 BRK-124 a provider that hangs up mid-stream cuts the reply short, is logged, and writes no usage row', async () => {
    const me = person();
    const before = failureLines().length;
    const r = await fetch(`${h.url}/v1/relay/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': me },
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'a story cut short' }],
        stream: true,
        fake: { chunks: 6, hang_up_after: 2 },
      }),
    });
    expect(r.status).toBe(200);
    // The caller sees the bytes that came, then the connection fails: never a [DONE].
    const text = await r.text().catch((e: Error) => `failed: ${e.message}`);
    expect(text).not.toContain('[DONE]');
    expect(failureLines().length).toBe(before + 1);
    expect(failureLines().at(-1)).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      actor: fid(me),
      upstreamStatus: 200,
    });
    expect(await rowsOf(me)).toEqual([]);
  });

  it('BRK-121 a caller who goes away mid-stream cancels the upstream call and no usage row is written', async () => {
    const me = person();
    const abortsBefore = h.fake.aborts;
    const controller = new AbortController();
    const r = await fetch(`${h.url}/v1/relay/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': me },
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'a long slow story' }],
        stream: true,
        fake: { chunks: 50, delay_ms: 40 },
      }),
      signal: controller.signal,
    });
    expect(r.status).toBe(200);
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('chat.completion.chunk');
    controller.abort();
    await h.fake.waitForAborts(abortsBefore + 1);
    expect(h.fake.aborts).toBe(abortsBefore + 1);
    expect(await rowsOf(me)).toEqual([]);
    expect(h.recorded.filter((c) => c.usage.actor_fid === fid(me))).toEqual([]);
  });
});
