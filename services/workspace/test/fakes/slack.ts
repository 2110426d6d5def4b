/**
 * A fake Slack Web API on a local port, in Slack's wire format: `POST /api/<method>` with
 * `Authorization: Bearer <token>`, a JSON or form-encoded body, answered HTTP 200 with
 * `{"ok": true, ...}` or `{"ok": false, "error": "<code>"}` (no token: not_authed; a wrong one:
 * invalid_auth; an unknown method: unknown_method), and HTTP 429 with Retry-After when a test asks
 * for a rate limit. Tests register users, choose failures and read every call made.
 *
 * Methods: chat.postMessage, users.lookupByEmail; the chat workers' reading methods
 * (conversations.list, conversations.join, conversations.history, conversations.replies) answer
 * from `channels` and `messages` as Slack does: history newest first, top-level messages only,
 * cursor paged; replies the parent then its replies oldest first; not_in_channel where the bot is
 * not a member. Workers that need more add them here, in `handlers`, answering as Slack documents.
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
  /** Who wrote it; absent: the bot (chat.postMessage). */
  user?: string;
}

export interface FakeSlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  /** Whether the bot is a member (conversations.join makes it one). */
  is_member: boolean;
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
  /** Channels of the workspace (conversations.*), in creation order. */
  channels: FakeSlackChannel[];
  addChannel(c: Partial<FakeSlackChannel> & { name: string }): FakeSlackChannel;
  /** A person writes in a channel (a DM channel is `D` + the user id without its `U`); returns the message. */
  say(channel: string, user: string, text: string, opts?: { thread_ts?: string; ts?: string }): FakeSlackMessage;
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

const asMessage = (m: FakeSlackMessage, all: FakeSlackMessage[]) => {
  const replies = all.filter((r) => r.channel === m.channel && r.thread_ts === m.ts && r.ts !== m.ts);
  return {
    type: 'message',
    ...(m.user ? { user: m.user } : { user: 'UBOTFAKE', bot_id: 'BFAKE' }),
    text: m.text,
    ts: m.ts,
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    ...(replies.length > 0 ? { thread_ts: m.ts, reply_count: replies.length } : {}),
  };
};
const tsNum = (ts: unknown) => (typeof ts === 'string' && ts !== '' ? Number(ts) : undefined);
/** A page of `items` from the opaque cursor (an offset here), and the next cursor ('' at the end). */
const page = <T>(items: T[], args: Record<string, unknown>, max: number) => {
  const offset =
    typeof args.cursor === 'string' && args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString()) : 0;
  const limit = Math.min(Number(args.limit ?? 100) || 100, max);
  const slice = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  return { slice, more, next: more ? Buffer.from(String(offset + limit)).toString('base64') : '' };
};
const channelFor = (fake: FakeSlack, id: unknown) => {
  if (typeof id !== 'string' || !id) return undefined;
  if (id.startsWith('D')) return { id, name: id, is_private: true, is_archived: false, is_member: true, is_im: true };
  return fake.channels.find((c) => c.id === id);
};

const READERS: Record<string, Handler> = {
  'conversations.list': (fake, args) => {
    const types = String(args.types ?? 'public_channel').split(',');
    const listed = fake.channels.filter(
      (c) =>
        (c.is_private ? types.includes('private_channel') && c.is_member : types.includes('public_channel')) &&
        !(String(args.exclude_archived) === 'true' && c.is_archived),
    );
    const p = page(listed, args, 1000);
    return {
      ok: true,
      channels: p.slice.map((c) => ({ ...c, is_channel: !c.is_private, is_group: false, is_im: false })),
      response_metadata: { next_cursor: p.next },
    };
  },
  'conversations.join': (fake, args) => {
    const c = fake.channels.find((x) => x.id === args.channel);
    if (!c) return { ok: false, error: 'channel_not_found' };
    if (c.is_archived) return { ok: false, error: 'is_archived' };
    if (c.is_private) return { ok: false, error: 'method_not_supported_for_channel_type' };
    const already = c.is_member;
    c.is_member = true;
    return { ok: true, channel: { ...c }, ...(already ? { warning: 'already_in_channel' } : {}) };
  },
  'conversations.history': (fake, args) => {
    const c = channelFor(fake, args.channel);
    if (!c) return { ok: false, error: 'channel_not_found' };
    if (!c.is_member) return { ok: false, error: 'not_in_channel' };
    const oldest = tsNum(args.oldest);
    const latest = tsNum(args.latest);
    const inclusive = String(args.inclusive) === 'true';
    const top = fake.messages
      .filter((m) => m.channel === c.id && (!m.thread_ts || m.thread_ts === m.ts))
      .filter((m) => oldest === undefined || (inclusive ? Number(m.ts) >= oldest : Number(m.ts) > oldest))
      .filter((m) => latest === undefined || (inclusive ? Number(m.ts) <= latest : Number(m.ts) < latest))
      .sort((a, b) => Number(b.ts) - Number(a.ts));
    const p = page(top, args, 999);
    return {
      ok: true,
      messages: p.slice.map((m) => asMessage(m, fake.messages)),
      has_more: p.more,
      response_metadata: { next_cursor: p.next },
    };
  },
  'conversations.replies': (fake, args) => {
    const c = channelFor(fake, args.channel);
    if (!c) return { ok: false, error: 'channel_not_found' };
    if (!c.is_member) return { ok: false, error: 'not_in_channel' };
    const parent = fake.messages.find((m) => m.channel === c.id && m.ts === args.ts);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    const oldest = tsNum(args.oldest);
    const replies = fake.messages
      .filter((m) => m.channel === c.id && m.thread_ts === parent.ts && m.ts !== parent.ts)
      .filter((m) => oldest === undefined || Number(m.ts) > oldest)
      .sort((a, b) => Number(a.ts) - Number(b.ts));
    const p = page([parent, ...replies], args, 1000);
    return {
      ok: true,
      messages: p.slice.map((m) => asMessage(m, fake.messages)),
      has_more: p.more,
      response_metadata: { next_cursor: p.next },
    };
  },
};

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
    channels: [],
    addChannel(c) {
      const channel: FakeSlackChannel = {
        id: c.id ?? `C${String(fake.channels.length + 1).padStart(8, '0')}`,
        is_private: false,
        is_archived: false,
        is_member: false,
        ...c,
      };
      fake.channels.push(channel);
      return channel;
    },
    say(channel, user, text, opts = {}) {
      const m: FakeSlackMessage = {
        channel,
        ts: opts.ts ?? nextTs(),
        text,
        user,
        ...(opts.thread_ts ? { thread_ts: opts.thread_ts } : {}),
      };
      fake.messages.push(m);
      return m;
    },
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
    const handler = fake.handlers[method] ?? BUILT_IN[method] ?? READERS[method];
    if (!handler) return send(200, { ok: false, error: 'unknown_method' });
    return send(200, handler(fake, args));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return fake;
}
