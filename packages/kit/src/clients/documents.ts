import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../errors.ts';

/**
 * One call to the platform's documents service (spec 1, "Documents"), as the services that keep
 * files there make it (workspace's outputs, construction's attachments): JSON in the envelope,
 * the platform service token when given, bounded in time (connection to last byte), the answer's
 * data checked against the documented shape. Never throws: a failure is an answer
 * ({ok: false, status, code, message}) each caller turns into its own error — 503
 * documents_unreachable (no answer in time or at all), documents_malformed (not JSON, not the
 * shape), or the documents service's own status and first error code.
 */

export type DocumentsAnswer<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

export interface DocumentsCallOptions {
  /** The documents service's base URL. */
  baseUrl: string;
  /** Each call, connection to last byte. */
  timeoutMs: number;
  /** The platform service token, sent as X-Platform-Service-Token when given. */
  serviceToken?: string;
  fetch?: typeof fetch;
}

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

export async function documentsCall<S extends TSchema>(
  o: DocumentsCallOptions,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  shape: S,
  headers: Record<string, string> = {},
): Promise<DocumentsAnswer<Static<S>>> {
  const f = o.fetch ?? fetch;
  let res: Response;
  let text: string;
  try {
    res = await f(new URL(path, o.baseUrl), {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(o.serviceToken ? { 'x-platform-service-token': o.serviceToken } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    return failure(503, 'documents_unreachable', (e as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return failure(503, 'documents_malformed', `HTTP ${res.status}, not JSON`);
  }
  const payload = (parsed as { payload?: { data?: unknown; errors?: { code?: string; message?: string }[] } })?.payload;
  if (!res.ok) {
    const first = payload?.errors?.[0];
    return failure(res.status, first?.code ?? 'documents_error', first?.message ?? `HTTP ${res.status}`);
  }
  const data = payload?.data;
  if (!Value.Check(shape, data)) return failure(503, 'documents_malformed', 'not the documented shape');
  return { ok: true, data: data as Static<S> };
}

export interface DocumentsClientOptions extends DocumentsCallOptions {
  /** The documents catalog's private account and container files go to (local defaults: local, documents). */
  storageAccount?: string;
  container?: string;
  /**
   * The caller's error for a refusal of what it sent (documents' 4xx other than 401, 403, 408 and
   * 429: an unsafe filename, a blob never uploaded, no such document); undefined answers it as 502
   * documents_unavailable, as every other failure is.
   */
  refusal: (r: { method: 'GET' | 'POST'; status: number; code: string; message: string }) => Error | undefined;
}

/** What registering a file tells documents: the file and the one record it belongs to. */
export interface DocumentRegistration {
  blob_name: string;
  filename: string;
  content_type: string;
  reference: { ref_type: string; ref_id: string; ref_category: string };
}

const SasAnswer = Type.Object({ sas_url: Type.String(), sas_expires_at: Type.String(), blob_name: Type.String() });
const RegisterAnswer = Type.Object({ id: Type.String() });

const documentsUnavailable = (message: string) =>
  new AppError(502, 'documents_unavailable', `The documents service did not answer: ${message}`);

/**
 * The HTTP client of documents that services keeping private files there share (construction's
 * attachments, agents' skill archives): a write link (POST /v1/documents/sas), registering the
 * uploaded blob with its reference (POST /v1/documents, the key making a retry one document), and
 * reading a document (GET /v1/documents/{id}) in the shape the caller needs. Each service keeps its
 * own interface over it and says how a refusal is answered.
 */
export class DocumentsClient {
  private readonly account: string;
  private readonly container: string;
  constructor(private readonly o: DocumentsClientOptions) {
    this.account = o.storageAccount ?? 'local';
    this.container = o.container ?? 'documents';
  }

  async uploadLink(filename: string): Promise<{ blob_name: string; upload_url: string; expires_at: string }> {
    const body = { filename, visibility: 'private', storage_account: this.account, container: this.container };
    const a = await this.call('POST', '/v1/documents/sas', body, SasAnswer);
    return { blob_name: a.blob_name, upload_url: a.sas_url, expires_at: a.sas_expires_at };
  }

  /** The new document's id. */
  async register(r: DocumentRegistration, idempotencyKey: string): Promise<string> {
    const data = {
      filename: r.filename,
      visibility: 'private',
      storage_account: this.account,
      container: this.container,
      blob_name: r.blob_name,
      content_type: r.content_type,
      references: [{ ...r.reference, is_external: false }],
      metadata: [],
    };
    const a = await this.call('POST', '/v1/documents', { data }, RegisterAnswer, { 'idempotency-key': idempotencyKey });
    return a.id;
  }

  /** The document checked against `shape`, the fields the caller relies on. */
  read<S extends TSchema>(documentId: string, shape: S): Promise<Static<S>> {
    return this.call('GET', `/v1/documents/${encodeURIComponent(documentId)}`, undefined, shape);
  }

  private async call<S extends TSchema>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    shape: S,
    headers: Record<string, string> = {},
  ): Promise<Static<S>> {
    const a = await documentsCall(this.o, method, path, body, shape, headers);
    if (a.ok) return a.data;
    // 401/403 are this service's token, 408/429 documents' load: not the caller's to correct.
    if (a.status >= 400 && a.status < 500 && ![401, 403, 408, 429].includes(a.status)) {
      const refused = this.o.refusal({ method, status: a.status, code: a.code, message: a.message });
      if (refused) throw refused;
    }
    throw documentsUnavailable(`${a.code}: ${a.message}`);
  }
}
