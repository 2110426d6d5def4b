import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { App } from '../http/app.ts';
import { type DeclaredRoute, isCommandRoute, routeName } from '../http/routes.ts';

type Value<T> = T | (() => T | Promise<T>);

/** How to call one command route with a valid request. */
export interface RouteExample {
  /** The URL with real ids; default the declaration's URL (when it has no parameters). */
  url?: Value<string>;
  /** A valid body (a function when each call needs fresh data). */
  body?: Value<unknown>;
  /** Another valid body for the 409 check; default the body with another `why`. */
  otherBody?: Value<unknown>;
  /** A caller allowed to run it (X-Dev-Principal value); default the suite's. */
  allowed?: string;
  /** A signed-in caller without the action; null when every signed-in caller may; default the suite's. */
  denied?: string | null;
  /**
   * Fields of the answer's data shown only to the request that made them (a secret, a token): the
   * replay answers the stored record without them.
   */
  shownOnce?: readonly string[];
  /** Rule IDs the checks prove, put at the front of each test name. */
  rules?: { unauthenticated?: string; forbidden?: string; missingKey?: string; replay?: string; conflict?: string };
}

export interface RouteCheckOptions {
  app: () => App;
  /** The service's declared routes: every command among them is checked. */
  routes: readonly DeclaredRoute[];
  /** One valid request per command route, keyed by routeName ("POST /v1/accounts/{id}/postability"). */
  examples: Readonly<Record<string, RouteExample>>;
  /** A caller allowed to run the commands (X-Dev-Principal value). */
  allowed: string;
  /** A signed-in caller without the actions; null when every signed-in caller holds them. */
  denied: string | null;
  /**
   * The service's `can`: a route whose action is open to anyone (can.decide without a principal
   * allows it) gets no 401 check.
   */
  can?: { decide(p: null, action: string): { allowed: boolean } };
  /** A fingerprint of everything the service could write (row counts, the outbox...). */
  state: () => Promise<unknown>;
}

const resolve = async <T>(v: Value<T>): Promise<T> =>
  typeof v === 'function' ? await (v as () => T | Promise<T>)() : v;

const withOtherWhy = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? { ...body, why: { code: 'route_checks', detail: `another request ${randomUUID()}` } }
    : { data: body };

/**
 * The checks every command route gets from its declaration (issue 15.4): 401 without identity,
 * 403 for a caller without the action, 400 without an Idempotency-Key, a replay of the same
 * request, 409 for the key reused with another body, and nothing written on each refusal. A
 * command route without an example fails, so a new route is covered by being declared.
 */
export function routeChecks(service: string, o: RouteCheckOptions) {
  const commands = o.routes.filter(isCommandRoute);

  it(`15.4 ${service}: every declared command route has an example request`, () => {
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.map(routeName).filter((n) => !o.examples[n])).toEqual([]);
    expect(Object.keys(o.examples).filter((n) => !commands.some((r) => routeName(r) === n))).toEqual([]);
  });

  for (const route of commands) {
    const name = routeName(route);
    const ex = o.examples[name];
    if (!ex) continue;
    const status = route.status ?? 200;
    const rules = ex.rules ?? {};
    const title = (rule: string | undefined, what: string) => `${rule ?? ''} 15.4 ${name}: ${what}`.trim();
    const request = async () => ({
      url: await resolve(ex.url ?? route.url),
      body: await resolve(ex.body ?? {}),
    });
    const send = (headers: Record<string, string>, url: string, body: unknown) =>
      o.app().inject({
        method: route.method,
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    const as = (who: string, key?: string) => ({
      'x-dev-principal': who,
      ...(key ? { 'idempotency-key': key } : {}),
    });
    const allowed = ex.allowed ?? o.allowed;
    const denied = ex.denied === undefined ? o.denied : ex.denied;

    const open = o.can?.decide(null, route.action).allowed === true;

    describe(name, () => {
      if (!open) {
        it(title(rules.unauthenticated, '401 without identity, nothing written'), async () => {
          const { url, body } = await request();
          const before = await o.state();
          const res = await send({ 'idempotency-key': randomUUID() }, url, body);
          expect(res.statusCode).toBe(401);
          expect(res.json().payload.errors[0].code).toBe('unauthenticated');
          expect(await o.state()).toEqual(before);
        });
      }

      if (denied && !open) {
        it(title(rules.forbidden, '403 for a caller without the action, nothing written'), async () => {
          const { url, body } = await request();
          const before = await o.state();
          const res = await send(as(denied, randomUUID()), url, body);
          expect(res.statusCode).toBe(403);
          expect(await o.state()).toEqual(before);
        });
      }

      it(title(rules.missingKey, '400 idempotency_key_required without the key, nothing written'), async () => {
        const { url, body } = await request();
        const before = await o.state();
        const res = await send(as(allowed), url, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().payload.errors[0].code).toBe('idempotency_key_required');
        expect(await o.state()).toEqual(before);
      });

      it(title(rules.replay, 'the same key and request replay the stored result, nothing runs again'), async () => {
        const { url, body } = await request();
        const key = randomUUID();
        const first = await send(as(allowed, key), url, body);
        expect(first.statusCode, first.body).toBe(status);
        const after = await o.state();
        const replay = await send(as(allowed, key), url, body);
        expect(replay.statusCode).toBe(first.statusCode);
        // 204 No Content answers no body, and so does its replay.
        if (status === 204) {
          expect(replay.body).toBe(first.body);
          expect(replay.headers['idempotent-replayed']).toBe('true');
          expect(await o.state()).toEqual(after);
          return;
        }
        const shown = first.json().payload.data;
        const stored = ex.shownOnce ? { ...shown } : shown;
        for (const field of ex.shownOnce ?? []) delete stored[field];
        expect(replay.json().payload.data).toEqual(stored);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(await o.state()).toEqual(after);
      });

      it(title(rules.conflict, 'the same key with another body is 409, nothing written'), async () => {
        const { url, body } = await request();
        const key = randomUUID();
        const first = await send(as(allowed, key), url, body);
        expect(first.statusCode, first.body).toBe(status);
        const after = await o.state();
        const other = await resolve(ex.otherBody ?? (() => withOtherWhy(body)));
        const res = await send(as(allowed, key), url, other);
        expect(res.statusCode).toBe(409);
        expect(res.json().payload.errors[0].code).toBe('idempotency_key_reused');
        expect(await o.state()).toEqual(after);
      });
    });
  }
}

/**
 * The codes each declared route lists in the OpenAPI document, per status: what a generated
 * client sees (`errors[].code` enum). Keyed by routeName.
 */
export function documentedErrorCodes(doc: {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const byStatus: Record<string, string[]> = {};
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        const schema = (res as { content?: Record<string, { schema?: unknown }> }).content?.['application/json']
          ?.schema as
          | {
              properties?: {
                payload?: { properties?: { errors?: { items?: { properties?: { code?: { enum?: string[] } } } } } };
              };
            }
          | undefined;
        const codes = schema?.properties?.payload?.properties?.errors?.items?.properties?.code?.enum;
        if (codes) byStatus[status] = codes;
      }
      out[`${method.toUpperCase()} ${path}`] = byStatus;
    }
  }
  return out;
}
