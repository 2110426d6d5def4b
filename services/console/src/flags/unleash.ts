import { AppError } from '@platform/kit';

/** A subscription's flag server: its Unleash admin API and the admin token (never logged). */
export interface FlagServer {
  url: string;
  token: string;
}

/** What the server answered: status, parsed body, and its ETag (the version a write sends back). */
export interface Answer {
  status: number;
  body: unknown;
  etag?: string;
}

export interface FlagServerOptions {
  timeoutMs: number;
  fetch?: typeof fetch;
}

type Json = Record<string, unknown>;

const messageOf = (body: unknown, fallback: string): string => {
  const m = (body as Json | null)?.message;
  return typeof m === 'string' && m ? m.slice(0, 500) : fallback;
};

/**
 * What the console answers for a server's refusal. 409 and 422 pass on as themselves (OPS-025,
 * OPS-026): the same status, and the server's body unchanged as the error's value. Another 4xx
 * keeps its status; an outage or a refused token is 502.
 */
export function upstreamError(a: Answer): AppError {
  const pass = (status: number, code: string) =>
    new AppError(status, code, messageOf(a.body, `The flag server answered ${a.status}`), [
      { code, message: messageOf(a.body, `The flag server answered ${a.status}`), value: a.body },
    ]);
  if (a.status === 409) return pass(409, 'flag_server_conflict');
  if (a.status === 422) return pass(422, 'flag_server_unprocessable');
  if (a.status === 404) return pass(404, 'flag_server_not_found');
  if (a.status === 400) return pass(400, 'flag_server_bad_request');
  if (a.status === 401 || a.status === 403) {
    return new AppError(
      502,
      'flag_server_unavailable',
      `The flag server refused the console (${a.status}): ${messageOf(a.body, 'its token may lack the admin role')}`,
    );
  }
  return new AppError(502, 'flag_server_unavailable', `The flag server answered ${a.status}`);
}

/**
 * One small client for Unleash's admin API: URL plus admin token, JSON in and out, the ETag kept
 * so a write can send the version its read saw (If-Match).
 */
export class UnleashAdmin {
  private readonly fetch: typeof fetch;
  constructor(
    private readonly server: FlagServer,
    private readonly opts: FlagServerOptions,
  ) {
    this.fetch = opts.fetch ?? fetch;
  }

  /** Sends one request; a non-2xx answer is thrown as the console's error for it. */
  async call(method: string, path: string, body?: unknown, ifMatch?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: this.server.token, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (ifMatch) headers['if-match'] = ifMatch;
    let res: Response;
    try {
      res = await this.fetch(new URL(path.replace(/^\//, ''), this.server.url.replace(/\/?$/, '/')), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (e) {
      throw new AppError(502, 'flag_server_unavailable', `The flag server cannot be reached (${(e as Error).name})`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const answer: Answer = { status: res.status, body: parsed, etag: res.headers.get('etag') ?? undefined };
    if (res.status >= 400) throw upstreamError(answer);
    return answer;
  }
}
