import { randomUUID } from 'node:crypto';
import { fakeDocumentsServer as kitDocumentsServer } from '@platform/kit/testing';

/**
 * The kit's documents server on a port, registering any blob: construction's tests attach blobs
 * they name themselves, as a client that uploaded before attaching would.
 */
export const fakeDocumentsServer = () => kitDocumentsServer({ anyBlob: true });

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
