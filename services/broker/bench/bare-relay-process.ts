import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/**
 * The floor of a relay on this machine (issue 22.4): a bare pass-through in its own process, built
 * from what the broker's relay is built on (`node:http` + `undici`) and nothing else — no sign-in,
 * no budget, no routing, no usage rows, no logging. It forwards the request body to the provider
 * with the provider's key and streams the answer back with the provider's status and content
 * type. The relay's throughput is measured against it in the same run: what is left between the
 * two is the cost of the relay's duties.
 *
 * argv: the provider's base URL (…/v1), its key, the number of upstream connections.
 */
const [baseUrl = '', key = '', connections = '50'] = process.argv.slice(2);
const upstream = new URL(baseUrl);
const pool = new Pool(upstream.origin, { connections: Number(connections), pipelining: 1, keepAliveTimeout: 60_000 });
const path = `${upstream.pathname.replace(/\/$/, '')}/chat/completions`;

async function relay(req: IncomingMessage, res: ServerResponse) {
  try {
    const answer = await pool.request({
      method: 'POST',
      path,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: String(req.headers.accept ?? 'application/json'),
      },
      body: req,
    });
    res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
  } catch (e) {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: String((e as Error).message) }));
  }
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => void relay(req, res));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});
process.on('message', async () => {
  server.close();
  await pool.close();
  process.exit(0);
});
