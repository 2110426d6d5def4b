/**
 * When the provider fails: an error status, a dropped connection, an unreachable address (502
 * with one log line naming what happened, no usage row); a provider that hangs up mid-reply, and
 * a caller who goes away mid-stream (the upstream call is cancelled): the call reached the
 * provider, so its usage row is written, estimated when the provider's count never came (issue 14.3).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { fid, tag } from './harness.ts';
import { codes, PROVIDER_KEY, type RelayHarness, relayHarness, type TestBudgets } from './relay-setup.ts';

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

  it('14.3 BRK-123 BRK-124 a provider that hangs up mid-stream cuts the reply short, is logged, and writes an estimated usage row', async () => {
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
    // The provider billed what it generated: the row is estimated from the request and the text relayed.
    await h.recordedFor(fid(me));
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'gpt-4.1', source: 'relay', estimated: true });
    expect(Number(rows[0].input_tokens)).toBe(Math.ceil('a story cut short'.length / 4));
    expect(Number(rows[0].cost_micros)).toBeGreaterThan(0);
  });

  it('14.3 BRK-121 a caller who goes away mid-stream cancels the upstream call; its usage row is written anyway, estimated, and counted in the budget', async () => {
    const me = person();
    const prompt = 'a long slow story about the sea';
    const abortsBefore = h.fake.aborts;
    const controller = new AbortController();
    const r = await fetch(`${h.url}/v1/relay/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': me },
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: prompt }],
        stream: true,
        // Two events (the role and the first text delta), then the provider is still generating.
        fake: { chunks: 50, hold_after: 2 },
      }),
      signal: controller.signal,
    });
    expect(r.status).toBe(200);
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    while (!seen.includes('"content":"gpt-4.1"')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await h.fake.waitForAborts(abortsBefore + 1);
    expect(h.fake.aborts).toBe(abortsBefore + 1);
    const call = await h.recordedFor(fid(me));
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({ model: 'gpt-4.1', request_kind: 'chat', source: 'relay', estimated: true });
    // Input from the request's text, output from the text relayed (about four characters a token).
    expect(Number(row.input_tokens)).toBe(Math.ceil(prompt.length / 4));
    expect(Number(row.output_tokens)).toBeGreaterThan(0);
    expect(Number(row.cost_micros)).toBeGreaterThan(0);
    expect(call.usage.estimated).toBe(true);
    // Counted in the budget: the gate at once, and the person's budget row.
    expect((h.budgets as TestBudgets).spends).toContainEqual({ fid: fid(me), micros: Number(row.cost_micros) });
    const budget = await h.call('GET', `/v1/budgets/${me}`, me);
    expect(budget.data.spend_micros).toBe(Number(row.cost_micros));
  });

  it('14.3 BRK-014 a caller who goes away after the provider’s usage arrived gets a row of the provider’s counts, not estimated', async () => {
    const me = person();
    const abortsBefore = h.fake.aborts;
    const controller = new AbortController();
    const r = await fetch(`${h.url}/v1/relay/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': me },
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'count me' }],
        stream: true,
        stream_options: { include_usage: true },
        // Every event but [DONE]: the usage event has come.
        fake: { usage: { input_tokens: 1234, output_tokens: 56 }, hold_after: -1 },
      }),
      signal: controller.signal,
    });
    expect(r.status).toBe(200);
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    while (!seen.includes('"usage":{')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await h.fake.waitForAborts(abortsBefore + 1);
    await h.recordedFor(fid(me));
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ estimated: false });
    expect(Number(rows[0].input_tokens)).toBe(1234);
    expect(Number(rows[0].output_tokens)).toBe(56);
  });

  it('14.3 BRK-014 a streamed call that completes is counted from the provider’s usage, not estimated', async () => {
    const me = person();
    const r = await h.post(
      '/v1/relay/chat/completions',
      {
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'a whole story' }],
        stream: true,
        stream_options: { include_usage: true },
        fake: { usage: { input_tokens: 321, output_tokens: 12 } },
      },
      { 'x-dev-principal': me },
    );
    expect(r.status).toBe(200);
    expect(r.text).toContain('[DONE]');
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ estimated: false });
    expect(Number(rows[0].input_tokens)).toBe(321);
    expect(Number(rows[0].output_tokens)).toBe(12);
  });
});
