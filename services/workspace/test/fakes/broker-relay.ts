/**
 * A fake of the model broker's relay on a local port, in its wire format (OpenAI-compatible):
 * POST /v1/relay/chat/completions with the service token and X-Platform-On-Behalf-Of, answered
 * {id, object: 'chat.completion', choices: [{message: {role: 'assistant', content}}], usage}.
 * Tests choose the answer per call (text, or an HTTP failure) and read every request.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRelayRequest {
  headers: IncomingMessage['headers'];
  body: { model: string; max_tokens: number; messages: { role: string; content: string }[] };
}

export interface FakeRelay {
  url: string;
  requests: FakeRelayRequest[];
  /** The answer to a request: text, or {status} to fail with. */
  answer: (req: FakeRelayRequest) => string | { status: number } | Promise<string | { status: number }>;
  close(): Promise<void>;
}

export async function startFakeRelay(o: { serviceToken: string }): Promise<FakeRelay> {
  const fake: FakeRelay = {
    url: '',
    requests: [],
    answer: () => 'A summary.',
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/relay/chat/completions') {
      return send(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    }
    if (req.headers['x-platform-service-token'] !== o.serviceToken) {
      return send(401, { error: { message: 'Unauthenticated', type: 'authentication_error' } });
    }
    const r: FakeRelayRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    fake.requests.push(r);
    const a = await fake.answer(r);
    if (typeof a !== 'string') return send(a.status, { error: { message: 'Upstream failed', type: 'api_error' } });
    n += 1;
    return send(200, {
      id: `chatcmpl-fake-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: r.body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: a }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
