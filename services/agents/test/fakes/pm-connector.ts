import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A property-management connector and a resident directory speaking the contract in
 * docs/decisions.md ("Property-management tools") on local ports: JSON under /v1, a bearer
 * token, answers {data}. Tests set what they hold, read every request they got, and make a path
 * fail with a status.
 */

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
}

type Json = Record<string, unknown>;

abstract class FakeServer {
  readonly requests: Seen[] = [];
  /** Answer this status on every request whose "METHOD /path" starts with the key. */
  readonly failures = new Map<string, number>();
  private server: Server = createServer((req, res) => void this.receive(req, res));
  url = '';

  constructor(readonly token: string) {}

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Requests whose "METHOD /path" starts with `prefix`. */
  seen(prefix = '') {
    return this.requests.filter((r) => `${r.method} ${r.path}`.startsWith(prefix));
  }

  private async receive(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://fake');
    const seen: Seen = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(u.pathname),
      query: u.searchParams,
      body: text ? JSON.parse(text) : undefined,
      authorization: req.headers.authorization,
    };
    this.requests.push(seen);
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (seen.authorization !== `Bearer ${this.token}`) return send(401, { error: 'unauthorized' });
    for (const [prefix, status] of this.failures) {
      if (`${seen.method} ${seen.path}`.startsWith(prefix)) return send(status, { error: 'failing' });
    }
    const [status, body] = this.answer(seen);
    send(status, body);
  }

  protected abstract answer(r: Seen): [number, unknown?];
}

export interface FakeMoveIn {
  resident_code: string;
  unit_code: string;
  lease_code: string;
  move_in_date: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
}

export interface FakeTenant {
  tenant_code: string;
  lease_code: string;
  email_writeback: boolean;
  persons: { person_code: string; first_name: string; last_name: string; email: string | null }[];
}

/** One property's data on the fake connector. */
export interface FakeProperty {
  moveIns: FakeMoveIn[];
  residents: Record<string, Json>;
  syncLogs: Json[];
  spaces: { space_code: string; name: string }[];
  tenants: Record<string, FakeTenant>;
  /** Uploaded mappings: unit -> space. */
  mappings: Record<string, string>;
}

export class FakeConnector extends FakeServer {
  readonly properties = new Map<string, FakeProperty>();

  property(code: string): FakeProperty {
    let p = this.properties.get(code);
    if (!p) {
      p = { moveIns: [], residents: {}, syncLogs: [], spaces: [], tenants: {}, mappings: {} };
      this.properties.set(code, p);
    }
    return p;
  }

  protected answer(r: Seen): [number, unknown?] {
    const m = /^\/v1\/properties\/([^/]+)\/(.*)$/.exec(r.path);
    if (!m) return [404];
    const p = this.property(m[1] as string);
    const body = r.body as Record<string, string>;
    const routes: [string, RegExp, (x: string[]) => [number, unknown?]][] = [
      ['GET', /^move-ins$/, () => [200, { data: p.moveIns }]],
      [
        'GET',
        /^residents\/([^/]+)$/,
        ([, code]) => (p.residents[code as string] ? [200, { data: p.residents[code as string] }] : [404]),
      ],
      [
        'GET',
        /^sync-logs$/,
        () => {
          const since = Date.parse(r.query.get('since') ?? '');
          return [200, { data: p.syncLogs.filter((l) => Date.parse(String(l.logged_at)) >= since) }];
        },
      ],
      ['GET', /^spaces$/, () => [200, { data: p.spaces }]],
      [
        'PUT',
        /^unit-mappings\/([^/]+)$/,
        ([, unit]) => {
          p.mappings[unit as string] = body.space_code as string;
          return [200, { data: { unit_code: unit, space_code: body.space_code } }];
        },
      ],
      ['POST', /^resync$/, () => [202, { data: { resync_id: `rs-${this.requests.length}` } }]],
      [
        'GET',
        /^tenants\/([^/]+)$/,
        ([, t]) => (p.tenants[t as string] ? [200, { data: p.tenants[t as string] }] : [404]),
      ],
      [
        'PUT',
        /^tenants\/([^/]+)\/persons\/([^/]+)\/email$/,
        ([, t, code]) => {
          const person = p.tenants[t as string]?.persons.find((y) => y.person_code === code);
          if (!person) return [404];
          person.email = body.email as string;
          return [200, { data: { person_code: code } }];
        },
      ],
      ['POST', /^leases\/([^/]+)\/resync$/, () => [202, { data: { resync_id: `ls-${this.requests.length}` } }]],
    ];
    for (const [method, re, handle] of routes) {
      const x = re.exec(m[2] as string);
      if (x && method === r.method) return handle([...x]);
    }
    return [404];
  }
}

export class FakeDirectory extends FakeServer {
  readonly residents: { resident_id: string; name: string; email: string | null }[] = [];

  /** Matches loosely (any resident whose name contains the query), as directories do: the tool filters. */
  protected answer(r: Seen): [number, unknown?] {
    if (r.method !== 'GET' || r.path !== '/v1/residents') return [404];
    const q = (r.query.get('name') ?? '').toLowerCase();
    return [200, { data: this.residents.filter((x) => x.name.toLowerCase().includes(q)) }];
  }
}
