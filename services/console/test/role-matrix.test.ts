import { isCommandRoute, routeName } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reaches } from '../src/domain/roles.ts';
import type { ConsoleRoute } from '../src/routes/deps.ts';
import { ROUTES } from '../src/routes/index.ts';
import { CALLERS, consoleHarness, type Harness, ROLE_OF } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // Nothing configured: no database, bus, cluster, flag server or log keys, so a caller the guard
  // admits meets a 4xx/501 of the route itself and nothing real is touched.
  h = await consoleHarness();
});
afterAll(() => h.close());

/** A concrete URL for a declared route: us/core, and a harmless value for every other parameter. */
const urlOf = (r: ConsoleRoute) =>
  r.url
    .replace(':region', 'us')
    .replace(':subscription', 'core')
    .replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
      name.endsWith('id') ? '0190f0e4-0000-7000-8000-000000000000' : 'x',
    );

async function call(r: ConsoleRoute, who: (typeof CALLERS)[number], query = '') {
  const command = r.method !== 'GET';
  // Reads sent as POST (the SQL browser) take no key; sending one does no harm.
  return h.app.inject({
    method: r.method,
    url: `${urlOf(r)}${query}`,
    headers: command ? h.writeHeaders(who) : h.headers(who),
    ...(command ? { payload: { data: {} } } : {}),
  });
}

describe('21 role matrix: every declared route x viewer, engineer, admin, both lists, no token, forged token', () => {
  it('21 OPS-037 OPS-038 OPS-039 OPS-040 OPS-042 OPS-043 OPS-044 each caller reaches exactly the routes at or below its role', async () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const r of ROUTES) {
      for (const who of CALLERS) {
        const res = await call(r, who);
        const code = res.json().payload?.errors?.[0]?.code;
        const held = ROLE_OF[who];
        const name = `${routeName(r)} as ${who}`;
        if (held === null) {
          // No token, or one not signed by the gateway's key set: 401 everywhere (OPS-037).
          if (res.statusCode !== 401 || code !== 'unauthenticated') wrong.push(`${name}: ${res.statusCode} ${code}`);
        } else if (!reaches(held, r.role)) {
          if (res.statusCode !== 403 || code !== 'insufficient_role') wrong.push(`${name}: ${res.statusCode} ${code}`);
        } else if (res.statusCode === 401 || code === 'insufficient_role') {
          wrong.push(`${name}: ${res.statusCode} ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('21 OPS-017 OPS-018 a token sent only as ?access_token admits no one outside the routes that declare it', async () => {
    const wrong: string[] = [];
    for (const r of ROUTES.filter((x) => !x.queryToken)) {
      const res = await h.app.inject({
        method: r.method,
        url: `${urlOf(r)}?access_token=${h.tokens.admin}`,
        headers: r.method !== 'GET' ? { 'idempotency-key': 'q1', 'content-type': 'application/json' } : {},
        ...(r.method !== 'GET' ? { payload: { data: {} } } : {}),
      });
      if (res.statusCode !== 401) wrong.push(`${routeName(r)}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    // The request lines name the routes, never the token sent in the query.
    expect(h.log.raw.some((l) => l.includes('access_token=[redacted]'))).toBe(true);
    expect(h.log.raw.filter((l) => l.includes(h.tokens.admin))).toEqual([]);
    for (const r of ROUTES.filter((x) => x.queryToken)) {
      const res = await h.app.inject({ method: r.method, url: `${urlOf(r)}?access_token=${h.tokens.forged}` });
      expect(res.statusCode, routeName(r)).toBe(401);
    }
  });

  it('21 OPS-037 a token for another application, or an unsigned one, is refused', async () => {
    const other = await h.tokenFor('admin@ops.test', 'vendors-app');
    for (const token of [other, 'not-a-jwt', '']) {
      const res = await h.app.inject({
        method: 'GET',
        url: '/v1/environments',
        headers: { 'cf-access-jwt-assertion': token },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('21 OPS-007 OPS-008 OPS-010 scoped routes sit under /v1/environments/{region}/{subscription}/; none has dev or prod as a segment', () => {
    const unscoped = new Set(['/v1/environments', '/v1/me', '/v1/logs/config', '/v1/logs/search', '/v1/logs/facets']);
    for (const r of ROUTES) {
      if (!unscoped.has(r.url)) expect(r.url, routeName(r)).toMatch(/^\/v1\/environments\/:region\/:subscription\//);
      for (const segment of r.url.split('/')) expect(['dev', 'prod'], routeName(r)).not.toContain(segment);
    }
  });

  it('21 OPS-016 the routes that take a query token (tail, terminal) are outside the OpenAPI document', () => {
    const paths = Object.keys((h.app as unknown as { swagger(): { paths: object } }).swagger().paths);
    for (const r of ROUTES.filter((x) => x.queryToken)) {
      expect(paths).not.toContain(r.url.replace(/:([A-Za-z_]+)/g, '{$1}'));
    }
  });

  it('21 OPS-003 a write without an Idempotency-Key is refused before anything runs', async () => {
    for (const r of ROUTES.filter(isCommandRoute)) {
      const res = await h.app.inject({
        method: r.method,
        url: urlOf(r),
        headers: { ...h.headers('admin'), 'content-type': 'application/json' },
        payload: { data: {} },
      });
      expect(res.statusCode, routeName(r)).toBe(400);
      expect(res.json().payload.errors[0].code).toBe('idempotency_key_required');
    }
  });
});
