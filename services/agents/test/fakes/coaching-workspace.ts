import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The workspace API as the agents service reads it for weekly coaching, on a local port, in
 * workspace's wire format: GET /v1/me/meetings?from&to (the caller's meetings opened on New York
 * days from..to, oldest first) and GET /v1/meetings/{id}/utterances (cursor paged), each answered
 * in the kit's envelope {header, payload: {data, meta}}. The caller is the person named by
 * X-Platform-On-Behalf-Of with the service token, as workspace's authenticator takes it.
 */

export interface FakeLine {
  speaker: string;
  text: string;
}

export interface FakeMeeting {
  id: string;
  title: string;
  started_at: string;
  duration_ms: number | null;
  decisions_count: number;
  lines: FakeLine[];
}

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  onBehalfOf: string | undefined;
  serviceToken: string | undefined;
  asMember: string | undefined;
}

const nyDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export class FakeCoachingWorkspace {
  readonly requests: SeenRequest[] = [];
  /** The meetings each person (by email) takes part in. */
  readonly meetings = new Map<string, FakeMeeting[]>();
  /** How each person's lines are written (email -> speaker name): their person_speakers. */
  readonly names = new Map<string, string>();
  /** People whose reads answer 500. */
  readonly failing = new Set<string>();
  private server: Server = createServer((req, res) => this.receive(req, res));
  url = '';

  constructor(readonly serviceToken: string) {}

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close() {
    return new Promise<void>((r) => {
      this.server.close(() => r());
      this.server.closeAllConnections();
    });
  }

  /** Gives `people` a meeting (the same record for each of them). */
  add(people: string[], m: FakeMeeting) {
    for (const p of people) this.meetings.set(p, [...(this.meetings.get(p) ?? []), m]);
  }

  private send(res: ServerResponse, status: number, payload: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ header: { service: 'workspace', requestId: 'fake' }, payload }));
  }

  private receive(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const header = (n: string) => {
      const v = req.headers[n];
      return Array.isArray(v) ? v[0] : v;
    };
    const seen: SeenRequest = {
      path: url.pathname,
      query: url.searchParams,
      onBehalfOf: header('x-platform-on-behalf-of'),
      serviceToken: header('x-platform-service-token'),
      asMember: header('x-platform-as-member'),
    };
    this.requests.push(seen);
    if (seen.serviceToken !== this.serviceToken || !seen.onBehalfOf) {
      this.send(res, 401, { errors: [{ code: 'unauthenticated', message: 'Missing or invalid credentials' }] });
      return;
    }
    const person = seen.onBehalfOf.toLowerCase();
    if (this.failing.has(person)) {
      this.send(res, 500, { errors: [{ code: 'internal_error', message: 'Internal error' }] });
      return;
    }
    const mine = this.meetings.get(person) ?? [];
    if (req.method === 'GET' && url.pathname === '/v1/me/meetings') {
      const from = url.searchParams.get('from') ?? '';
      const to = url.searchParams.get('to') ?? '';
      const rows = mine
        .filter((m) => {
          const day = nyDay.format(new Date(m.started_at));
          return day >= from && day <= to;
        })
        .sort((a, b) => a.started_at.localeCompare(b.started_at))
        .map((m) => ({
          id: m.id,
          title: m.title,
          kind: 'meeting',
          source: 'zoom',
          project_id: null,
          started_at: m.started_at,
          ended_at: m.duration_ms === null ? null : new Date(Date.parse(m.started_at) + m.duration_ms).toISOString(),
          duration_ms: m.duration_ms,
          participants: [],
          person_speakers: [...new Set(m.lines.map((l) => l.speaker))].filter((sp) => sp === this.names.get(person)),
          line_count: m.lines.length,
          decisions_count: m.decisions_count,
        }));
      this.send(res, 200, { data: rows });
      return;
    }
    const lines = /^\/v1\/meetings\/([^/]+)\/utterances$/.exec(url.pathname);
    const meeting = lines && mine.find((m) => m.id === lines[1]);
    if (req.method === 'GET' && meeting) {
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const after = Number(url.searchParams.get('after') ?? 0);
      const all = meeting.lines.map((l, i) => ({
        seq: i + 1,
        speaker: l.speaker,
        speaker_label: l.speaker,
        text: l.text,
        start_ms: null,
        created_at: meeting.started_at,
      }));
      const page = all.filter((l) => l.seq > after).slice(0, limit);
      const last = page.at(-1);
      const more = last !== undefined && last.seq < all.length;
      this.send(res, 200, {
        data: page,
        meta: { pagination: { limit, nextCursor: more ? String(last.seq) : null } },
      });
      return;
    }
    this.send(res, 404, { errors: [{ code: 'evidence_not_found', message: 'Meeting not found' }] });
  }
}
