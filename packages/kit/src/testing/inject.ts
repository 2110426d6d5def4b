import type { App } from '../http/app.ts';

/** A JSON answer taken apart the way tests read it. */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely, as a client would.
  body: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  data: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  meta: any;
  /** Present on error answers; typed as always there so tests can index it directly. */
  // biome-ignore lint/suspicious/noExplicitAny: error values are whatever the service put there.
  errors: { code: string; message: string; field?: string; value?: any }[];
  headers: Record<string, unknown>;
}

/**
 * Sends one request to an app in process: a JSON body when given, an Idempotency-Key when `key`
 * is set, and the answer with its envelope taken apart.
 */
export async function injectJson(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  o: { headers?: Record<string, string>; body?: unknown; key?: string | null } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers['idempotency-key'] = o.key;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method,
    url,
    headers,
    payload: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const json = res.body ? res.json() : undefined;
  return {
    status: res.statusCode,
    body: json,
    data: json?.payload?.data,
    meta: json?.payload?.meta,
    errors: json?.payload?.errors,
    headers: res.headers,
  };
}
