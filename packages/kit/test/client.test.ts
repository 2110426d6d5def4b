import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/client.ts';

/** A local server whose answers the test scripts, recording what the client sent. */
let server: Server;
let base: string;
const seen: { method: string; url: string; key?: string }[] = [];
let script: { status: number; type: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      key: req.headers['idempotency-key'] as string | undefined,
    });
    req.resume();
    const next = script.shift() ?? {
      status: 200,
      type: 'application/json',
      body: '{"header":{},"payload":{"data":{}}}',
    };
    res.writeHead(next.status, { 'content-type': next.type });
    res.end(next.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('kit client', () => {
  it('PLT-011 every retry of one command carries the identical Idempotency-Key', async () => {
    seen.length = 0;
    script = [
      {
        status: 503,
        type: 'application/json',
        body: '{"header":{},"payload":{"errors":[{"code":"database_unavailable","message":"down"}]}}',
      },
      { status: 502, type: 'text/plain', body: 'bad gateway' },
      { status: 201, type: 'application/json', body: '{"header":{},"payload":{"data":{"id":"x"}}}' },
    ];
    const client = createClient({ baseUrl: base, retries: 3, retryDelayMs: 1 });
    const res = await client.command('POST', '/v1/things', { data: { a: 1 } });
    expect(res.ok).toBe(true);
    expect(seen).toHaveLength(3);
    expect(seen[0].key).toBeTruthy();
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
  });

  it('PLT-036 an enveloped error becomes an error value with its HTTP status and code', async () => {
    script = [
      {
        status: 409,
        type: 'application/json',
        body: '{"header":{},"payload":{"errors":[{"code":"calendar_already_configured","message":"configured"}]}}',
      },
    ];
    const res = await createClient({ baseUrl: base }).command('POST', '/v1/x', { data: {} });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.status).toBe(409);
      expect(res.error.code).toBe('calendar_already_configured');
      expect(res.error.retryable).toBe(false);
    }
  });

  it('PLT-037 an RFC 9457 problem document becomes an error value with its status and type/code', async () => {
    script = [
      {
        status: 422,
        type: 'application/problem+json',
        body: JSON.stringify({
          type: 'https://errors.example/period_calendar_not_configured',
          title: 'Calendar not configured',
          status: 422,
        }),
      },
    ];
    const res = await createClient({ baseUrl: base }).get('/v1/period-calendar/current');
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.status).toBe(422);
      expect(res.error.code).toBe('period_calendar_not_configured');
    }
  });

  it('a bare (unenveloped) success body is tolerated', async () => {
    script = [{ status: 200, type: 'application/json', body: '{"id":"bare"}' }];
    const res = await createClient({ baseUrl: base }).get('/v1/accounts/1');
    expect(res.ok && res.data).toEqual({ id: 'bare' });
  });
});
