import { PGlite } from '@electric-sql/pglite';
import {
  chain,
  DevPrincipals,
  devHeaderAuthenticator,
  openDatabase,
  registeredRoutes,
  SharedPglite,
} from '@platform/kit';
import {
  commandChecks,
  routesMissingSchemas,
  testDatabase,
  undocumentedRoutes,
  validateOpenApi,
} from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildApp } from '../src/app.ts';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { ADMIN, endpointsAt, type Harness, harness, STAFF } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

const usageReport = (tokens: number) => ({
  data: { provider: 'openai', model: 'gpt-4o-mini', input_tokens: tokens, output_tokens: 10 },
});

/** Every key of a JSON value whose name ends in `suffix`, with its value, anywhere in the tree. */
function fieldsEndingIn(v: unknown, suffix: string, out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(v)) for (const x of v) fieldsEndingIn(x, suffix, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k.endsWith(suffix)) out.push([k, x]);
      fieldsEndingIn(x, suffix, out);
    }
  }
  return out;
}

describe('API conventions', () => {
  it('BRK-001 BRK-002 every /v1 JSON answer is {header, payload} with data; lists add meta.pagination; errors too', async () => {
    const one = await h.call('GET', '/v1/catalog', STAFF);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(['header', 'payload']);
    expect(Object.keys(one.body.payload)).toEqual(['data']);
    expect(one.body.header).toMatchObject({ service: 'broker' });
    const list = await h.call('GET', '/v1/people', ADMIN);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.data)).toBe(true);
    expect(list.meta.pagination).toBeDefined();
    const refused = await h.call('GET', '/v1/catalog/model?provider=nowhere&wire_id=x', STAFF);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body).sort()).toEqual(['header', 'payload']);
    expect(refused.errors[0].code).toBe('unknown_provider');
  });

  it('BRK-004 a command body {data} without why is accepted and takes its fields from data', async () => {
    const r = await h.call('POST', '/v1/usage', STAFF, usageReport(100));
    expect(r.status).toBeLessThan(300);
    const why = await h.call('POST', '/v1/usage', STAFF, { ...usageReport(100), why: { code: 'backfill' } });
    expect(why.status).toBeLessThan(300);
  });

  it('BRK-011 BRK-012 BRK-013 dates are YYYY-MM-DD, money fields are integers, *_fid fields hold FIDs', async () => {
    await h.call('POST', '/v1/usage', STAFF, usageReport(1234));
    const usage = await h.call('GET', '/v1/usage?group=day', STAFF);
    expect(usage.status).toBe(200);
    const days = usage.data.map((r: { day: string }) => r.day);
    expect(days.length).toBeGreaterThan(0);
    for (const d of days) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const budgets = await h.call('GET', '/v1/budgets', ADMIN);
    const money = [
      ...fieldsEndingIn(usage.data, '_micros'),
      ...fieldsEndingIn(budgets.data, '_micros'),
      ...fieldsEndingIn(budgets.data, 'spend'),
      ...fieldsEndingIn(budgets.data, 'limit'),
    ];
    expect(money.length).toBeGreaterThan(0);
    for (const [k, v] of money) expect(Number.isInteger(v), `${k}=${v}`).toBe(true);
    const fids = fieldsEndingIn(budgets.data, '_fid').filter(([, v]) => v !== null);
    expect(fids.length).toBeGreaterThan(0);
    for (const [k, v] of fids) expect(String(v), k).toMatch(/^[0-9a-f-]{36}$|^service:[a-z][a-z0-9-]*$/);
  });
});

describe('commands (POST /v1/usage)', () => {
  commandChecks('POST /v1/usage', {
    app: () => h.app,
    method: 'POST',
    url: '/v1/usage',
    body: usageReport(7),
    otherBody: usageReport(8),
    allowed: STAFF,
    state: () => h.counts(),
    rules: { unauthenticated: 'BRK-171', missingKey: 'BRK-003', replay: 'BRK-003', conflict: 'BRK-003' },
    expectedStatus: 201,
  });
});

describe('ops routes and OpenAPI', () => {
  it('BRK-005 BRK-009 BRK-010 discovery, liveness and readiness answer 200', async () => {
    const root = await h.call('GET', '/', null);
    expect(root.status).toBe(200);
    expect(root.data).toMatchObject({ service: 'broker', links: { openapi_json: '/openapi.json' } });
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
    expect((await h.call('GET', '/readyz', null)).status).toBe(200);
  });

  it('BRK-010 readiness is a database ping: it fails without the database', async () => {
    const pg = new PGlite();
    await pg.waitReady;
    const database = await openDatabase<DB>({ schema: 'broker', pglite: new SharedPglite(pg) });
    const app = await buildApp({
      database,
      authenticator: chain(),
      catalog: BUILT_IN_CATALOG,
      endpoints: endpointsAt(BUILT_IN_CATALOG, 'http://127.0.0.1:9/v1'),
      logLevel: 'silent',
    });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await pg.close();
    const r = await app.inject({ method: 'GET', url: '/readyz' });
    expect(r.statusCode).toBe(503);
    expect(r.json().payload.errors[0].code).toBe('database_unavailable');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });

  it('BRK-006 GET /api-docs answers 200 with SWAGGER_ON (and is not served without it)', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(404);
    const database = await testDatabase<DB>('broker', MIGRATIONS);
    const app = await buildApp({
      database,
      authenticator: chain(devHeaderAuthenticator(DevPrincipals.load())),
      catalog: BUILT_IN_CATALOG,
      endpoints: endpointsAt(BUILT_IN_CATALOG, 'http://127.0.0.1:9/v1'),
      logLevel: 'silent',
      swaggerOn: true,
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('BRK-007 BRK-008 the spec is served as YAML and JSON with the same content; a real validator accepts it', async () => {
    const json = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const yaml = await h.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(json.statusCode).toBe(200);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toContain('yaml');
    expect(parseYaml(yaml.body)).toEqual(json.json());
    const result = await validateOpenApi(json.json());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('BRK-193 BRK-194 every route is under /v1 (but the ops routes and the JWKS) and every registered route is in /openapi.json with its schemas', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Parameters<typeof routesMissingSchemas>[0]['paths'];
    };
    for (const path of Object.keys(doc.paths)) {
      if (['/', '/healthz', '/readyz', '/.well-known/jwks.json'].includes(path)) continue;
      expect(path.startsWith('/v1/'), path).toBe(true);
    }
    expect(routesMissingSchemas(doc)).toEqual([]);
    const { checked, missing } = undocumentedRoutes(
      registeredRoutes(h.app),
      doc,
      (url) => url.startsWith('/v1/') || url === '/.well-known/jwks.json',
    );
    expect(checked).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
