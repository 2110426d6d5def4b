/**
 * A fake workspace on a local port speaking spec 2's conversation routes as the broker uses them:
 * POST /v1/conversations and POST /v1/conversations/{id}/turns (service token on behalf of a
 * person, Idempotency-Key, {data} bodies, enveloped answers), and GET of both to read back. It
 * keeps what it was sent, so tests can see every conversation and turn.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTurn {
  seq: number;
  author: string;
  text: string;
  turn_kind: string;
  extra: Record<string, unknown>;
}

export interface FakeConversation {
  id: string;
  /** X-Platform-On-Behalf-Of of the create: whose conversation it is. */
  owner: string;
  project_id: string | null;
  contributes_to_knowledge: boolean;
  title: string | null;
  status: 'active';
  /** The create body's data as sent. */
  sent: Record<string, unknown>;
  turns: FakeTurn[];
}

export interface FakeWorkspaceRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: any body a client sent
  body: any;
}

export interface FakeWorkspace {
  url: string;
  conversations: FakeConversation[];
  requests: FakeWorkspaceRequest[];
  /** The next `times` requests answer `status` (an enveloped error) and change nothing. */
  failNext(status: number, times?: number): void;
  /** The conversation holding turns with this text, if any. */
  withText(text: string): FakeConversation | undefined;
  close(): Promise<void>;
}

const envelope = (data: unknown) => ({
  header: { service: 'workspace', api_version: 'v1', request_id: randomUUID(), timestamp: new Date().toISOString() },
  payload: { data },
});

const errorBody = (code: string, message: string) => ({
  header: envelope(null).header,
  payload: { errors: [{ code, message }] },
});

export async function startFakeWorkspace(serviceToken: string): Promise<FakeWorkspace> {
  const conversations: FakeConversation[] = [];
  const requests: FakeWorkspaceRequest[] = [];
  const replays = new Map<string, { status: number; body: unknown }>();
  let failures: { status: number; left: number } | undefined;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    // biome-ignore lint/suspicious/noExplicitAny: any body a client sent
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(res, 400, errorBody('malformed_json', 'The request body is not valid JSON'));
    }
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    if (failures && failures.left > 0) {
      failures.left -= 1;
      return send(res, failures.status, errorBody('unavailable', 'The fake workspace was told to fail'));
    }
    if (req.headers['x-platform-service-token'] !== serviceToken) {
      return send(res, 401, errorBody('unauthenticated', 'Missing or invalid credentials'));
    }
    const onBehalfOf = req.headers['x-platform-on-behalf-of'];
    if (typeof onBehalfOf !== 'string' || onBehalfOf === '') {
      return send(res, 403, errorBody('forbidden', 'The service token must name the person it acts for'));
    }
    const turnsPath = path.match(/^\/v1\/conversations\/([^/]+)\/turns$/);
    const onePath = path.match(/^\/v1\/conversations\/([^/]+)$/);
    const owned = (id: string) => conversations.find((c) => c.id === decodeURIComponent(id) && c.owner === onBehalfOf);

    if (req.method === 'GET') {
      const c = owned((turnsPath ?? onePath)?.[1] ?? '');
      if (!c) return send(res, 404, errorBody('not_found', 'Conversation not found'));
      return send(res, 200, envelope(turnsPath ? c.turns : { ...c, turns: undefined }));
    }
    if (req.method !== 'POST') return send(res, 404, errorBody('route_not_found', `No route ${req.method} ${path}`));
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') {
      return send(res, 400, errorBody('idempotency_key_required', 'This command needs an Idempotency-Key header'));
    }
    const replayKey = `${onBehalfOf} ${key}`;
    const prior = replays.get(replayKey);
    if (prior) return send(res, prior.status, prior.body);
    const data = body?.data;
    if (typeof data !== 'object' || data === null) {
      return send(res, 422, errorBody('validation_failed', 'body/data is required'));
    }
    let answer: { status: number; body: unknown };
    if (path === '/v1/conversations') {
      const c: FakeConversation = {
        id: randomUUID(),
        owner: onBehalfOf,
        project_id: typeof data.project_id === 'string' ? data.project_id : null,
        contributes_to_knowledge: data.contributes_to_knowledge !== false,
        title: typeof data.title === 'string' ? data.title : null,
        status: 'active',
        sent: data,
        turns: [],
      };
      conversations.push(c);
      answer = { status: 201, body: envelope({ ...c, turns: undefined, sent: undefined }) };
    } else if (turnsPath) {
      const c = owned(turnsPath[1] as string);
      if (!c) return send(res, 404, errorBody('not_found', 'Conversation not found'));
      const turn: FakeTurn = {
        seq: c.turns.length + 1,
        author: data.author,
        text: data.text,
        turn_kind: data.turn_kind ?? 'utterance',
        extra: data.extra ?? {},
      };
      c.turns.push(turn);
      answer = { status: 201, body: envelope(turn) };
    } else {
      return send(res, 404, errorBody('route_not_found', `No route POST ${path}`));
    }
    replays.set(replayKey, answer);
    return send(res, answer.status, answer.body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    conversations,
    requests,
    failNext(status, times = 1) {
      failures = { status, left: times };
    },
    withText: (text) => conversations.find((c) => c.turns.some((t) => t.text === text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
