import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsCall } from '../src/clients/documents.ts';

/** documentsCall: the one call to the documents service that workspace and construction share. */
let server: Server;
let base: string;
const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const reply = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(text);
      };
      if (req.url === '/ok') return reply(200, JSON.stringify({ payload: { data: { id: 'd1' } } }));
      if (req.url === '/refused') {
        return reply(422, JSON.stringify({ payload: { errors: [{ code: 'blob_not_found', message: 'no blob' }] } }));
      }
      if (req.url === '/shape') return reply(200, JSON.stringify({ payload: { data: { other: 1 } } }));
      if (req.url === '/text') return reply(500, 'oops');
      // /hang: never answers
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const Shape = Type.Object({ id: Type.String() });
// A bound no answer of the fake comes near, however busy the machine; the hang case sets a short one.
const o = (timeoutMs = 30_000) => ({ baseUrl: base, timeoutMs, serviceToken: 'tok' });

describe('documentsCall', () => {
  it('answers the data in the documented shape, sending JSON, the service token and given headers', async () => {
    const a = await documentsCall(o(), 'POST', '/ok', { data: { x: 1 } }, Shape, { 'idempotency-key': 'k1' });
    expect(a).toEqual({ ok: true, data: { id: 'd1' } });
    const last = seen.at(-1);
    expect(last?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-platform-service-token': 'tok',
      'idempotency-key': 'k1',
    });
    expect(JSON.parse(last?.body ?? '')).toEqual({ data: { x: 1 } });
  });

  it("passes the documents service's status and first error code", async () => {
    expect(await documentsCall(o(), 'POST', '/refused', {}, Shape)).toEqual({
      ok: false,
      status: 422,
      code: 'blob_not_found',
      message: 'no blob',
    });
  });

  it('is documents_malformed for another shape or a body that is not JSON, documents_unreachable for a hang', async () => {
    expect(await documentsCall(o(), 'GET', '/shape', undefined, Shape)).toMatchObject({
      ok: false,
      status: 503,
      code: 'documents_malformed',
    });
    expect(await documentsCall(o(), 'GET', '/text', undefined, Shape)).toMatchObject({ code: 'documents_malformed' });
    const started = Date.now();
    expect(await documentsCall(o(300), 'GET', '/hang', undefined, Shape)).toMatchObject({
      ok: false,
      status: 503,
      code: 'documents_unreachable',
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
