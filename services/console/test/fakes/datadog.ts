import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One search Datadog received: the body as sent and the two key headers. */
export interface DatadogSearch {
  path: string;
  apiKey?: string;
  appKey?: string;
  body: {
    filter?: { query?: string; from?: string; to?: string };
    sort?: string;
    page?: { limit?: number; cursor?: string };
  };
}

export interface FakeLog {
  id: string;
  timestamp: string;
  service: string;
  status: string;
  host: string;
  message: string;
  tags: string[];
}

/**
 * Datadog's Logs API v2 search at the HTTP boundary: POST /api/v2/logs/events/search with the
 * DD-API-KEY and DD-APPLICATION-KEY headers, answering its {data, meta.page.after, links} shape
 * (403 with {errors} for wrong keys). It honours the `env:<x>` term the console puts first and
 * records every request.
 */
export async function fakeDatadog(keys: { apiKey: string; appKey: string }, logs: FakeLog[]) {
  const searches: DatadogSearch[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const h = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : undefined);
      let body: DatadogSearch['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return send(400, { errors: ['Invalid JSON'] });
      }
      searches.push({ path: req.url ?? '', apiKey: h('dd-api-key'), appKey: h('dd-application-key'), body });
      if (req.method !== 'POST' || req.url !== '/api/v2/logs/events/search')
        return send(404, { errors: ['Not found'] });
      if (h('dd-api-key') !== keys.apiKey || h('dd-application-key') !== keys.appKey) {
        return send(403, { errors: ['Forbidden'] });
      }
      const env = /^env:(\S+)/.exec(body.filter?.query ?? '')?.[1];
      const limit = body.page?.limit ?? 10;
      const start = Number(body.page?.cursor ?? 0);
      const matching = logs.filter((l) => !env || l.tags.includes(`env:${env}`));
      const page = matching.slice(start, start + limit);
      const after = start + limit < matching.length ? String(start + limit) : undefined;
      send(200, {
        data: page.map(({ id, ...a }) => ({ id, type: 'log', attributes: { ...a, attributes: { env } } })),
        meta: { page: after ? { after } : {}, status: 'done', elapsed: 3, request_id: 'fake' },
        links: after ? { next: `http://fake/api/v2/logs/events?page[cursor]=${after}` } : {},
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    searches,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
