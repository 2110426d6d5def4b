/**
 * A fake Gmail API on a local port, in its wire format (gmail/v1): users.getProfile,
 * users.messages.list (q `after:<epoch seconds>`, maxResults, pageToken / nextPageToken, newest
 * first), users.history.list (startHistoryId, historyTypes=messageAdded, pageToken; 404 NOT_FOUND
 * for a history id older than the mailbox keeps), users.messages.get format=full (payload with
 * headers and base64url bodies, internalDate in milliseconds as a string). OAuth: the configured
 * bearer token, else 401 UNAUTHENTICATED in Google's error shape. Tests add messages (each one a
 * messageAdded history record) and read `requests`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMail {
  id: string;
  from: string;
  to?: string;
  subject: string;
  text: string;
  /** When it arrived. */
  at: Date;
  labelIds?: string[];
  /** Sent as text/html only (no text/plain part). */
  htmlOnly?: boolean;
}

export interface FakeGmail {
  url: string;
  requests: string[];
  messages: Map<string, FakeMail & { historyId: number }>;
  /** The mailbox's current history id. */
  historyId(): number;
  /** Adds a message: a new history record. */
  add(m: FakeMail): void;
  /** History before this id is no longer kept (a cursor older than it is 404). */
  forgetHistoryBefore(id: number): void;
  close(): Promise<void>;
}

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

export async function startFakeGmail(o: { token: string; email?: string; pageSize?: number }): Promise<FakeGmail> {
  let history = 1000;
  let oldest = 0;
  const records: { id: number; messageId: string }[] = [];
  const messages = new Map<string, FakeMail & { historyId: number }>();
  const fake: FakeGmail = {
    url: '',
    requests: [],
    messages,
    historyId: () => history,
    add(m) {
      history += 1;
      messages.set(m.id, { ...m, historyId: history });
      records.push({ id: history, messageId: m.id });
    },
    forgetHistoryBefore(id) {
      oldest = id;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const ref = (m: FakeMail) => ({ id: m.id, threadId: `t-${m.id}` });
  const full = (m: FakeMail & { historyId: number }) => {
    const headers = [
      { name: 'From', value: m.from },
      { name: 'To', value: m.to ?? o.email ?? 'me@mail.test' },
      { name: 'Subject', value: m.subject },
      { name: 'Date', value: m.at.toUTCString() },
    ];
    const html = {
      partId: '1',
      mimeType: 'text/html',
      filename: '',
      headers: [],
      body: { size: m.text.length, data: b64url(`<p>${m.text}</p>`) },
    };
    const plain = {
      partId: '0',
      mimeType: 'text/plain',
      filename: '',
      headers: [],
      body: { size: m.text.length, data: b64url(m.text) },
    };
    return {
      id: m.id,
      threadId: `t-${m.id}`,
      labelIds: m.labelIds ?? ['INBOX'],
      snippet: m.text.slice(0, 100),
      historyId: String(m.historyId),
      internalDate: String(m.at.getTime()),
      sizeEstimate: m.text.length + 200,
      payload: {
        partId: '',
        mimeType: 'multipart/alternative',
        filename: '',
        headers,
        body: { size: 0 },
        parts: m.htmlOnly ? [html] : [plain, html],
      },
    };
  };
  const per = o.pageSize ?? 100;
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://gmail.test');
    fake.requests.push(`${u.pathname}${u.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    const error = (code: number, status: string, message: string) =>
      send(code, { error: { code, message, errors: [{ message, domain: 'global', reason: status }], status } });
    if (req.headers.authorization !== `Bearer ${o.token}`) {
      return error(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    const m = u.pathname.match(/^\/gmail\/v1\/users\/([^/]+)(\/.*)$/);
    if (req.method !== 'GET' || !m) return error(404, 'NOT_FOUND', 'Requested entity was not found.');
    const rest = m[2] ?? '';
    const max = Math.min(Number(u.searchParams.get('maxResults') ?? per), per);
    const offset = Number(u.searchParams.get('pageToken') ?? 0);
    if (rest === '/profile') {
      return send(200, {
        emailAddress: o.email ?? 'me@mail.test',
        messagesTotal: messages.size,
        threadsTotal: messages.size,
        historyId: String(history),
      });
    }
    if (rest === '/messages') {
      const after = u.searchParams.get('q')?.match(/after:(\d+)/)?.[1];
      const all = [...messages.values()]
        .filter((x) => after === undefined || x.at.getTime() > Number(after) * 1000)
        .sort((a, b) => b.at.getTime() - a.at.getTime());
      const slice = all.slice(offset, offset + max);
      return send(200, {
        ...(slice.length ? { messages: slice.map(ref) } : {}),
        ...(offset + max < all.length ? { nextPageToken: String(offset + max) } : {}),
        resultSizeEstimate: all.length,
      });
    }
    if (rest === '/history') {
      const start = Number(u.searchParams.get('startHistoryId'));
      if (!Number.isFinite(start) || start < oldest) return error(404, 'NOT_FOUND', 'Requested entity was not found.');
      const after = records.filter((r) => r.id > start);
      const slice = after.slice(offset, offset + max);
      return send(200, {
        ...(slice.length
          ? {
              history: slice.map((r) => {
                const x = messages.get(r.messageId);
                const one = x ? { ...ref(x), labelIds: x.labelIds ?? ['INBOX'] } : { id: r.messageId };
                return { id: String(r.id), messages: [one], messagesAdded: [{ message: one }] };
              }),
            }
          : {}),
        ...(offset + max < after.length ? { nextPageToken: String(offset + max) } : {}),
        historyId: String(history),
      });
    }
    const one = rest.match(/^\/messages\/([^/]+)$/);
    const msg = one?.[1] ? messages.get(decodeURIComponent(one[1])) : undefined;
    if (msg) return send(200, full(msg));
    error(404, 'NOT_FOUND', 'Requested entity was not found.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
