import { unavailable } from '../errors.ts';
import type { Grant, Principal } from './principal.ts';

/** Who a principal is and what grants it holds: the identity service, or locally the dev principals file. */
export interface PrincipalDirectory {
  /** By id: a person's FID (UUID) or a service's `service:<client_id>`. null when unknown. */
  byId(id: string): Promise<Principal | null>;
  /** By email (case-insensitive). null when unknown. */
  byEmail(email: string): Promise<Principal | null>;
}

/** What an email or a service principal id must look like wherever a caller names one. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;
export const SERVICE_PRINCIPAL_RE = /^service:[a-z][a-z0-9-]*$/;

/** A directory that knows nobody: every caller is signed in with no grants. */
export const emptyDirectory: PrincipalDirectory = { byId: async () => null, byEmail: async () => null };

export interface CachedDirectoryOptions {
  /** How long an answer (a principal or "unknown") is reused. */
  ttlMs: number;
  /** Oldest entries are dropped beyond this many. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Reuses answers for `ttlMs` so that grants are not fetched on every request, and shares one
 * lookup among concurrent requests for the same key. A failed lookup is not remembered: the
 * next request asks again.
 */
export function cachedDirectory(inner: PrincipalDirectory, o: CachedDirectoryOptions): PrincipalDirectory {
  const maxEntries = o.maxEntries ?? 10_000;
  const now = o.now ?? Date.now;
  const answers = new Map<string, { value: Principal | null; until: number }>();
  const inFlight = new Map<string, Promise<Principal | null>>();

  const lookup = (key: string, load: () => Promise<Principal | null>): Promise<Principal | null> => {
    const hit = answers.get(key);
    if (hit && hit.until > now()) return Promise.resolve(hit.value);
    const pending = inFlight.get(key);
    if (pending) return pending;
    const p = load()
      .then((value) => {
        answers.delete(key);
        answers.set(key, { value, until: now() + o.ttlMs });
        if (answers.size > maxEntries) answers.delete(answers.keys().next().value as string);
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  };

  return {
    byId: (id) => lookup(`id:${id}`, () => inner.byId(id)),
    byEmail: (email) => {
      const e = email.trim().toLowerCase();
      return lookup(`email:${e}`, () => inner.byEmail(e));
    },
  };
}

export interface HttpDirectoryOptions {
  identityUrl: string;
  /** Sent as X-Platform-Service-Token; never in the URL. */
  serviceToken: string;
  ttlMs?: number;
  maxEntries?: number;
  /** How long to wait for identity before answering 503. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

const identityUnavailable = (why: string) =>
  unavailable('identity_unavailable', `The identity service could not be asked who the caller is (${why})`);

const isGrant = (g: unknown): g is Grant => {
  const v = g as Record<string, unknown>;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.role === 'string' &&
    typeof v.scope_type === 'string' &&
    typeof v.scope_id === 'string'
  );
};

/** The principal in a lookup answer, or undefined when the body is not one. */
function principalFrom(body: unknown): Principal | undefined {
  const d = (body as { payload?: { data?: Record<string, unknown> } } | null)?.payload?.data;
  if (!d || typeof d.id !== 'string' || (d.kind !== 'person' && d.kind !== 'service')) return undefined;
  if (!Array.isArray(d.grants) || !d.grants.every(isGrant)) return undefined;
  const p: Principal = { id: d.id, kind: d.kind, grants: d.grants };
  if (typeof d.email === 'string') p.email = d.email;
  return p;
}

/** The identity service's principal lookup, cached (see cachedDirectory). */
export function httpDirectory(o: HttpDirectoryOptions): PrincipalDirectory {
  const doFetch = o.fetch ?? fetch;
  const base = o.identityUrl.replace(/\/+$/, '');
  const timeoutMs = o.timeoutMs ?? 5_000;

  const ask = async (query: Record<string, string>): Promise<Principal | null> => {
    let res: Response;
    try {
      res = await doFetch(`${base}/v1/principals/lookup?${new URLSearchParams(query)}`, {
        headers: { 'x-platform-service-token': o.serviceToken, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw identityUnavailable('no answer');
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw identityUnavailable(`status ${res.status}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw identityUnavailable('unreadable answer');
    }
    const p = principalFrom(body);
    if (!p) throw identityUnavailable('unreadable answer');
    return p;
  };

  return cachedDirectory(
    { byId: (id) => ask({ id }), byEmail: (email) => ask({ email }) },
    { ttlMs: o.ttlMs ?? 30_000, maxEntries: o.maxEntries, now: o.now },
  );
}
