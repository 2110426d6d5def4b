/**
 * The harness's HTTP calls: one attempt at a time with a deadline, and retries with a doubling
 * pause for what may succeed later (no answer, 5xx, 429). A refusal (another 4xx) is final. The
 * harness's own stop signal ends a call or a pause at once with Stopped, which nothing retries.
 */

export class Stopped extends Error {
  constructor() {
    super('the harness is stopping');
    this.name = 'Stopped';
  }
}

export class CallError extends Error {
  constructor(
    message: string,
    /** The HTTP status; undefined when nothing answered. */
    readonly status: number | undefined,
    /** The first error code of an enveloped error answer. */
    readonly code: string | undefined,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer of any shape, read defensively by its callers
  json: any;
}

export interface CallContext {
  signal: AbortSignal;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Resolves after `ms`, or rejects with Stopped as soon as the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Stopped());
    const done = () => {
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new Stopped());
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

function errorCode(json: unknown): string | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: the platform's error envelope, or a provider's error body
  const j = json as any;
  return j?.payload?.errors?.[0]?.code ?? j?.error?.code ?? j?.error?.type;
}

/** One request; any answer below 400 resolves, the rest reject with a CallError saying whether to retry. */
export async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  ctx: CallContext,
): Promise<Answer> {
  const doFetch = ctx.fetch ?? fetch;
  const what = `${init.method} ${new URL(url).pathname}`;
  let text: string;
  let status: number;
  try {
    const res = await doFetch(url, {
      method: init.method,
      headers: init.body === undefined ? init.headers : { 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.timeoutMs)]),
    });
    status = res.status;
    text = await res.text();
  } catch (error) {
    if (ctx.signal.aborted) throw new Stopped();
    throw new CallError(`${what}: no answer (${(error as Error).message})`, undefined, undefined, true);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (status < 400) return { status, text, json };
  const code = errorCode(json);
  throw new CallError(
    `${what}: ${status}${code ? ` ${code}` : ''} ${text.slice(0, 300)}`,
    status,
    code,
    status >= 500 || status === 429,
  );
}

export interface RetryOptions {
  signal: AbortSignal;
  attempts: number;
  firstPauseMs?: number;
  maxPauseMs?: number;
}

/** Runs `attempt` until it succeeds, fails for good, runs out of attempts or the harness stops. */
export async function withRetries<T>(attempt: () => Promise<T>, o: RetryOptions): Promise<T> {
  const first = o.firstPauseMs ?? 250;
  const max = o.maxPauseMs ?? 5_000;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (o.signal.aborted) throw new Stopped();
      if (!(error instanceof CallError) || !error.retryable || n >= o.attempts) throw error;
      await pause(Math.min(max, first * 2 ** (n - 1)), o.signal);
    }
  }
}
