import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/**
 * The REAL unleash-server 7.5.1 for the console's flag tests, on the local PostgreSQL: a fresh
 * database per run (dropped at the end), an admin token made at start through initApiTokens.
 * Without TEST_POSTGRES_URL it uses the machine's local PostgreSQL (the flag server has no
 * embedded mode).
 */
export interface RealUnleash {
  url: string;
  token: string;
  stop(): Promise<void>;
}

const postgresUrl = () => process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function startUnleash(): Promise<RealUnleash> {
  const admin = new URL(postgresUrl());
  const database = `console_unleash_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE ${database}`);
  await client.end();
  const token = `*:*.${randomBytes(16).toString('hex')}`;
  const { start } = await import('unleash-server');
  const quiet = () => ({ debug() {}, info() {}, warn() {}, error() {}, fatal() {} });
  const unleash = await start({
    db: {
      user: decodeURIComponent(admin.username || 'postgres'),
      password: decodeURIComponent(admin.password),
      host: admin.hostname,
      port: Number(admin.port || 5432),
      database,
      ssl: false,
      pool: { min: 0, max: 4 },
    },
    listen: { host: '127.0.0.1', port: 0 },
    server: { gracefulShutdownEnable: false, enableRequestLogger: false },
    getLogger: quiet,
    versionCheck: { enable: false },
    disableScheduler: true,
    authentication: {
      initApiTokens: [
        { environment: '*', projects: ['*'], secret: token, type: 'admin' as never, tokenName: 'console-admin' },
      ],
    },
  } as never);
  if (!unleash.server) throw new Error('unleash-server did not listen');
  const port = (unleash.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    async stop() {
      await unleash.stop();
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One request the flag server received, as the console sent it. */
export interface Seen {
  method: string;
  path: string;
  ifMatch?: string;
  authorization?: string;
  body: unknown;
  status: number;
  answer: unknown;
  etag?: string;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const parse = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

interface ServiceAccount {
  id: number;
  name: string;
  username: string;
  rootRole: number;
  createdAt: string;
  tokens: { id: number; secret: string; description: string; expiresAt: string }[];
  version: number;
}

/**
 * Unleash Enterprise's service accounts (404 in the open-source server) in its wire format:
 * GET/POST /api/admin/service-account, GET/PUT /api/admin/service-account/{id}, an ETag per
 * account and a 422 for a root role that does not exist. Listed accounts carry their tokens'
 * secrets, as a careless server might, so the console's key-dropping is what is tested.
 */
class EnterpriseServiceAccounts {
  private readonly accounts: ServiceAccount[] = [];
  private next = 1;
  constructor(private readonly token: string) {}

  seed(name: string, username: string): ServiceAccount {
    const a: ServiceAccount = {
      id: this.next++,
      name,
      username,
      rootRole: 3,
      createdAt: new Date(0).toISOString(),
      tokens: [
        { id: 1, secret: `user:${randomBytes(12).toString('hex')}`, description: 'ci', expiresAt: '2099-01-01' },
      ],
      version: 1,
    };
    this.accounts.push(a);
    return a;
  }

  /** Changes an account as another operator would (its version moves on). */
  rename(id: number, name: string) {
    const a = this.accounts.find((x) => x.id === id);
    if (a) Object.assign(a, { name, version: a.version + 1 });
  }

  handles = (path: string) => path === '/api/admin/service-account' || path.startsWith('/api/admin/service-account/');

  answer(method: string, path: string, body: unknown, ifMatch: string | undefined, auth: string | undefined) {
    const send = (status: number, value: unknown, etag?: string) => ({ status, value, etag });
    if (auth !== this.token) return send(401, { name: 'AuthenticationRequired', message: 'You must log in' });
    const etag = (a: ServiceAccount) => `W/"sa-${a.id}-${a.version}"`;
    const view = ({ version: _v, ...a }: ServiceAccount) => a;
    if (path === '/api/admin/service-account') {
      if (method === 'GET') return send(200, { serviceAccounts: this.accounts.map(view), rootRoles: [] });
      if (method === 'POST') {
        const b = (body ?? {}) as Partial<ServiceAccount>;
        if (![1, 2, 3].includes(Number(b.rootRole))) {
          return send(422, {
            id: randomUUID(),
            name: 'UnprocessableEntityError',
            message: `Role ${String(b.rootRole)} does not exist`,
            details: [{ message: `Role ${String(b.rootRole)} does not exist` }],
          });
        }
        if (this.accounts.some((a) => a.username === b.username)) {
          return send(409, { id: randomUUID(), name: 'NameExistsError', message: 'The username is taken' });
        }
        const a = this.seed(String(b.name), String(b.username));
        a.rootRole = Number(b.rootRole);
        a.tokens = [];
        return send(201, view(a), etag(a));
      }
    }
    const a = this.accounts.find((x) => `/api/admin/service-account/${x.id}` === path);
    if (!a) return send(404, { name: 'NotFoundError', message: 'No service account with that id' });
    if (method === 'GET') return send(200, view(a), etag(a));
    if (method === 'PUT') {
      if (ifMatch && ifMatch !== etag(a)) return send(409, { name: 'ConflictError', message: 'Changed since read' });
      const b = (body ?? {}) as Partial<ServiceAccount>;
      if (![1, 2, 3].includes(Number(b.rootRole))) {
        return send(422, { name: 'UnprocessableEntityError', message: `Role ${String(b.rootRole)} does not exist` });
      }
      Object.assign(a, { name: b.name, username: b.username, rootRole: Number(b.rootRole), version: a.version + 1 });
      return send(200, view(a), etag(a));
    }
    return send(405, { name: 'MethodNotAllowed', message: method });
  }
}

/**
 * What the console talks to in flag tests: the real Unleash, with Enterprise's service accounts
 * beside it, behind a front that records every request (what was read before a write, the version
 * it sent) so a test can also prove nothing was called.
 */
export interface FlagServerFront {
  url: string;
  token: string;
  seen: Seen[];
  serviceAccounts: EnterpriseServiceAccounts;
  /** Runs before a request is answered (a test changes the value between a read and its write). */
  before?: (s: Seen) => Promise<void> | void;
  close(): Promise<void>;
}

export async function flagServerFront(real: RealUnleash): Promise<FlagServerFront> {
  const seen: Seen[] = [];
  const enterprise = new EnterpriseServiceAccounts(real.token);
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    const header = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : undefined);
    const record: Seen = {
      method,
      path,
      ifMatch: header('if-match'),
      authorization: header('authorization'),
      body: parse(text),
      status: 0,
      answer: undefined,
    };
    seen.push(record);
    await front.before?.(record);
    let status: number;
    let answerText: string;
    let etag: string | undefined;
    if (enterprise.handles(path)) {
      const a = enterprise.answer(method, path, record.body, record.ifMatch, record.authorization);
      status = a.status;
      answerText = JSON.stringify(a.value);
      etag = a.etag;
    } else {
      const headers: Record<string, string> = {};
      for (const n of ['authorization', 'content-type', 'accept', 'if-match']) {
        const v = header(n);
        if (v) headers[n] = v;
      }
      const r = await fetch(`${real.url}${req.url}`, { method, headers, body: text || undefined });
      status = r.status;
      answerText = await r.text();
      etag = r.headers.get('etag') ?? undefined;
    }
    record.status = status;
    record.answer = parse(answerText);
    record.etag = etag;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(etag ? { etag } : {}) });
    res.end(answerText);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const front: FlagServerFront = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: real.token,
    seen,
    serviceAccounts: enterprise,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  return front;
}
