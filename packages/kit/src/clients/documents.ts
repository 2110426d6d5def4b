import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

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
