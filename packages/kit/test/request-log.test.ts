import { afterEach, describe, expect, it } from 'vitest';
import { noAuthenticator } from '../src/auth/authenticate.ts';
import type { Database } from '../src/db/database.ts';
import { createServiceApp } from '../src/http/app.ts';
import { logTo } from '../src/http/logging.ts';

/** What a service writes to its log, line by line, as JSON objects. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  logTo({ write: (line) => void lines.push(JSON.parse(line)) });
  return lines;
}
afterEach(() => logTo(undefined));

async function app(logLevel: string) {
  return createServiceApp({
    service: 'logged',
    title: 'Logged',
    description: 'A service whose log the test reads',
    database: { ping: async () => true } as unknown as Database,
    authenticator: noAuthenticator,
    logLevel,
    routes: (a) => {
      a.get('/v1/things', async (_req, reply) => reply.envelope([]));
    },
  });
}

const requestLines = (lines: Record<string, unknown>[]) => lines.filter((l) => 'statusCode' in l || 'req' in l);

describe('request logging (a service started alone: JSON lines)', () => {
  it('13.6 one JSON line per request (method, url, status, response time), health checks absent at info', async () => {
    const lines = capture();
    const a = await app('info');
    for (const url of ['/healthz', '/readyz', '/v1/things?x=1', '/nowhere']) await a.inject({ method: 'GET', url });
    await a.close();
    expect(lines.filter((l) => JSON.stringify(l).includes('nowhere'))).toHaveLength(1);
    expect(requestLines(lines)).toEqual([
      expect.objectContaining({
        level: 30,
        name: 'logged',
        method: 'GET',
        url: '/v1/things?x=1',
        statusCode: 200,
        responseTime: expect.any(Number),
        msg: expect.stringMatching(/^GET \/v1\/things\?x=1 200 \d+(\.\d+)?ms$/),
      }),
      expect.objectContaining({ url: '/nowhere', statusCode: 404 }),
    ]);
  });

  it('13.6 health checks are logged at debug', async () => {
    const lines = capture();
    const a = await app('debug');
    await a.inject({ method: 'GET', url: '/healthz' });
    await a.close();
    expect(requestLines(lines)).toEqual([expect.objectContaining({ level: 20, url: '/healthz', statusCode: 200 })]);
  });
});
