import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Vendors } from '../../src/clients/vendors.ts';

/**
 * A vendors service on a local port speaking the real one's wire format for the two reads
 * construction makes: GET /v1/vendors/{id} (the firm with its contacts and insurance) and
 * GET /v1/vendors?ids=... (a page of firms), in the {header, payload} envelope, 404
 * vendor_not_found for an unknown firm. It demands X-Platform-Service-Token (401 otherwise) and
 * X-Platform-On-Behalf-Of, as vendors does, and records every request's headers. `mode` makes it
 * fail (500) or hang (never answer).
 */
export interface FakeFirm {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  contacts: { id: string; email: string }[];
}

export const FAKE_VENDORS_TOKEN = 'fake-vendors-service-token';

export interface FakeVendors {
  url: string;
  mode: 'ok' | 'fail' | 'hang';
  /** The service token it accepts (change it to see a refusal). */
  token: string;
  firms: Map<string, FakeFirm>;
  requests: { url: string; headers: IncomingMessage['headers'] }[];
  /** A firm the fake knows (active, one contact, unless overridden). */
  firm(over?: Partial<FakeFirm>): FakeFirm;
  close(): Promise<void>;
}

const header = () => ({
  service: 'vendors',
  api_version: 'v1',
  request_id: randomUUID(),
  timestamp: new Date().toISOString(),
});

const firmBody = (f: FakeFirm) => {
  const at = '2026-01-05T09:00:00.000Z';
  return {
    id: f.id,
    name: f.name,
    kind: 'consultant',
    kind_description: null,
    discipline: 'architecture',
    status: f.status,
    created_at: at,
    updated_at: at,
  };
};

const send = (res: ServerResponse, status: number, payload: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ header: header(), payload }));
};

export async function fakeVendors(token = FAKE_VENDORS_TOKEN): Promise<FakeVendors> {
  const hanging = new Set<ServerResponse>();
  const fake: Omit<FakeVendors, 'url' | 'close'> = {
    mode: 'ok',
    token,
    firms: new Map(),
    requests: [],
    firm(over = {}) {
      const id = over.id ?? randomUUID();
      const f: FakeFirm = {
        id,
        name: `Firm ${id.slice(0, 6)}`,
        status: 'active',
        contacts: [{ id: randomUUID(), email: `pm.${id.slice(0, 6)}@firm.test` }],
        ...over,
      };
      fake.firms.set(id, f);
      return f;
    },
  };
  const server: Server = createServer((req, res) => {
    fake.requests.push({ url: req.url ?? '', headers: req.headers });
    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'fail') return send(res, 500, { errors: [{ code: 'internal_error', message: 'boom' }] });
    if (req.headers['x-platform-service-token'] !== fake.token || !req.headers['x-platform-on-behalf-of']) {
      return send(res, 401, { errors: [{ code: 'unauthenticated', message: 'Missing or invalid credentials' }] });
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const one = /^\/v1\/vendors\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const f = fake.firms.get(one[1] as string);
      if (!f) return send(res, 404, { errors: [{ code: 'vendor_not_found', message: 'Vendor not found' }] });
      const contacts = f.contacts.map((c) => ({
        id: c.id,
        vendor_id: f.id,
        email: c.email,
        given_name: 'Pat',
        family_name: 'Lee',
        phone: null,
        active: true,
        created_at: '2026-01-05T09:00:00.000Z',
        updated_at: '2026-01-05T09:00:00.000Z',
      }));
      return send(res, 200, { data: { ...firmBody(f), contacts, insurance: [] } });
    }
    if (req.method === 'GET' && url.pathname === '/v1/vendors') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      const found = ids.map((id) => fake.firms.get(id)).filter((f): f is FakeFirm => f !== undefined);
      return send(res, 200, {
        data: found.map(firmBody),
        meta: { pagination: { mode: 'page', page: 1, pageSize: 100, totalItems: found.length, totalPages: 1 } },
      });
    }
    return send(res, 404, { errors: [{ code: 'not_found', message: 'Route not found' }] });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  }) as FakeVendors;
}

/**
 * A vendors service in memory for the route checks: every firm it is asked about exists and is
 * active, with no contacts. (Refusals and the wire format are tested against fakeVendors.)
 */
export const everyFirmActive: Vendors = {
  firm: async (id) => ({ id, name: `Firm ${id.slice(0, 6)}`, status: 'active', contact_ids: [] }),
  firms: async (ids) => ids.map((id) => ({ id, name: `Firm ${id.slice(0, 6)}`, status: 'active' as const })),
};
