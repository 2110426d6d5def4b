/**
 * A fake identity service answering GET /v1/people/{fid} in the platform envelope, with the
 * service token required (401 otherwise), as services/identity does. Tests register people.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeIdentity {
  url: string;
  people: Map<string, string>;
  close(): Promise<void>;
}

export async function startFakeIdentity(o: { serviceToken: string }): Promise<FakeIdentity> {
  const people = new Map<string, string>();
  const server = createServer((req, res) => {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          header: {
            service: 'identity',
            api_version: 'v1',
            request_id: randomUUID(),
            timestamp: new Date().toISOString(),
          },
          payload,
        }),
      );
    };
    const m = /^\/v1\/people\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m) return send(404, { errors: [{ code: 'not_found', message: 'No route' }] });
    if (req.headers['x-platform-service-token'] !== o.serviceToken) {
      return send(401, { errors: [{ code: 'unauthenticated', message: 'No token' }] });
    }
    const fid = decodeURIComponent(m[1] ?? '');
    const email = people.get(fid);
    if (!email) return send(404, { errors: [{ code: 'not_found', message: 'Person not found' }] });
    return send(200, {
      data: {
        fid,
        email,
        email_verified: true,
        name: null,
        has_password: false,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    people,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
