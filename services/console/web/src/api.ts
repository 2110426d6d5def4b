import { currentToken } from './auth.ts';

/** The console's roles, a ladder: each includes those below (spec 3, Authentication). */
export const ROLES = ['viewer', 'engineer', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const reaches = (held: Role | null, needed: Role) =>
  held !== null && ROLES.indexOf(held) >= ROLES.indexOf(needed);

/** The gateway's header; browsers cannot set it on EventSource or WebSocket, hence access_token there. */
const GATEWAY_HEADER = 'Cf-Access-Jwt-Assertion';
const QUERY_TOKEN = 'access_token';

/** A refused call: the status and the first {code, message} of the error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
  /** 501: the surface's server (cluster, flags, logs, ...) is not configured for this scope. */
  get notConfigured() {
    return this.status === 501;
  }
}

export interface Scope {
  region: string;
  subscription: string;
}

/** P = /v1/environments/{region}/{subscription}: every scoped surface answers under it (OPS-007). */
export const scoped = (s: Scope, rest: string) =>
  `/v1/environments/${encodeURIComponent(s.region)}/${encodeURIComponent(s.subscription)}${rest}`;

const enc = encodeURIComponent;
export const seg = (...parts: string[]) => parts.map((p) => `/${enc(p)}`).join('');

function authHeaders(): Record<string, string> {
  const token = currentToken();
  return token ? { [GATEWAY_HEADER]: token } : {};
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function errorOf(status: number, body: unknown): ApiError {
  const payload = isObject(body) && isObject(body.payload) ? body.payload : isObject(body) ? body : {};
  const first = Array.isArray(payload.errors) && isObject(payload.errors[0]) ? payload.errors[0] : payload;
  const code = typeof first.code === 'string' ? first.code : `http_${status}`;
  const message = typeof first.message === 'string' ? first.message : `The console answered ${status}`;
  return new ApiError(status, code, message, body);
}

export interface Answer<T> {
  data: T;
  meta?: unknown;
}

/** One call to the console: the gateway token as its header, the envelope's payload.data back. */
export async function call<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders() };
  if (method !== 'GET') {
    // Every console write is a command: an Idempotency-Key per attempt.
    headers['idempotency-key'] = crypto.randomUUID();
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(path, {
    method,
    headers,
    body: method === 'GET' ? undefined : JSON.stringify(body ?? { data: {} }),
  });
  const parsed = await parse(res);
  if (!res.ok) throw errorOf(res.status, parsed);
  const payload = isObject(parsed) && isObject(parsed.payload) ? parsed.payload : { data: parsed };
  return { data: payload.data as T, meta: payload.meta };
}

export const get = <T = unknown>(path: string) => call<T>('GET', path);

/** The write envelope: {data, why?} (OPS-004); the operator's reason travels as why.detail. */
export const write = <T = unknown>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  data: unknown,
  why?: string,
) => call<T>(method, path, why ? { data, why: { detail: why } } : { data });

/** A URL for EventSource or WebSocket: the token rides as access_token (tail and terminal only, OPS-017). */
export function streamUrl(path: string, query: Record<string, string> = {}, protocol: 'http' | 'ws' = 'http'): string {
  const url = new URL(path, window.location.href);
  for (const [k, v] of Object.entries(query)) if (v !== '') url.searchParams.set(k, v);
  const token = currentToken();
  if (token) url.searchParams.set(QUERY_TOKEN, token);
  if (protocol === 'ws') url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Rows of an answer whatever its exact shape: the array itself, or the first array field. */
export function rowsOf(data: unknown, ...keys: string[]): Json[] {
  if (Array.isArray(data)) return data.filter(isObject);
  if (!isObject(data)) return [];
  for (const k of keys) if (Array.isArray(data[k])) return (data[k] as unknown[]).filter(isObject);
  const first = Object.values(data).find(Array.isArray);
  return first ? (first as unknown[]).filter(isObject) : [];
}

export const str = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
export type { Json };
export { isObject };
