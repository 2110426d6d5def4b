import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake received. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * A local HTTP server (node:http on port 0) for the tracker tools' fakes: it records every request,
 * answers through `answer`, and answers `failWith` instead while set. `gate`, while set, holds every
 * write (non-GET) until it resolves, so a test can have two calls in flight at once.
 */
export class FakeHttp {
  readonly requests: Received[] = [];
  failWith: number | null = null;
  gate: Promise<void> | null = null;
  url = '';
  private readonly server: Server;

  constructor(private readonly answer: (r: Received) => Answer | Promise<Answer>) {
    this.server = createServer((req, res) => void this.receive(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** Requests other than GET: what a read-only caller must never send. */
  writes(): Received[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  private async receive(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://fake');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // kept as text: the answer decides what a bad body means
    }
    const r: Received = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      authorization: req.headers.authorization,
      body,
    };
    this.requests.push(r);
    if (r.method !== 'GET' && this.gate) await this.gate;
    const a: Answer =
      this.failWith !== null
        ? { status: this.failWith, body: { message: 'Service unavailable' } }
        : await this.answer(r);
    res.writeHead(a.status, { 'content-type': 'application/json;charset=UTF-8', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  }
}
