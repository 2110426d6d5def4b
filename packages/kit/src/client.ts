import { randomUUID } from 'node:crypto';

/**
 * The kit's HTTP client for service-to-service calls. It reads the platform envelope and also
 * RFC 9457 problem documents (accounting's divergence note), turning either error shape into
 * a ClientError value, and retries a command with the same Idempotency-Key.
 */
export class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export type ClientResult<T> = { ok: true; status: number; data: T; meta?: unknown } | { ok: false; error: ClientError };

export interface ClientOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  retries?: number;
  fetch?: typeof fetch;
  retryDelayMs?: number;
}

export async function readResponse<T>(res: Response): Promise<ClientResult<T>> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const retryable = res.status >= 500 || res.status === 429;
  if (res.ok) {
    const payload = (body as { payload?: { data?: T; meta?: unknown } } | undefined)?.payload;
    // Bare bodies are tolerated too: the data is the body itself.
    return payload && 'data' in payload
      ? { ok: true, status: res.status, data: payload.data as T, meta: payload.meta }
      : { ok: true, status: res.status, data: body as T };
  }
  if (type.includes('application/problem+json') && body && typeof body === 'object') {
    const p = body as { type?: string; title?: string; detail?: string; code?: string };
    const code = p.code ?? p.type?.split('/').pop() ?? `http_${res.status}`;
    return { ok: false, error: new ClientError(res.status, code, p.detail ?? p.title ?? code, retryable) };
  }
  const first = (body as { payload?: { errors?: { code: string; message: string }[] } } | undefined)?.payload
    ?.errors?.[0];
  return {
    ok: false,
    error: new ClientError(
      res.status,
      first?.code ?? `http_${res.status}`,
      first?.message ?? res.statusText,
      retryable,
    ),
  };
}

export function createClient(opts: ClientOptions) {
  const f = opts.fetch ?? fetch;
  const call = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const attempts = (opts.retries ?? 2) + 1;
    let last: ClientResult<T> | undefined;
    for (let i = 0; i < attempts; i++) {
      try {
        const res = await f(new URL(path, opts.baseUrl), {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...opts.headers,
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        last = await readResponse<T>(res);
        if (last.ok || !last.error.retryable) return last;
      } catch (e) {
        last = { ok: false, error: new ClientError(0, 'network_error', (e as Error).message, true) };
      }
      await new Promise((r) => setTimeout(r, (opts.retryDelayMs ?? 100) * 2 ** i));
    }
    return last as ClientResult<T>;
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    /** A command: one Idempotency-Key for the command, kept across every retry. */
    command: <T>(method: 'POST' | 'DELETE', path: string, body: { data: unknown; why?: unknown }, key = randomUUID()) =>
      call<T>(method, path, body, { 'idempotency-key': key }),
  };
}
