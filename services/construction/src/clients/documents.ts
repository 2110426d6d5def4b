import { DocumentsClient, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';

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

const ReadAnswer = Type.Object({ id: Type.String(), sas_url: Type.String(), sas_expires_at: Type.String() });

/** construction's HTTP client of the documents service: the kit's DocumentsClient with records' references and refusal. */
export class HttpDocuments implements Documents {
  private readonly client: DocumentsClient;
  constructor(o: HttpDocumentsOptions) {
    this.client = new DocumentsClient({
      ...o,
      // Only what a POST sent can be the caller's to correct; a document construction recorded but
      // documents cannot read is documents failing.
      refusal: (r) =>
        r.method === 'POST'
          ? unprocessable('validation_failed', `The documents service refused the file: ${r.code} (${r.message})`)
          : undefined,
    });
  }

  uploadLink(filename: string): Promise<UploadLink> {
    return this.client.uploadLink(filename);
  }

  async register(r: FileRegistration, idempotencyKey: string): Promise<RegisteredFile> {
    const reference = { ref_type: r.record_type, ref_id: r.record_id, ref_category: 'construction' };
    const id = await this.client.register({ ...r, reference }, idempotencyKey);
    return { document_id: id };
  }

  async downloadLink(documentId: string) {
    const a = await this.client.read(documentId, ReadAnswer);
    return { url: a.sas_url, expires_at: a.sas_expires_at };
  }
}
