/**
 * A fake communications service on a local port speaking the contract docs/decisions.md writes
 * down ("Presentations (issue 16)"): POST /v1/shares/presentations with the service token on
 * behalf of a person and an Idempotency-Key, answered 201 in the platform envelope (the same key
 * again: 200 with the same share). Tests choose whether it fails and read what it was sent.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PresentationShare } from '../../src/clients/communications.ts';

export interface FakeShareRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { data: PresentationShare };
}

export interface FakeCommunications {
  url: string;
  requests: FakeShareRequest[];
  /** undefined: answer; a status: answer it with an enveloped error. */
  failWith?: number;
  close(): Promise<void>;
}

const header = () => ({
  service: 'communications',
  api_version: 'v1',
  request_id: randomUUID(),
  timestamp: new Date().toISOString(),
});

export async function startFakeCommunications(o: { serviceToken: string }): Promise<FakeCommunications> {
  const byKey = new Map<string, string>();
  const fake: FakeCommunications = {
    url: '',
    requests: [],
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ header: header(), payload: body }));
    };
    const fail = (status: number, code: string, message: string) => send(status, { errors: [{ code, message }] });
    if (req.method !== 'POST' || req.url !== '/v1/shares/presentations') return fail(404, 'not_found', 'No route');
    if (req.headers['x-platform-service-token'] !== o.serviceToken) return fail(401, 'unauthenticated', 'No token');
    let body: { data: PresentationShare };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(400, 'invalid_json', 'Not JSON');
    }
    fake.requests.push({ path: req.url, headers: req.headers, body });
    if (fake.failWith !== undefined) return fail(fake.failWith, 'communications_failing', 'Failing on purpose');
    const key = String(req.headers['idempotency-key'] ?? '');
    if (!key) return fail(400, 'idempotency_key_required', 'Idempotency-Key is required');
    const d = body?.data;
    if (!d || !Array.isArray(d.recipients) || d.recipients.length === 0 || typeof d.document_id !== 'string') {
      return fail(422, 'validation_failed', 'recipients and document_id are required');
    }
    const known = byKey.get(key);
    if (known) return send(200, { data: { share_id: known } });
    const shareId = `share-${randomUUID()}`;
    byKey.set(key, shareId);
    return send(201, { data: { share_id: shareId } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
