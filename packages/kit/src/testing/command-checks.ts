import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { App } from '../http/app.ts';

type Method = 'POST' | 'DELETE';

export interface CommandCheckOptions {
  app: () => App;
  method: Method;
  /** The URL; a function when each check needs a fresh target (e.g. a new draft to post). */
  url: string | (() => Promise<string> | string);
  /** A valid body; a function when each check needs fresh data. */
  body: unknown | (() => unknown);
  /** Another valid body, for the 409 check. */
  otherBody: unknown | (() => unknown);
  /** A caller allowed to run the command (X-Dev-Principal value). */
  allowed: string;
  /** A signed-in caller without the permission; omit when every signed-in person may. */
  forbidden?: string;
  /** A fingerprint of everything the command could write (row counts, the outbox...). */
  state: () => Promise<unknown>;
  /** Rule IDs the checks prove, put at the front of each test name. */
  rules: { unauthenticated?: string; forbidden?: string; missingKey?: string; replay?: string; conflict?: string };
  expectedStatus?: number;
}

const resolve = async <T>(v: T | (() => T | Promise<T>)): Promise<T> =>
  typeof v === 'function' ? await (v as () => T | Promise<T>)() : v;

/**
 * The checks every command route gets in one line: 401 without credentials, 403 without the
 * permission, 400 without an Idempotency-Key, a replay that returns the stored result and writes
 * nothing more, and 409 for the same key with another body. Each refusal must write nothing.
 */
export function commandChecks(name: string, o: CommandCheckOptions) {
  const send = async (headers: Record<string, string>, url: string, body: unknown) =>
    o.app().inject({
      method: o.method,
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });

  it(`${o.rules.unauthenticated ?? ''} ${name}: 401 without credentials, nothing written`.trim(), async () => {
    const url = await resolve(o.url);
    const body = await resolve(o.body);
    const before = await o.state();
    const res = await send({ 'idempotency-key': randomUUID() }, url, body);
    expect(res.statusCode).toBe(401);
    expect(res.json().payload.errors[0].code).toBe('unauthenticated');
    expect(await o.state()).toEqual(before);
  });

  if (o.forbidden) {
    const forbidden = o.forbidden;
    it(`${o.rules.forbidden ?? ''} ${name}: 403 without the permission, nothing written`.trim(), async () => {
      const url = await resolve(o.url);
      const body = await resolve(o.body);
      const before = await o.state();
      const res = await send({ 'idempotency-key': randomUUID(), 'x-dev-principal': forbidden }, url, body);
      expect(res.statusCode).toBe(403);
      expect(await o.state()).toEqual(before);
    });
  }

  it(
    `${o.rules.missingKey ?? ''} ${name}: 400 idempotency_key_required without the key, nothing written`.trim(),
    async () => {
      const url = await resolve(o.url);
      const body = await resolve(o.body);
      const before = await o.state();
      const res = await send({ 'x-dev-principal': o.allowed }, url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().payload.errors[0].code).toBe('idempotency_key_required');
      expect(await o.state()).toEqual(before);
    },
  );

  it(`${o.rules.replay ?? ''} ${name}: a replay returns the stored result and runs nothing again`.trim(), async () => {
    const url = await resolve(o.url);
    const body = await resolve(o.body);
    const key = randomUUID();
    const first = await send({ 'idempotency-key': key, 'x-dev-principal': o.allowed }, url, body);
    expect(first.statusCode).toBe(o.expectedStatus ?? 200);
    const after = await o.state();
    const replay = await send({ 'idempotency-key': key, 'x-dev-principal': o.allowed }, url, body);
    expect(replay.statusCode).toBe(first.statusCode);
    expect(replay.json().payload.data).toEqual(first.json().payload.data);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await o.state()).toEqual(after);
  });

  it(`${o.rules.conflict ?? ''} ${name}: the same key with another body is 409, nothing written`.trim(), async () => {
    const url = await resolve(o.url);
    const body = await resolve(o.body);
    const key = randomUUID();
    const first = await send({ 'idempotency-key': key, 'x-dev-principal': o.allowed }, url, body);
    expect(first.statusCode).toBe(o.expectedStatus ?? 200);
    const after = await o.state();
    const other = await send({ 'idempotency-key': key, 'x-dev-principal': o.allowed }, url, await resolve(o.otherBody));
    expect(other.statusCode).toBe(409);
    expect(other.json().payload.errors[0].code).toBe('idempotency_key_reused');
    expect(await o.state()).toEqual(after);
  });
}
