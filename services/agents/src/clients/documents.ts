import { AppError, documentsCall, unprocessable } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * The documents service as skills need it (spec 3: skill archives go through documents,
 * AGENTS_DOCUMENTS_URL): a write link for an archive, registering an uploaded blob, and checking
 * that a document exists. Each call is bounded by AGENTS_UPSTREAM_TIMEOUT_MS; a failure, a hang
 * or an answer not of the documented shape throws 502 documents_unavailable; a refusal of what
 * the caller sent (a blob never uploaded, no such document) throws 422 archive_refused.
 * Callers ask before their transaction.
 */
export interface UploadLink {
  blob_name: string;
  upload_url: string;
  expires_at: string;
}

export interface SkillDocuments {
  uploadLink(filename: string): Promise<UploadLink>;
  /** Registers an uploaded archive as a document referring to the skill; the key makes a retry one document. */
  register(input: { blob_name: string; filename: string; skill_id: string }, idempotencyKey: string): Promise<string>;
  /** The document's blob name; 422 archive_refused when documents has no such document. */
  find(documentId: string): Promise<{ blob_name: string }>;
}

export interface HttpDocumentsOptions {
  /** AGENTS_DOCUMENTS_URL. */
  baseUrl: string;
  /** AGENTS_UPSTREAM_TIMEOUT_MS. */
  timeoutMs: number;
  /** SERVICE_TOKEN, sent when set. */
  serviceToken?: string;
  /** The documents catalog's private account and container archives go to (local defaults: local, documents). */
  storageAccount?: string;
  container?: string;
  fetch?: typeof fetch;
}

const SasAnswer = Type.Object({ sas_url: Type.String(), sas_expires_at: Type.String(), blob_name: Type.String() });
const DocumentAnswer = Type.Object({ id: Type.String() });
const ReadAnswer = Type.Object({ id: Type.String(), blob_name: Type.String() });

export const documentsUnavailable = (message: string) =>
  new AppError(502, 'documents_unavailable', `The documents service did not answer: ${message}`);

/** The agents service's HTTP client of documents (POST /v1/documents/sas, POST /v1/documents, GET /v1/documents/{id}). */
export class HttpDocuments implements SkillDocuments {
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

  async register(r: { blob_name: string; filename: string; skill_id: string }, idempotencyKey: string) {
    const data = {
      filename: r.filename,
      visibility: 'private',
      storage_account: this.account,
      container: this.container,
      blob_name: r.blob_name,
      content_type: 'application/octet-stream',
      references: [{ ref_type: 'agent_skill', ref_id: r.skill_id, ref_category: 'agents', is_external: false }],
      metadata: [],
    };
    const a = await this.call('POST', '/v1/documents', { data }, DocumentAnswer, { 'idempotency-key': idempotencyKey });
    return a.id;
  }

  async find(documentId: string) {
    const a = await this.call('GET', `/v1/documents/${encodeURIComponent(documentId)}`, undefined, ReadAnswer);
    return { blob_name: a.blob_name };
  }

  /** The answer's data, or the failure as the agents service's error (documentsCall in the kit makes the call). */
  private async call<S extends TSchema>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    shape: S,
    headers: Record<string, string> = {},
  ): Promise<Static<S>> {
    const a = await documentsCall(this.o, method, path, body, shape, headers);
    if (a.ok) return a.data;
    if (a.status >= 400 && a.status < 500 && ![401, 403, 408, 429].includes(a.status)) {
      // A refusal of what was sent (no such document, a blob never uploaded, an unsafe filename): the caller's to correct.
      throw unprocessable('archive_refused', `The documents service refused the archive: ${a.code} (${a.message})`);
    }
    throw documentsUnavailable(`${a.code}: ${a.message}`);
  }
}
