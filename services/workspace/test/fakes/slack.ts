/**
 * A fake Slack Web API on a local port, in Slack's wire format: `POST /api/<method>` with
 * `Authorization: Bearer <token>`, a JSON or form-encoded body, answered HTTP 200 with
 * `{"ok": true, ...}` or `{"ok": false, "error": "<code>"}` (no token: not_authed; a wrong one:
 * invalid_auth; an unknown method: unknown_method), and HTTP 429 with Retry-After when a test asks
 * for a rate limit. Tests register users, choose failures and read every call made.
 *
 * Methods: chat.postMessage, users.lookupByEmail. Workers that need more add them here, in
 * `handlers`, answering as Slack documents.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSlackCall {
  method: string;
  headers: IncomingMessage['headers'];
  /** The arguments, JSON or form-decoded. */
  args: Record<string, unknown>;
}

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  text: string;
  thread_ts?: string;
  blocks?: unknown[];
}

export interface FakeSlackUser {
  id: string;
  name: string;
  real_name?: string;
  email: string;
  deleted?: boolean;
  is_bot?: boolean;
}

type Handler = (fake: FakeSlack, args: Record<string, unknown>) => Record<string, unknown>;

export interface FakeSlack {
  /** The Web API base (SLACK_API_URL): `http://127.0.0.1:<port>/api`. */
  url: string;
  token: string;
  calls: FakeSlackCall[];
  /** Messages posted (chat.postMessage), oldest first. */
  messages: FakeSlackMessage[];
  users: FakeSlackUser[];
  /** Registers a user (a chat account) and returns it. */
  addUser(u: Partial<FakeSlackUser> & { email: string }): FakeSlackUser;
  /**
   * Failures a test sets: `error` answers every call of that method with {ok:false, error};
   * `ratelimit` answers HTTP 429 (Retry-After: seconds); `failChannels` fails posts to these
   * channels with channel_not_found.
   */
  fail: { [method: string]: string | undefined };
  ratelimit: { [method: string]: number | undefined };
  failChannels: Set<string>;
  /** More methods (a worker's), answering like Slack. */
  handlers: Record<string, Handler>;
  close(): Promise<void>;
}

let tsCounter = 0;
/** A Slack message timestamp: seconds with six digits after the point, unique within the fake. */
const nextTs = () => {
  tsCounter += 1;
  return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
};

const userView = (u: FakeSlackUser) => ({
  id: u.id,
  team_id: 'T0FAKE',
  name: u.name,
  deleted: u.deleted ?? false,
  real_name: u.real_name ?? u.name,
  is_bot: u.is_bot ?? false,
  profile: { email: u.email, real_name: u.real_name ?? u.name, display_name: u.name },
});

const BUILT_IN: Record<string, Handler> = {
  'chat.postMessage': (fake, args) => {
    const channel = typeof args.channel === 'string' ? args.channel : '';
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const text = typeof args.text === 'string' ? args.text : '';
    const blocks = Array.isArray(args.blocks) ? args.blocks : undefined;
    if (!text && !blocks) return { ok: false, error: 'no_text' };
    if (fake.failChannels.has(channel)) return { ok: false, error: 'channel_not_found' };
    // A user id as channel: a direct message, which Slack delivers in the DM channel (D...).
    const isUser = fake.users.some((u) => u.id === channel);
    if (channel.startsWith('U') && !isUser) return { ok: false, error: 'channel_not_found' };
    const target = isUser ? `D${channel.slice(1)}` : channel;
    const ts = nextTs();
    const m: FakeSlackMessage = {
      channel: target,
      ts,
      text,
      ...(typeof args.thread_ts === 'string' ? { thread_ts: args.thread_ts } : {}),
      ...(blocks ? { blocks } : {}),
    };
    fake.messages.push(m);
    return {
      ok: true,
      channel: target,
      ts,
      message: {
        type: 'message',
        user: 'UBOTFAKE',
        bot_id: 'BFAKE',
        text,
        ts,
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
      },
    };
  },
  'users.lookupByEmail': (fake, args) => {
    const email = typeof args.email === 'string' ? args.email.toLowerCase() : '';
    if (!email) return { ok: false, error: 'invalid_arguments' };
    const u = fake.users.find((x) => x.email.toLowerCase() === email);
    return u ? { ok: true, user: userView(u) } : { ok: false, error: 'users_not_found' };
  },
};

export async function startFakeSlack(o: { token?: string } = {}): Promise<FakeSlack> {
  const fake: FakeSlack = {
    url: '',
    token: o.token ?? 'xoxb-fake-workspace-token',
    calls: [],
    messages: [],
    users: [],
    fail: {},
    ratelimit: {},
    failChannels: new Set(),
    handlers: {},
    addUser(u) {
      const user: FakeSlackUser = {
        id: u.id ?? `U${String(fake.users.length + 1).padStart(8, '0')}`,
        name: u.name ?? u.email.split('@')[0] ?? 'user',
        ...u,
      };
      fake.users.push(user);
      return user;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const method = (req.url ?? '').split('?')[0]?.replace(/^\/api\//, '') ?? '';
    const raw = Buffer.concat(chunks).toString('utf8');
    let args: Record<string, unknown> = {};
    const type = String(req.headers['content-type'] ?? '');
    try {
      if (type.startsWith('application/json')) args = raw ? JSON.parse(raw) : {};
      else args = Object.fromEntries(new URLSearchParams(raw || (req.url ?? '').split('?')[1] || ''));
    } catch {
      return send(200, { ok: false, error: 'invalid_json' });
    }
    fake.calls.push({ method, headers: req.headers, args });
    const auth = String(req.headers.authorization ?? '');
    if (!auth) return send(200, { ok: false, error: 'not_authed' });
    if (auth !== `Bearer ${fake.token}`) return send(200, { ok: false, error: 'invalid_auth' });
    const wait = fake.ratelimit[method];
    if (wait !== undefined) return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(wait) });
    const error = fake.fail[method];
    if (error) return send(200, { ok: false, error });
    const handler = fake.handlers[method] ?? BUILT_IN[method];
    if (!handler) return send(200, { ok: false, error: 'unknown_method' });
    return send(200, handler(fake, args));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return fake;
}
