import { createHash, randomUUID } from 'node:crypto';
import type { Documents, ReadBack, Registration } from '../../src/clients/documents.ts';

/**
 * An in-memory documents service for the route checks, keeping the contract of the real one
 * (outputs-upload.test.ts runs against that): a minted blob holds no bytes until `put`, a
 * registration needs the bytes, one key registers once, and the bytes read back are the ones put.
 */
export class MemoryDocuments implements Documents {
  private readonly blobs = new Map<string, Buffer>();
  private readonly byKey = new Map<string, string>();
  private readonly documents = new Map<string, string>();

  /** What a client does with the upload URL: the bytes of one minted blob. */
  put(blobName: string, bytes: Buffer | string) {
    if (!this.blobs.has(blobName)) throw new Error(`${blobName} was not minted`);
    this.blobs.set(blobName, Buffer.from(bytes));
  }

  async uploadUrl(filename: string, o: { blobName?: string } = {}) {
    const dot = filename.lastIndexOf('.');
    if (dot < 1) return { ok: false as const, status: 422, code: 'filename_extension_required', message: filename };
    // A renewal signs a blob it minted again, while no document records it.
    if (o.blobName !== undefined && ![...this.documents.values()].includes(o.blobName) && !this.blobs.has(o.blobName)) {
      return { ok: false as const, status: 422, code: 'blob_not_service_minted', message: o.blobName };
    }
    if (o.blobName !== undefined && [...this.documents.values()].includes(o.blobName)) {
      return { ok: false as const, status: 409, code: 'blob_already_registered', message: o.blobName };
    }
    const blob_name = o.blobName ?? `${filename.slice(0, dot)}_${randomUUID()}${filename.slice(dot)}`;
    if (o.blobName === undefined) this.blobs.set(blob_name, Buffer.alloc(0));
    return {
      ok: true as const,
      data: {
        sas_url: `memory://documents/${blob_name}`,
        sas_expires_at: new Date(Date.now() + 900_000).toISOString(),
        storage_account: 'memory',
        container: 'documents',
        blob_name,
      },
    };
  }

  async register(r: Registration, idempotencyKey: string) {
    const bytes = this.blobs.get(r.blob_name);
    if (!bytes || bytes.length === 0) {
      return { ok: false as const, status: 422, code: 'blob_not_found', message: r.blob_name };
    }
    const id = this.byKey.get(idempotencyKey) ?? randomUUID();
    this.byKey.set(idempotencyKey, id);
    this.documents.set(id, r.blob_name);
    return { ok: true as const, data: { id, byte_size: bytes.length } };
  }

  async readBack(id: string, maxBytes: number): Promise<ReadBack> {
    const blob = this.documents.get(id);
    const bytes = blob === undefined ? undefined : this.blobs.get(blob);
    if (!bytes) return { ok: false, status: 404, code: 'document_not_found', message: id };
    if (bytes.length > maxBytes) return { ok: false, status: 413, code: 'upload_too_large', message: id };
    return { ok: true, sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
  }
}

/** The one in-memory documents service of the route checks: routes.test.ts passes it, examples put bytes in it. */
export const ROUTE_CHECK_DOCUMENTS = new MemoryDocuments();
