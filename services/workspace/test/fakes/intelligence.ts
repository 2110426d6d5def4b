/**
 * A fake intelligence service on a local port speaking the contract docs/decisions.md writes
 * down ("Conversations", "The intelligence service"): POST /v1/conversations/project-suggestions
 * with the service token on behalf of a person, answered in the platform envelope. Tests choose
 * how it answers (rank, fail, hang, talk nonsense) and read what it was sent.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ObjectionsRequest,
  ObjectionsResult,
  RelatedRequest,
  RelatedResult,
  SuggestProjectsRequest,
  SuggestProjectsResult,
} from '../../src/clients/intelligence.ts';

export interface FakeIntelligenceRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: SuggestProjectsRequest;
}

export type FakeMode =
  /** Answers with `rank(request)`. */
  | { kind: 'answer'; rank: (req: SuggestProjectsRequest) => SuggestProjectsResult['suggestions'] }
  /** Answers this HTTP status with an enveloped error. */
  | { kind: 'fail'; status: number }
  /** Answers only after `ms`. */
  | { kind: 'slow'; ms: number }
  /** Answers 200 with a body out of contract. */
  | { kind: 'nonsense' };

export interface FakeIntelligence {
  url: string;
  requests: FakeIntelligenceRequest[];
  mode: FakeMode;
  /** The assistants panels (objections, related): how they answer, and what they were sent. */
  panels: FakePanels;
  close(): Promise<void>;
}

/** The two panels' endpoints: answers chosen by the test, or the same failures as `mode`. */
export interface FakePanels {
  objections: (req: ObjectionsRequest) => ObjectionsResult;
  related: (req: RelatedRequest) => RelatedResult;
  /** undefined: answer; otherwise fail, hang or talk nonsense as FakeMode says. */
  failure?: Exclude<FakeMode, { kind: 'answer' }>;
  requests: { path: string; headers: IncomingMessage['headers']; body: ObjectionsRequest | RelatedRequest }[];
}

const PANEL_PATHS = ['/v1/conversations/objections', '/v1/conversations/related'];

const header = () => ({
  service: 'intelligence',
  api_version: 'v1',
  request_id: randomUUID(),
  timestamp: new Date().toISOString(),
});

/** By default every candidate is proposed, the first one best. */
const rankAll = (req: SuggestProjectsRequest) =>
  req.candidates.map((c, i) => ({ project_id: c.project_id, score: 1 / (i + 1), reason: `matches ${c.name}` }));

export async function startFakeIntelligence(serviceToken: string): Promise<FakeIntelligence> {
  const sockets = new Set<import('node:net').Socket>();
  const fake: FakeIntelligence = {
    url: '',
    requests: [],
    mode: { kind: 'answer', rank: rankAll },
    panels: {
      objections: () => ({ claims: [] }),
      related: () => ({ claims: [], records: [] }),
      requests: [],
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] as string;
      if (req.method === 'POST' && PANEL_PATHS.includes(path)) return panel(path, req, res, raw);
      if (req.method !== 'POST' || path !== '/v1/conversations/project-suggestions') {
        return send(res, 404, { header: header(), payload: { errors: [{ code: 'not_found', message: path }] } });
      }
      if (req.headers['x-platform-service-token'] !== serviceToken || !req.headers['x-platform-on-behalf-of']) {
        return send(res, 401, {
          header: header(),
          payload: { errors: [{ code: 'unauthenticated', message: 'token' }] },
        });
      }
      const body = JSON.parse(raw) as SuggestProjectsRequest;
      fake.requests.push({ path, headers: req.headers, body });
      const mode = fake.mode;
      if (mode.kind === 'fail') {
        return send(res, mode.status, { header: header(), payload: { errors: [{ code: 'failed', message: 'down' }] } });
      }
      if (mode.kind === 'nonsense')
        return send(res, 200, { header: header(), payload: { data: { projects: 'many' } } });
      if (mode.kind === 'slow') {
        const timer = setTimeout(
          () => send(res, 200, { header: header(), payload: { data: { suggestions: rankAll(body) } } }),
          mode.ms,
        );
        res.on('close', () => clearTimeout(timer));
        return;
      }
      return send(res, 200, { header: header(), payload: { data: { suggestions: mode.rank(body) } } });
    });
  });
  /** The panels' endpoints: same token rule and envelope as project suggestions. */
  const panel = (path: string, req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.headers['x-platform-service-token'] !== serviceToken || !req.headers['x-platform-on-behalf-of']) {
      return send(res, 401, { header: header(), payload: { errors: [{ code: 'unauthenticated', message: 'token' }] } });
    }
    const body = JSON.parse(raw) as ObjectionsRequest & RelatedRequest;
    fake.panels.requests.push({ path, headers: req.headers, body });
    const answer = () =>
      path === '/v1/conversations/objections' ? fake.panels.objections(body) : fake.panels.related(body);
    const failure = fake.panels.failure;
    if (failure?.kind === 'fail') {
      return send(res, failure.status, {
        header: header(),
        payload: { errors: [{ code: 'failed', message: 'down' }] },
      });
    }
    if (failure?.kind === 'nonsense')
      return send(res, 200, { header: header(), payload: { data: { claims: 'many' } } });
    if (failure?.kind === 'slow') {
      const timer = setTimeout(() => send(res, 200, { header: header(), payload: { data: answer() } }), failure.ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    return send(res, 200, { header: header(), payload: { data: answer() } });
  };
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
