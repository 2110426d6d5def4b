import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The chat system (Slack), through its Web API (https://api.slack.com/web): every method is an
 * HTTPS call to `<SLACK_API_URL>/<method>` with the bot token as `Authorization: Bearer`, and
 * every answer is HTTP 200 with `{"ok": true, ...}` or `{"ok": false, "error": "<code>"}`; a rate
 * limit is HTTP 429 with Retry-After. Any failure is an answer (`{ok: false, error, status}`),
 * never a throw, so a job counts it and moves on. test/fakes/slack.ts speaks the same wire format.
 *
 * The goal check-in job (issue 19, helper D2) uses chat.postMessage and users.lookupByEmail; the
 * chat workers add the methods they read with (one method here per Slack method).
 */

export const SlackUser = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.Optional(Type.String()),
  real_name: Type.Optional(Type.String()),
  deleted: Type.Optional(Type.Boolean()),
  is_bot: Type.Optional(Type.Boolean()),
  profile: Type.Optional(Type.Object({ email: Type.Optional(Type.String()) })),
});
export type SlackUser = Static<typeof SlackUser>;

/** users.lookupByEmail's answer. */
export const LookupByEmailResult = Type.Object({ ok: Type.Literal(true), user: SlackUser });

/** chat.postMessage's answer: the channel it went to and the message's timestamp (its id). */
export const PostMessageResult = Type.Object({
  ok: Type.Literal(true),
  channel: Type.String({ minLength: 1 }),
  ts: Type.String({ minLength: 1 }),
});
export type PostMessageResult = Static<typeof PostMessageResult>;

export interface PostMessage {
  /** A channel id, or a user id (a direct message from the bot). */
  channel: string;
  text: string;
  /** Reply in this message's thread. */
  thread_ts?: string;
  /** Slack's Block Kit blocks, passed through. */
  blocks?: unknown[];
  unfurl_links?: boolean;
}

export type SlackFailure = {
  ok: false;
  /** Slack's error code (users_not_found, channel_not_found, ratelimited...) or ours (unreachable, timeout, malformed). */
  error: string;
  /** The HTTP status (200 for Slack's ok:false answers; 0 when nothing answered). */
  status: number;
  /** Seconds Slack asked to wait (HTTP 429 Retry-After). */
  retryAfter?: number;
};
export type SlackAnswer<T> = { ok: true; data: T } | SlackFailure;

export interface Slack {
  /** chat.postMessage: posts a message (to a user id: a direct message). */
  postMessage(message: PostMessage): Promise<SlackAnswer<PostMessageResult>>;
  /** users.lookupByEmail: the chat account of an email; {ok: false, error: 'users_not_found'} when there is none. */
  lookupByEmail(email: string): Promise<SlackAnswer<SlackUser>>;
}

/** A conversation as conversations.list and conversations.join show it. */
export const SlackChannel = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.Optional(Type.String()),
  is_private: Type.Optional(Type.Boolean()),
  is_archived: Type.Optional(Type.Boolean()),
  is_member: Type.Optional(Type.Boolean()),
});
export type SlackChannel = Static<typeof SlackChannel>;

/** A message as conversations.history and conversations.replies show it. */
export const SlackMessage = Type.Object({
  ts: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.String()),
  subtype: Type.Optional(Type.String()),
  user: Type.Optional(Type.String()),
  bot_id: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  thread_ts: Type.Optional(Type.String()),
  reply_count: Type.Optional(Type.Number()),
});
export type SlackMessage = Static<typeof SlackMessage>;

const NextCursor = Type.Optional(Type.Object({ next_cursor: Type.Optional(Type.String()) }));
const ListResult = Type.Object({
  ok: Type.Literal(true),
  channels: Type.Array(SlackChannel),
  response_metadata: NextCursor,
});
const JoinResult = Type.Object({ ok: Type.Literal(true), channel: SlackChannel });
const MessagesResult = Type.Object({
  ok: Type.Literal(true),
  messages: Type.Array(SlackMessage),
  has_more: Type.Optional(Type.Boolean()),
  response_metadata: NextCursor,
});

/** A page of a cursor-paged read: `next` is Slack's next_cursor, undefined at the end. */
export interface SlackPage<T> {
  items: T[];
  next?: string;
}

export interface HistoryArgs {
  channel: string;
  /** Only messages after this ts (exclusive). */
  oldest?: string;
  /** Only messages before this ts (exclusive). */
  latest?: string;
  limit?: number;
  cursor?: string;
}

/** The reading methods the chat workers use (issue 19, helper E1). */
export interface SlackReader {
  /** conversations.list: public channels, and private ones the bot is in when asked. */
  listChannels(args: { types: string; cursor?: string; limit?: number }): Promise<SlackAnswer<SlackPage<SlackChannel>>>;
  /** conversations.join: the bot joins a public channel. */
  joinChannel(channel: string): Promise<SlackAnswer<SlackChannel>>;
  /** conversations.history: top-level messages, newest first. */
  history(args: HistoryArgs): Promise<SlackAnswer<SlackPage<SlackMessage>>>;
  /** conversations.replies: a thread's parent, then its replies oldest first. */
  replies(args: {
    channel: string;
    ts: string;
    oldest?: string;
    cursor?: string;
    limit?: number;
  }): Promise<SlackAnswer<SlackPage<SlackMessage>>>;
}

export interface SlackOptions {
  /** SLACK_BOT_TOKEN (xoxb-...). */
  token: string;
  /** SLACK_API_URL; default https://slack.com/api (tests: the fake's address). */
  baseUrl?: string;
  /** The whole call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_SLACK_API_URL = 'https://slack.com/api';
export const DEFAULT_SLACK_TIMEOUT_MS = 10_000;

/** Slack's Web API over HTTP. */
export class HttpSlack implements Slack, SlackReader {
  constructor(private readonly o: SlackOptions) {}

  async listChannels(args: { types: string; cursor?: string; limit?: number }) {
    const r = await this.call('conversations.list', { exclude_archived: 'true', ...args }, ListResult, 'form');
    return r.ok
      ? {
          ok: true as const,
          data: { items: r.data.channels, next: r.data.response_metadata?.next_cursor || undefined },
        }
      : r;
  }

  async joinChannel(channel: string) {
    const r = await this.call('conversations.join', { channel }, JoinResult);
    return r.ok ? { ok: true as const, data: r.data.channel } : r;
  }

  async history(args: HistoryArgs) {
    const r = await this.call('conversations.history', args, MessagesResult, 'form');
    return r.ok
      ? {
          ok: true as const,
          data: { items: r.data.messages, next: r.data.response_metadata?.next_cursor || undefined },
        }
      : r;
  }

  async replies(args: { channel: string; ts: string; oldest?: string; cursor?: string; limit?: number }) {
    const r = await this.call('conversations.replies', args, MessagesResult, 'form');
    return r.ok
      ? {
          ok: true as const,
          data: { items: r.data.messages, next: r.data.response_metadata?.next_cursor || undefined },
        }
      : r;
  }

  async postMessage(message: PostMessage) {
    return this.call('chat.postMessage', message, PostMessageResult);
  }

  async lookupByEmail(email: string): Promise<SlackAnswer<SlackUser>> {
    const r = await this.call('users.lookupByEmail', { email }, LookupByEmailResult, 'form');
    return r.ok ? { ok: true, data: r.data.user } : r;
  }

  /**
   * One Web API method: JSON (write methods) or form-encoded (read methods such as
   * users.lookupByEmail, which Slack does not take as JSON) POST, the answer checked against `schema`.
   */
  protected async call<S extends TSchema>(
    method: string,
    args: object,
    schema: S,
    encoding: 'json' | 'form' = 'json',
  ): Promise<SlackAnswer<Static<S>>> {
    const f = this.o.fetch ?? fetch;
    const base = (this.o.baseUrl ?? DEFAULT_SLACK_API_URL).replace(/\/+$/, '');
    const body =
      encoding === 'json'
        ? JSON.stringify(args)
        : new URLSearchParams(
            Object.entries(args)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString();
    let res: Response;
    let text: string;
    try {
      res = await f(`${base}/${method}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.o.token}`,
          'content-type': encoding === 'json' ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded',
        },
        body,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_SLACK_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (e) {
      const name = (e as Error).name;
      return { ok: false, error: name === 'TimeoutError' ? 'timeout' : 'unreachable', status: 0 };
    }
    if (res.status === 429) {
      const after = Number(res.headers.get('retry-after'));
      return { ok: false, error: 'ratelimited', status: 429, ...(Number.isFinite(after) ? { retryAfter: after } : {}) };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, error: 'malformed', status: res.status };
    }
    const p = parsed as { ok?: unknown; error?: unknown };
    if (p?.ok !== true) {
      return { ok: false, error: typeof p?.error === 'string' ? p.error : `http_${res.status}`, status: res.status };
    }
    if (!Value.Check(schema, parsed)) return { ok: false, error: 'malformed', status: res.status };
    return { ok: true, data: parsed as Static<S> };
  }
}
