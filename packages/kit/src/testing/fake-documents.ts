import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDocumentsOptions {
  /**
   * Register any blob, not only one this server signed a link for: for callers' tests that name
   * blobs they uploaded out of band rather than asking a link first.
   */
  anyBlob?: boolean;
}

/**
 * A documents service on a port answering as the real one does (the envelope; the SAS, register
 * and read shapes; 422 for a filename without an extension or a blob it never signed, 404 for an
 * unknown document; one document per Idempotency-Key), or failing: `mode` 'ok', 'fail' (HTTP 500)
 * or 'hang' (never answers). It records the calls it got and the documents it holds; `documents`
 * seeds one directly.
 */
export async function fakeDocumentsServer(options: FakeDocumentsOptions = {}) {
  const state = {
    mode: 'ok' as 'ok' | 'fail' | 'hang',
    calls: [] as string[],
    signed: new Set<string>(),
    documents: new Map<string, { blob_name: string; references: unknown[] }>(),
    byKey: new Map<string, string>(),
  };
  const hanging = new Set<ServerResponse>();
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
        const ext = filename.match(/\.[A-Za-z0-9]+$/)?.[0];
        if (!ext) return send(422, { errors: [{ code: 'filename_extension_required', message: 'no extension' }] });
        const blob = `${filename.slice(0, -ext.length)}_${randomUUID()}${ext}`;
        state.signed.add(blob);
        return send(200, {
          data: { sas_url: `http://blob.test/documents/${blob}?sig=w`, sas_expires_at: at, blob_name: blob },
        });
      }
      if (req.method === 'POST' && req.url === '/v1/documents') {
        const { data } = JSON.parse(body) as { data: { blob_name: string; references: unknown[] } };
        if (!options.anyBlob && !state.signed.has(data.blob_name)) {
          return send(422, { errors: [{ code: 'blob_not_found', message: 'no such blob in storage' }] });
        }
        const key = String(req.headers['idempotency-key'] ?? randomUUID());
        const id = state.byKey.get(key) ?? randomUUID();
        state.byKey.set(key, id);
        state.documents.set(id, { blob_name: data.blob_name, references: data.references });
        return send(201, { data: { id } });
      }
      if (req.method === 'GET' && req.url?.startsWith('/v1/documents/')) {
        const id = decodeURIComponent(req.url.split('/').pop() ?? '');
        const doc = state.documents.get(id);
        if (!doc) return send(404, { errors: [{ code: 'document_not_found', message: 'no such document' }] });
        return send(200, {
          data: { id, blob_name: doc.blob_name, sas_url: 'http://blob.test/read?sig=r', sas_expires_at: at },
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
