import { createHash } from 'node:crypto';
import { type DocumentsAnswer, documentsCall } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * The platform's documents service (DOCUMENTS_URL; spec 1, "Documents"), as the two-step output
 * path uses it: a write URL for a new blob, registration of the uploaded blob, and a read URL to
 * hash and scan the bytes; the file routes (/v1/files*) sign write URLs with a lifetime and renew
 * them for the same blob. One method per endpoint, each within a bounded time; any failure is an
 * answer ({ok: false, status, code, message}) that the command turns into its own error.
 */

export type { DocumentsAnswer };

export const UploadUrl = Type.Object({
  sas_url: Type.String(),
  sas_expires_at: Type.String(),
  storage_account: Type.String(),
  container: Type.String(),
  blob_name: Type.String(),
});
export type UploadUrl = Static<typeof UploadUrl>;

export const RegisteredDocument = Type.Object({ id: Type.String(), byte_size: Type.Integer({ minimum: 0 }) });
export type RegisteredDocument = Static<typeof RegisteredDocument>;

export const ReadableDocument = Type.Object({
  id: Type.String(),
  byte_size: Type.Integer({ minimum: 0 }),
  sas_url: Type.String(),
});
export type ReadableDocument = Static<typeof ReadableDocument>;

export interface Registration {
  filename: string;
  storage_account: string;
  container: string;
  blob_name: string;
  content_type: string;
  references: { ref_type: string; ref_id: string; ref_category: string; is_external: boolean }[];
  metadata: { meta_name: string; meta_value: string }[];
}

/** The bytes read back: their sha256 and, up to the limit, the bytes themselves. */
export type ReadBack =
  | { ok: true; sha256: string; bytes: Buffer }
  | { ok: false; status: number; code: string; message: string };

export interface Documents {
  /**
   * POST /v1/documents/sas: a write-only URL for a new blob (private). `o.ttlSeconds` asks for
   * that lifetime (absent: the account's default); `o.blobName` signs an earlier, still
   * unregistered blob again (a renewal: same blob name, new expiry; 409 once registered).
   */
  uploadUrl(filename: string, o?: WriteUrlOptions): Promise<DocumentsAnswer<UploadUrl>>;
  /** POST /v1/documents: registers the uploaded blob; the key makes a retried finalize one document. */
  register(r: Registration, idempotencyKey: string): Promise<DocumentsAnswer<RegisteredDocument>>;
  /** GET /v1/documents/{id} and the bytes behind its read URL, hashed; more than maxBytes is 413. */
  readBack(id: string, maxBytes: number): Promise<ReadBack>;
}

/** How a write URL is signed: its lifetime and, for a renewal, the blob it signs again. */
export interface WriteUrlOptions {
  ttlSeconds?: number;
  blobName?: string;
}

export interface DocumentsOptions {
  /** DOCUMENTS_URL. */
  baseUrl: string;
  /** The platform service token, sent on behalf of the person served (documents does not check it yet). */
  serviceToken?: string;
  /** OUTPUTS_STORAGE_ACCOUNT: the catalog account uploads go to. */
  storageAccount: string;
  /** Each call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_DOCUMENTS_TIMEOUT_MS = 10_000;

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

export class HttpDocuments implements Documents {
  constructor(private readonly o: DocumentsOptions) {}

  uploadUrl(filename: string, o: WriteUrlOptions = {}) {
    return this.call(
      'POST',
      '/v1/documents/sas',
      {
        filename,
        visibility: 'private',
        storage_account: this.o.storageAccount,
        ...(o.ttlSeconds === undefined ? {} : { ttl_seconds: o.ttlSeconds }),
        ...(o.blobName === undefined ? {} : { blob_name: o.blobName }),
      },
      UploadUrl,
    );
  }

  register(r: Registration, idempotencyKey: string) {
    return this.call('POST', '/v1/documents', { data: { ...r, visibility: 'private' } }, RegisteredDocument, {
      'idempotency-key': idempotencyKey,
    });
  }

  async readBack(id: string, maxBytes: number): Promise<ReadBack> {
    const doc = await this.call('GET', `/v1/documents/${encodeURIComponent(id)}`, undefined, ReadableDocument);
    if (!doc.ok) return doc;
    if (doc.data.byte_size > maxBytes) {
      return failure(413, 'upload_too_large', `The document is ${doc.data.byte_size} bytes`);
    }
    const f = this.o.fetch ?? fetch;
    try {
      const res = await f(doc.data.sas_url, {
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_DOCUMENTS_TIMEOUT_MS),
      });
      if (!res.ok || !res.body) return failure(503, 'storage_unavailable', `Blob storage answered HTTP ${res.status}`);
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > maxBytes) return failure(413, 'upload_too_large', `The blob is larger than ${maxBytes} bytes`);
        hash.update(chunk);
        chunks.push(Buffer.from(chunk));
      }
      return { ok: true, sha256: hash.digest('hex'), bytes: Buffer.concat(chunks) };
    } catch (e) {
      return failure(503, 'storage_unavailable', (e as Error).message);
    }
  }

  private call<S extends TSchema>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    result: S,
    headers: Record<string, string> = {},
  ): Promise<DocumentsAnswer<Static<S>>> {
    return documentsCall(
      { ...this.o, timeoutMs: this.o.timeoutMs ?? DEFAULT_DOCUMENTS_TIMEOUT_MS },
      method,
      path,
      body,
      result,
      headers,
    );
  }
}

/**
 * Evidence the connectors import (issue 19, WS-534): its content is written to the documents
 * service, never to the workspace's database. `ref` is the one reference that names the item and
 * its version (ref_type imported_evidence); the workspace keeps only the document id it gets back.
 */
export interface EvidenceFile {
  filename: string;
  content_type: string;
  bytes: Buffer;
  ref: { ref_type: string; ref_id: string; ref_category: string };
}

export interface EvidenceDocuments {
  /** GET /v1/documents?ref_type&ref_id&ref_category: the document already holding this item, if any. */
  findByReference(ref: EvidenceFile['ref']): Promise<DocumentsAnswer<{ id: string } | undefined>>;
  /**
   * POST /v1/documents/sas, PUT of the bytes to the write URL (one block blob), POST
   * /v1/documents with the reference: the new document's id. The key makes a retried register one
   * document.
   */
  writeEvidence(file: EvidenceFile, idempotencyKey: string): Promise<DocumentsAnswer<{ id: string }>>;
}

const Listed = Type.Array(Type.Object({ id: Type.String() }));

/** EvidenceDocuments over HTTP, beside HttpDocuments and with the same options. */
export class HttpEvidenceDocuments implements EvidenceDocuments {
  constructor(private readonly o: DocumentsOptions) {}

  async findByReference(ref: EvidenceFile['ref']) {
    const q = new URLSearchParams({ ...ref, 'pagination[page]': '1', 'pagination[pageSize]': '1' });
    const a = await documentsCall(this.opts(), 'GET', `/v1/documents?${q}`, undefined, Listed);
    return a.ok ? { ok: true as const, data: a.data[0] } : a;
  }

  async writeEvidence(file: EvidenceFile, idempotencyKey: string) {
    const sas = await documentsCall(
      this.opts(),
      'POST',
      '/v1/documents/sas',
      { filename: file.filename, visibility: 'private', storage_account: this.o.storageAccount },
      UploadUrl,
    );
    if (!sas.ok) return sas;
    try {
      const put = await (this.o.fetch ?? fetch)(sas.data.sas_url, {
        method: 'PUT',
        headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': file.content_type },
        body: file.bytes,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_DOCUMENTS_TIMEOUT_MS),
      });
      await put.arrayBuffer();
      if (!put.ok) return failure(503, 'storage_unavailable', `Blob storage answered HTTP ${put.status}`);
    } catch (e) {
      return failure(503, 'storage_unavailable', (e as Error).message);
    }
    const registration: Registration = {
      filename: file.filename,
      storage_account: sas.data.storage_account,
      container: sas.data.container,
      blob_name: sas.data.blob_name,
      content_type: file.content_type,
      references: [{ ...file.ref, is_external: false }],
      metadata: [],
    };
    const reg = await documentsCall(
      this.opts(),
      'POST',
      '/v1/documents',
      { data: { ...registration, visibility: 'private' } },
      RegisteredDocument,
      { 'idempotency-key': idempotencyKey },
    );
    return reg.ok ? { ok: true as const, data: { id: reg.data.id } } : reg;
  }

  private opts() {
    return { ...this.o, timeoutMs: this.o.timeoutMs ?? DEFAULT_DOCUMENTS_TIMEOUT_MS };
  }
}
