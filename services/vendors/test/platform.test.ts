import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EDITOR, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

describe('envelope', () => {
  it('PLT-001 PLT-002 PLT-004 a single record is at payload.data inside {header, payload} and nothing else; errors too', async () => {
    const f = await h.firm();
    const r = await h.call('GET', `/v1/vendors/${f.id}`, READER);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(Object.keys(r.body.payload)).toEqual(['data']);
    expect(r.body.header).toMatchObject({ service: 'vendors', api_version: 'v1' });
    expect(r.body.header.request_id).toBe(r.headers['x-request-id']);
    const missing = await h.call('GET', '/v1/vendors/00000000-0000-4000-8000-000000000000', READER);
    expect(Object.keys(missing.body).sort()).toEqual(['header', 'payload']);
    expect(missing.errors?.[0].code).toBe('vendor_not_found');
  });

  it('PLT-003 PLT-005 PLT-006 PLT-007 lists are arrays at payload.data with page-mode meta.pagination', async () => {
    const t = tag();
    for (let i = 0; i < 3; i++) await h.firm({ name: `${t} ${i}` });
    for (const url of ['/v1/vendors', '/v1/vendor-insurance']) {
      const r = await h.call('GET', url, READER);
      expect(Array.isArray(r.data)).toBe(true);
      expect(Object.keys(r.body.payload).sort()).toEqual(['data', 'meta']);
      expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50 });
    }
    const p1 = await h.call('GET', `/v1/vendors?q=${t}&pagination[pageSize]=2`, READER);
    const p2 = await h.call('GET', `/v1/vendors?q=${t}&pagination[pageSize]=2&pagination[page]=2`, READER);
    expect(p1.data).toHaveLength(2);
    expect(p2.data.map((f: { name: string }) => f.name)).toEqual([`${t} 2`]);
    expect((await h.call('GET', '/v1/vendors?pagination[pageSize]=201', READER)).status).toBe(422);
  });
});

describe('commands (POST /v1/vendors)', () => {
  // 401, 403, 400 without a key, replay and 409 of every command route: routes.test.ts (issue 15.4).

  it('PLT-008 PLT-009 a command succeeds with and without why {code, detail}', async () => {
    const body = () => ({ data: { name: `Why ${tag()}`, kind: 'supplier', discipline: 'other' } });
    expect((await h.call('POST', '/v1/vendors', EDITOR, body())).status).toBe(201);
    const why = { ...body(), why: { code: 'onboarding', detail: 'New supplier for the Elm St job' } };
    expect((await h.call('POST', '/v1/vendors', EDITOR, why)).status).toBe(201);
  });
});

describe('ops routes and OpenAPI', () => {
  it('discovery, liveness, readiness and interactive docs answer', async () => {
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
    expect((await h.call('GET', '/readyz', null)).status).toBe(200);
    const root = await h.call('GET', '/', null);
    expect(root.status).toBe(200);
    expect(root.data).toMatchObject({ service: 'vendors', links: { openapi_json: '/openapi.json' } });
    expect((await h.app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(200);
  });

  it('PLT-028 PLT-029 the OpenAPI spec is served as YAML and JSON; a real validator accepts it and every route has schemas', async () => {
    const json = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const yaml = await h.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(json.statusCode).toBe(200);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toContain('yaml');
    expect(parseYaml(yaml.body)).toEqual(json.json());
    const doc = json.json();
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(routesMissingSchemas(doc)).toEqual([]);
    // The enums are in the document.
    const text = JSON.stringify(doc);
    for (const v of ['service_provider', 'fire_protection', 'workers_compensation']) expect(text).toContain(v);
  });

  it('PLT-025 PLT-030 every API route is under /v1/ and appears in the service own OpenAPI document, and no other service route', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const paths = Object.keys(doc.paths);
    const api = paths.filter((p) => !['/', '/healthz', '/readyz'].includes(p));
    for (const p of api) expect(p.startsWith('/v1/')).toBe(true);
    expect(api.sort()).toEqual(
      [
        '/v1/vendors',
        '/v1/vendors/{id}',
        '/v1/vendors/{id}/status',
        '/v1/vendors/{id}/contacts',
        '/v1/vendors/{id}/contacts/{contact_id}/active',
        '/v1/vendors/{id}/insurance',
        '/v1/vendor-insurance',
        '/v1/vendor-portal/contact',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/v1/vendors']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/vendors/{id}/insurance']).sort()).toEqual(['get', 'post']);
  });

  it('PLT-032 PLT-033 dates and timestamps are ISO 8601 strings and identifiers are UUIDs', async () => {
    const f = await h.firm();
    const c = await h.contact(f.id);
    await h.certificate(f.id);
    const r = (await h.call('GET', `/v1/vendors/${f.id}`, READER)).data;
    expect(r.id).toMatch(UUID);
    expect(new Date(r.created_at).toISOString()).toBe(r.created_at);
    expect(r.contacts[0].id).toBe(c.id);
    expect(r.contacts[0].vendor_id).toMatch(UUID);
    const cert = r.insurance[0];
    expect(cert.id).toMatch(UUID);
    expect(cert.starts_on).toMatch(ISO_DATE);
    expect(cert.expires_on).toMatch(ISO_DATE);
    expect(new Date(cert.recorded_at).toISOString()).toBe(cert.recorded_at);
  });
});
