/**
 * A fake of the intelligence service's people endpoints on a local port, speaking the contract
 * docs/decisions.md writes down ("Internal jobs: person context"): POST /v1/people/roster,
 * /v1/people/sources and /v1/people/context with the service token (X-Platform-Service-Token),
 * answered in the platform envelope {header, payload: {data}}. Tests set people, their sources
 * (with when each last changed) and the assignments each source shows, can take the service down
 * (503), and read what was asked.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSource {
  source_id: string;
  kind: string;
  updated_at: string;
  /** The assignments a read of this source shows. */
  assignments: { assignment_id: string; project_id: string; role: string }[];
}

export interface FakeIntelligencePeople {
  url: string;
  roster: { person_id: string; email: string; name: string }[];
  sources: Map<string, FakeSource[]>;
  /** Every call: its path and body. */
  calls: { path: string; body: Record<string, unknown> }[];
  /** Down: every call answers 503. */
  down: boolean;
  close(): Promise<void>;
}

export async function startFakeIntelligencePeople(o: { serviceToken: string }): Promise<FakeIntelligencePeople> {
  const fake: FakeIntelligencePeople = {
    url: '',
    roster: [],
    sources: new Map(),
    calls: [],
    down: false,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          header: {
            service: 'intelligence',
            api_version: 'v1',
            request_id: randomUUID(),
            timestamp: new Date().toISOString(),
          },
          payload,
        }),
      );
    };
    const fail = (status: number, code: string) => send(status, { errors: [{ code, message: code }] });
    if (req.headers['x-platform-service-token'] !== o.serviceToken) return fail(401, 'unauthenticated');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return fail(400, 'malformed_json');
    }
    const path = req.url ?? '';
    fake.calls.push({ path, body });
    if (fake.down) return fail(503, 'unavailable');
    if (req.method !== 'POST') return fail(404, 'not_found');
    const person = String(body.person_id ?? '');
    switch (path) {
      case '/v1/people/roster':
        return send(200, { data: { people: fake.roster } });
      case '/v1/people/sources': {
        // Every source of the person; the caller keeps those within its window by its own clock.
        const list = fake.sources.get(person) ?? [];
        return send(200, {
          data: { sources: list.map(({ source_id, kind, updated_at }) => ({ source_id, kind, updated_at })) },
        });
      }
      case '/v1/people/context': {
        const ids = new Set(Array.isArray(body.source_ids) ? body.source_ids.map(String) : []);
        const read = (fake.sources.get(person) ?? []).filter((s) => ids.has(s.source_id));
        return send(200, { data: { assignments: read.flatMap((s) => s.assignments) } });
      }
      default:
        return fail(404, 'not_found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
