import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * One GET to a Google API (Gmail, Drive) with an OAuth access token as `Authorization: Bearer`,
 * bounded in time; JSON checked against the documented shape, or the bytes of a media download.
 * Google's errors come as {"error": {"code", "message", "status"}}. Never throws: a failure is an
 * answer ({ok: false, status, code, message}) the importer reports and retries on its next pass.
 */

export type GoogleAnswer<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

export interface GoogleOptions {
  /** GMAIL_API_URL or DRIVE_API_URL. */
  baseUrl: string;
  /** The OAuth access token (GMAIL_ACCESS_TOKEN, DRIVE_ACCESS_TOKEN). */
  token: string;
  /** Each request, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_GOOGLE_TIMEOUT_MS = 20_000;

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

async function send(o: GoogleOptions, path: string): Promise<GoogleAnswer<Response>> {
  try {
    const res = await (o.fetch ?? fetch)(new URL(path, o.baseUrl), {
      headers: { authorization: `Bearer ${o.token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_GOOGLE_TIMEOUT_MS),
    });
    if (res.ok) return { ok: true, data: res };
    const text = await res.text();
    let err: { message?: string; status?: string } | undefined;
    try {
      err = (JSON.parse(text) as { error?: { message?: string; status?: string } }).error;
    } catch {}
    return failure(
      res.status,
      `google_${(err?.status ?? 'error').toLowerCase()}`,
      err?.message ?? `HTTP ${res.status}`,
    );
  } catch (e) {
    return failure(503, 'google_unreachable', (e as Error).message);
  }
}

export async function googleJson<S extends TSchema>(
  o: GoogleOptions,
  path: string,
  shape: S,
): Promise<GoogleAnswer<Static<S>>> {
  const r = await send(o, path);
  if (!r.ok) return r;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await r.data.text());
  } catch (e) {
    return failure(502, 'google_malformed', (e as Error).message);
  }
  if (!Value.Check(shape, parsed)) return failure(502, 'google_malformed', `${path}: not the documented shape`);
  return { ok: true, data: parsed as Static<S> };
}

/** The bytes of a download, refused (413) past maxBytes. */
export async function googleBytes(o: GoogleOptions, path: string, maxBytes: number): Promise<GoogleAnswer<Buffer>> {
  const r = await send(o, path);
  if (!r.ok) return r;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of (r.data.body ?? []) as AsyncIterable<Uint8Array>) {
      size += c.length;
      if (size > maxBytes) return failure(413, 'too_large', `${path}: more than ${maxBytes} bytes`);
      chunks.push(Buffer.from(c));
    }
    return { ok: true, data: Buffer.concat(chunks) };
  } catch (e) {
    return failure(503, 'google_unreachable', (e as Error).message);
  }
}
