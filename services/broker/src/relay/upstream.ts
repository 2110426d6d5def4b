/**
 * The relay's upstream calls: one keep-alive undici pool per provider origin, the provider's
 * credentials in the provider's own header, and nothing of the caller's credentials.
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import type { ProviderEndpoint } from '../config.ts';
import { API_PATHS, type Api, type ProviderKind } from '../domain/catalog.ts';
import type { RelaySettings } from '../routes/deps.ts';

/** A configured provider, ready to call: its origin, its base path (e.g. /v1) and its key. */
export interface Upstream {
  id: string;
  origin: string;
  basePath: string;
  key?: string;
}

/**
 * Cancels one upstream call (undici takes an EventEmitter as its signal): cheaper per call than
 * an AbortController on Node 20.
 */
export class CallAbort extends EventEmitter {
  aborted = false;
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

export const upstreamOf = (e: ProviderEndpoint): Upstream => {
  const url = new URL(e.baseUrl);
  return { id: e.id, origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), key: e.apiKey };
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The headers sent upstream: the provider's key, and of the caller's only what the wire format needs. */
export function upstreamHeaders(
  kind: ProviderKind,
  key: string,
  caller: IncomingHttpHeaders,
  anthropicVersion: string,
): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    accept: first(caller.accept) ?? '*/*',
  };
  if (kind === 'anthropic') {
    h['x-api-key'] = key;
    h['anthropic-version'] = first(caller['anthropic-version']) ?? anthropicVersion;
    const beta = first(caller['anthropic-beta']);
    if (beta) h['anthropic-beta'] = beta;
  } else {
    h.authorization = `Bearer ${key}`;
  }
  return h;
}

export class Upstreams {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly settings: RelaySettings) {}

  /** POSTs `body` to the provider's endpoint for `api`; resolves when the reply's headers arrived. */
  send(
    u: Upstream,
    api: Api,
    headers: Record<string, string>,
    body: Buffer,
    signal: CallAbort,
  ): Promise<Dispatcher.ResponseData> {
    return this.pool(u.origin).request({
      method: 'POST',
      path: u.basePath + API_PATHS[api],
      headers,
      body,
      signal,
    });
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy()));
  }

  private pool(origin: string): Pool {
    let p = this.pools.get(origin);
    if (!p) {
      p = new Pool(origin, {
        connections: 512,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        connect: { timeout: this.settings.connectTimeoutMs },
        headersTimeout: this.settings.headersTimeoutMs,
        // A stream may pause while the model thinks: the same allowance between chunks.
        bodyTimeout: this.settings.headersTimeoutMs,
      });
      this.pools.set(origin, p);
    }
    return p;
  }
}

/** Up to `limit` bytes of a reply body (an error reply, for the log and the caller); the rest is dropped. */
export async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // A reply cut short still says what it said so far.
  } finally {
    if (!body.destroyed) body.destroy();
  }
  return Buffer.concat(parts).subarray(0, limit).toString('utf8');
}

/** The provider's error message in an error body: OpenAI {error: {message}}, Anthropic {error: {message}}, or {message}. */
export function upstreamMessage(text: string): string | null {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'object' ? j.error?.message : (j.error ?? j.message);
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Reply headers passed to the caller besides the body's type and length: caching, retry and rate-limit advice. */
export function forwardedHeaders(h: IncomingHttpHeaders, requestId: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { 'x-request-id': requestId };
  for (const name in h) {
    const v = h[name];
    if (v === undefined) continue;
    if (
      name === 'content-type' ||
      name === 'content-length' ||
      name === 'content-encoding' ||
      name === 'cache-control' ||
      name === 'retry-after' ||
      name.startsWith('x-ratelimit-') ||
      name.startsWith('anthropic-ratelimit-')
    ) {
      out[name] = v;
    } else if (name === 'x-request-id' || name === 'request-id') {
      out['x-upstream-request-id'] = v;
    }
  }
  return out;
}
