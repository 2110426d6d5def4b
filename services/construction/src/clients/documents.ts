import { AppError, documentsCall, unprocessable } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * The documents service as construction's attachments need it (spec 3: attachments go through
 * documents, CONSTRUCTION_DOCUMENTS_URL): a short-lived upload link, registering the uploaded
 * blob, and a fresh download link. Each call is bounded by CONSTRUCTION_UPSTREAM_TIMEOUT_MS; a
 * failure, a hang or an answer not of the documented shape throws 502 documents_unavailable, and
 * a refusal of what the caller sent (documents' 4xx: an unsafe filename, a blob never uploaded)
 * throws 422 validation_failed naming documents' code. Callers ask before their transaction.
 */
export interface UploadLink {
  blob_name: string;
  upload_url: string;
  expires_at: string;
}

export interface RegisteredFile {
  /** The documents service's id of the file. */
  document_id: string;
}

export interface FileRegistration {
  blob_name: string;
  filename: string;
  content_type: string;
  /** The construction record the file belongs to, kept as a reference on the document. */
  record_type: string;
  record_id: string;
}

export interface Documents {
  uploadLink(filename: string): Promise<UploadLink>;
  /** The key makes a retried registration one document. */
  register(input: FileRegistration, idempotencyKey: string): Promise<RegisteredFile>;
  downloadLink(documentId: string): Promise<{ url: string; expires_at: string }>;
}

export interface HttpDocumentsOptions {
  /** CONSTRUCTION_DOCUMENTS_URL. */
  baseUrl: string;
  /** CONSTRUCTION_UPSTREAM_TIMEOUT_MS: each call, connection to last byte. */
  timeoutMs: number;
  /** The documents catalog's private account and container files go to (local defaults: local, documents). */
  storageAccount?: string;
  container?: string;
  fetch?: typeof fetch;
}

const SasAnswer = Type.Object({
  sas_url: Type.String(),
  sas_expires_at: Type.String(),
  blob_name: Type.String(),
});
const DocumentAnswer = Type.Object({ id: Type.String() });
const ReadAnswer = Type.Object({ id: Type.String(), sas_url: Type.String(), sas_expires_at: Type.String() });

const unavailable = (message: string) =>
  new AppError(502, 'documents_unavailable', `The documents service did not answer: ${message}`);

/** construction's own HTTP client of the documents service (POST /v1/documents/sas, POST /v1/documents, GET /v1/documents/{id}). */
export class HttpDocuments implements Documents {
  private readonly account: string;
  private readonly container: string;
  constructor(private readonly o: HttpDocumentsOptions) {
    this.account = o.storageAccount ?? 'local';
    this.container = o.container ?? 'documents';
  }

  async uploadLink(filename: string): Promise<UploadLink> {
    const body = { filename, visibility: 'private', storage_account: this.account, container: this.container };
    const a = await this.call('POST', '/v1/documents/sas', body, SasAnswer);
    return { blob_name: a.blob_name, upload_url: a.sas_url, expires_at: a.sas_expires_at };
  }

  async register(r: FileRegistration, idempotencyKey: string): Promise<RegisteredFile> {
    const data = {
      filename: r.filename,
      visibility: 'private',
      storage_account: this.account,
      container: this.container,
      blob_name: r.blob_name,
      content_type: r.content_type,
      references: [{ ref_type: r.record_type, ref_id: r.record_id, ref_category: 'construction', is_external: false }],
      metadata: [],
    };
    const a = await this.call('POST', '/v1/documents', { data }, DocumentAnswer, {
      'idempotency-key': idempotencyKey,
    });
    return { document_id: a.id };
  }

  async downloadLink(documentId: string) {
    const a = await this.call('GET', `/v1/documents/${encodeURIComponent(documentId)}`, undefined, ReadAnswer);
    return { url: a.sas_url, expires_at: a.sas_expires_at };
  }

  /** The answer's data, or the failure as construction's error (documentsCall in the kit makes the call). */
  private async call<S extends TSchema>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    shape: S,
    headers: Record<string, string> = {},
  ): Promise<Static<S>> {
    const a = await documentsCall(this.o, method, path, body, shape, headers);
    if (a.ok) return a.data;
    if (method === 'POST' && a.status >= 400 && a.status < 500 && ![401, 403, 408, 429].includes(a.status)) {
      // A refusal of what was sent (an unsafe filename, a blob never uploaded): the caller's to correct.
      throw unprocessable('validation_failed', `The documents service refused the file: ${a.code} (${a.message})`);
    }
    throw unavailable(`${a.code}: ${a.message}`);
  }
}
