import { chain, DevPrincipals, devHeaderAuthenticator, registeredRoutes } from '@platform/kit';
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
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { type Harness, harness, OWNER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('API conventions', () => {
  it('WS-001 WS-002 every /v1 answer is {header, payload} with data; paged lists add meta.pagination; errors too', async () => {
    const p = await h.project();
    const one = await h.call('GET', `/v1/projects/${p.id}`, OWNER);
    expect(Object.keys(one.body).sort()).toEqual(['header', 'payload']);
    expect(Object.keys(one.body.payload)).toEqual(['data']);
    expect(one.body.header).toMatchObject({ service: 'workspace', api_version: 'v1' });
    const list = await h.call('GET', '/v1/projects', OWNER);
    expect(Array.isArray(list.data)).toBe(true);
    expect(list.meta.pagination).toMatchObject({ mode: 'page', page: 1 });
    const missing = await h.call('GET', '/v1/projects/00000000-0000-4000-8000-000000000000', OWNER);
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body).sort()).toEqual(['header', 'payload']);
    expect(missing.errors[0].code).toBe('project_not_found');
  });

  it('WS-004 a command body is {data} or {data, why}', async () => {
    const plain = await h.call('POST', '/v1/projects', OWNER, { data: { name: `Plain ${tag()}` } });
    expect(plain.status).toBe(201);
    const why = await h.call('POST', '/v1/projects', OWNER, {
      data: { name: `Why ${tag()}` },
      why: { code: 'kickoff', detail: 'New client' },
    });
    expect(why.status).toBe(201);
  });
});

describe('commands (POST /v1/projects)', () => {
  commandChecks('POST /v1/projects', {
    app: () => h.app,
    method: 'POST',
    url: '/v1/projects',
    body: () => ({ data: { name: `Checks ${tag()}` } }),
    otherBody: () => ({ data: { name: `Other ${tag()}` } }),
    allowed: OWNER,
    state: () => h.counts(),
    rules: { unauthenticated: 'WS-592', missingKey: 'WS-003', replay: 'WS-003', conflict: 'WS-003' },
    expectedStatus: 201,
  });
});

describe('ops routes and OpenAPI', () => {
  it('WS-005 WS-010 WS-011 discovery, liveness and readiness answer 200', async () => {
    const root = await h.call('GET', '/', null);
    expect(root.status).toBe(200);
    expect(root.data).toMatchObject({ service: 'workspace', links: { openapi_json: '/openapi.json' } });
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
    expect((await h.call('GET', '/readyz', null)).status).toBe(200);
  });

  it('WS-007 GET /api-docs is not served when SWAGGER_ON is off', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(404);
    expect((await h.call('GET', '/', null)).data.links.api_docs).toBeUndefined();
  });

  it('WS-006 GET /api-docs is served when SWAGGER_ON is on', async () => {
    const database = await testDatabase<DB>('workspace', MIGRATIONS);
    const app = await buildApp({
      database,
      authenticator: chain(devHeaderAuthenticator(DevPrincipals.load())),
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

  it('WS-008 WS-009 WS-601 the spec is served as YAML and JSON with the same content; a real validator accepts it', async () => {
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

  it('WS-599 WS-600 every API route is under /v1 and every registered route appears with its schemas in /openapi.json', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Parameters<typeof routesMissingSchemas>[0]['paths'];
    };
    for (const path of Object.keys(doc.paths)) {
      if (['/', '/healthz', '/readyz'].includes(path)) continue;
      expect(path.startsWith('/v1/'), path).toBe(true);
    }
    expect(routesMissingSchemas(doc)).toEqual([]);
    // Every /v1 route Fastify holds is in the document, with its method.
    const { checked, missing } = undocumentedRoutes(registeredRoutes(h.app), doc);
    expect(checked).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
