import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noAuthenticator } from '../src/auth/authenticate.ts';
import type { Database } from '../src/db/database.ts';
import { Envelope } from '../src/envelope.ts';
import { type App, createServiceApp } from '../src/http/app.ts';

const Row = Type.Object({ code: Type.String(), note: Type.Union([Type.String(), Type.Null()]), n: Type.Integer() });
const Rows = Type.Array(Row);
/** A cached answer: one object, answered again and again (with a field the schema does not show). */
const cached = [
  { code: 'A-1', note: 'quote " and \u00e9', n: 1, secret: 'not in the schema' },
  { code: 'B-2', note: null, n: 2 },
];

let app: App;
beforeAll(async () => {
  app = await createServiceApp({
    service: 'cachedsvc',
    title: 'Cached',
    description: 'Answers from a cache',
    database: { ping: async () => true } as unknown as Database,
    authenticator: noAuthenticator,
    logLevel: 'silent',
    routes: (a) => {
      a.get('/v1/plain', { schema: { response: { 200: Envelope(Rows) } } }, async (_req, reply) =>
        reply.envelope(cached),
      );
      a.get('/v1/undeclared', async (_req, reply) => reply.envelopeCached(cached) as never);
      a.get(
        '/v1/cached',
        { schema: { response: { 200: Envelope(Rows) } } },
        async (_req, reply) => reply.envelopeCached(cached) as never,
      );
    },
  });
});
afterAll(async () => app.close());

describe('22 an answer from a cache is serialized once (reply.envelopeCached)', () => {
  it('22 AGT-152 it answers the same JSON as reply.envelope, by the same schema, with its own request id', async () => {
    const plain = await app.inject({ method: 'GET', url: '/v1/plain', headers: { 'x-request-id': 'req-plain' } });
    const fast = await app.inject({ method: 'GET', url: '/v1/cached', headers: { 'x-request-id': 'req-cached' } });
    expect(fast.statusCode).toBe(200);
    expect(fast.headers['content-type']).toBe(plain.headers['content-type']);
    const [p, f] = [plain.json(), fast.json()];
    expect(f.payload).toEqual(p.payload);
    expect(JSON.stringify(f.payload)).not.toContain('secret');
    expect(f.header).toMatchObject({ service: 'cachedsvc', api_version: 'v1', request_id: 'req-cached' });
    expect(Date.parse(f.header.timestamp)).not.toBeNaN();
  });

  it('22 AGT-152 the data is serialized by the schema the route declares for its status; a route declaring none is a programming error (500)', async () => {
    const answer = await app.inject({ method: 'GET', url: '/v1/undeclared' });
    expect(answer.statusCode).toBe(500);
  });

  it('22 AGT-152 the data of one cached object is serialized the first time only; each answer gets a fresh header', async () => {
    const first = (await app.inject({ method: 'GET', url: '/v1/cached' })).json();
    // A cached object is never changed; this one is, to show its bytes were kept, not rebuilt.
    cached[1].n = 99;
    try {
      const again = (await app.inject({ method: 'GET', url: '/v1/cached' })).json();
      expect(again.payload).toEqual(first.payload);
      expect(again.payload.data[1].n).toBe(2);
      expect(again.header.request_id).not.toBe(first.header.request_id);
    } finally {
      cached[1].n = 2;
    }
  });
});
