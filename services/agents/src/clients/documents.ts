import { DocumentsClient, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';

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

const ReadAnswer = Type.Object({ id: Type.String(), blob_name: Type.String() });

/** The agents service's HTTP client of documents: the kit's DocumentsClient with skills' reference and refusal. */
export class HttpDocuments implements SkillDocuments {
  private readonly client: DocumentsClient;
  constructor(o: HttpDocumentsOptions) {
    this.client = new DocumentsClient({
      ...o,
      // Any refusal, a missing document on GET included, is the archive the caller named: theirs to correct.
      refusal: (r) =>
        unprocessable('archive_refused', `The documents service refused the archive: ${r.code} (${r.message})`),
    });
  }

  uploadLink(filename: string): Promise<UploadLink> {
    return this.client.uploadLink(filename);
  }

  register(r: { blob_name: string; filename: string; skill_id: string }, idempotencyKey: string) {
    const reference = { ref_type: 'agent_skill', ref_id: r.skill_id, ref_category: 'agents' };
    const registration = { ...r, content_type: 'application/octet-stream', reference };
    return this.client.register(registration, idempotencyKey);
  }

  async find(documentId: string) {
    const a = await this.client.read(documentId, ReadAnswer);
    return { blob_name: a.blob_name };
  }
}
