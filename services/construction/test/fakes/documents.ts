import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A documents service on a port that answers as the real one does (the envelope, the SAS and
 * document shapes), or fails: `mode` 'ok', 'fail' (HTTP 500) or 'hang' (never answers). Counts
 * the calls it got.
 */
export async function fakeDocumentsServer() {
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', calls: [] as string[] };
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      state.calls.push(`${req.method} ${req.url}`);
      if (state.mode === 'hang') {
        hanging.add(res);
        return;
      }
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ header: {}, payload }));
      };
      if (state.mode === 'fail') return send(500, { errors: [{ code: 'internal', message: 'boom' }] });
      const at = new Date(Date.now() + 600_000).toISOString();
      if (req.method === 'POST' && req.url === '/v1/documents/sas') {
        const { filename } = JSON.parse(body) as { filename: string };
        const blob = `${filename.replace(/\..*$/, '')}_${randomUUID()}.pdf`;
        return send(200, {
          data: { sas_url: `http://blob.test/documents/${blob}?sig=x`, sas_expires_at: at, blob_name: blob },
        });
      }
      if (req.method === 'POST' && req.url === '/v1/documents') return send(201, { data: { id: randomUUID() } });
      if (req.method === 'GET' && req.url?.startsWith('/v1/documents/')) {
        return send(200, {
          data: { id: req.url.split('/').pop(), sas_url: 'http://blob.test/read?sig=r', sas_expires_at: at },
        });
      }
      send(404, { errors: [{ code: 'not_found', message: 'no route' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An in-memory documents service keeping the real one's contract as construction uses it (for
 * the route checks, which need no bytes): links for any filename, any blob registers, one
 * document per idempotency key.
 */
export function memoryDocuments(): import('../../src/clients/documents.ts').Documents {
  const byKey = new Map<string, string>();
  const at = () => new Date(Date.now() + 600_000).toISOString();
  return {
    async uploadLink(filename) {
      const blob = `${filename.replace(/\.[^.]*$/, '')}_${randomUUID()}${filename.match(/\.[^.]*$/)?.[0] ?? ''}`;
      return { blob_name: blob, upload_url: `http://blob.test/documents/${blob}?sig=w`, expires_at: at() };
    },
    async register(_input, key) {
      const id = byKey.get(key) ?? randomUUID();
      byKey.set(key, id);
      return { document_id: id };
    },
    async downloadLink(documentId) {
      return { url: `http://blob.test/documents/${documentId}?sig=r`, expires_at: at() };
    },
  };
}
