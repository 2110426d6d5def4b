import { randomUUID } from 'node:crypto';
import { type App, type Database, EMAIL_RE } from '@platform/kit';
import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { ROUTES } from '../src/routes/index.ts';
import type { DB } from '../src/store/db.ts';
import { EDITOR, fid, type Harness, harness, OWNER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // With the scheduler's token the internal job routes are registered, so the document lists them too.
  h = await harness({ app: { swaggerOn: true, schedulerToken: 'conventions-scheduler-token' } });
});
afterAll(async () => h.close_());

type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; [k: string]: unknown };
function properties(node: unknown, out: [string, Schema][] = []): [string, Schema][] {
  if (Array.isArray(node)) for (const n of node) properties(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Schema;
    if (o.properties) for (const [k, v] of Object.entries(o.properties)) out.push([k, v]);
    for (const v of Object.values(o)) properties(v, out);
  }
  return out;
}
const openapi = async () => (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
/** A FID: a person's UUID, service:<name>, or agent:<id>; never an email. */
const FID_RE = /^([0-9a-f-]{36}|service:[a-z][a-z0-9-]*|agent:[0-9a-f-]{36})$/i;

describe('18 agents conventions', () => {
  it('18 AGT-001 AGT-002 every JSON answer under /v1 is {header, payload}; data in payload, pages at payload.meta.pagination', async () => {
    const a = await h.agent();
    const answers = [
      await h.call('GET', '/v1/agents?pagination[pageSize]=1', OWNER),
      await h.call('GET', `/v1/agents/${a.id}`, OWNER),
      await h.call('GET', `/v1/agents/${a.id}/members`, OWNER),
      await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: { name: 'Enveloped' } }),
      await h.call('GET', `/v1/agents/${randomUUID()}`, OWNER),
      await h.call('GET', '/v1/agents?lifetime=forever', OWNER),
    ];
    for (const r of answers) expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(answers[0]?.body.header.service).toBe('agents');
    expect(answers[0]?.body.payload.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 1 });
    expect(answers[1]?.body.payload.data.id).toBe(a.id);
    expect(answers[4]?.status).toBe(404);
    expect(answers[5]?.status).toBe(422);
  });

  it('18 AGT-005 AGT-006 AGT-007 AGT-008 AGT-009 discovery, interactive docs, the OpenAPI document as YAML and JSON, and liveness answer 200', async () => {
    expect((await h.call('GET', '/', null)).status).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(200);
    const json = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const yaml = await h.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(json.statusCode).toBe(200);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toContain('yaml');
    expect(parseYaml(yaml.body)).toEqual(json.json());
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
  });

  it('18 AGT-010 /readyz answers 200 while the database answers a ping, 503 when it does not', async () => {
    expect((await h.call('GET', '/readyz', null)).status).toBe(200);
    const silent = Object.assign(Object.create(Object.getPrototypeOf(h.database)), h.database, {
      ping: async () => false,
    }) as Database<DB>;
    const app = (await buildApp({
      database: silent,
      authenticator: agentsAuthenticator(h.config),
      callers: callerPolicy(h.config),
      mailDomain: 'agents.dev.company.com',
      logLevel: 'silent',
    })) as App;
    try {
      const r = await app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
    } finally {
      await app.close();
    }
  });

  it('18 AGT-011 date fields are YYYY-MM-DD in the contract; instants are date-times', async () => {
    const props = properties(await openapi());
    // A field holding a day is format date (YYYY-MM-DD, checked by the validator); none is a free string.
    const days = props.filter(([k]) => /(^date|_date|_on)$/.test(k));
    expect(days.length).toBeGreaterThan(0);
    for (const [k, s] of days) {
      const formats = [s, ...((s.anyOf as Schema[]) ?? [])].map((v) => v.format).filter(Boolean);
      expect(`${k}: ${formats.join()}`).toBe(`${k}: date`);
    }
    const stamped = props.filter(([k]) => /_at$/.test(k));
    expect(stamped.length).toBeGreaterThan(3);
    const a = await h.agent();
    for (const k of ['created_at', 'updated_at']) expect(new Date(a[k] as string).toISOString()).toBe(a[k]);
  });

  it('18 AGT-012 every field named *_fid holds a FID, never an email', async () => {
    const fids = properties(await openapi()).filter(([k]) => k.endsWith('_fid'));
    expect(fids.length).toBeGreaterThan(1);
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
    const seen: string[] = [];
    const walk = (v: unknown, key = '') => {
      if (Array.isArray(v)) for (const x of v) walk(x, key);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
      else if (key.endsWith('_fid') && v !== null) seen.push(String(v));
    };
    walk((await h.call('GET', `/v1/agents/${a.id}`, OWNER)).data);
    walk((await h.call('GET', `/v1/agents/${a.id}/members`, OWNER)).data);
    walk((await h.call('GET', '/v1/agents', OWNER)).data);
    walk((await h.events()).map((e) => e.payload.data));
    expect(seen.length).toBeGreaterThan(3);
    for (const v of seen) {
      expect(EMAIL_RE.test(v)).toBe(false);
      expect(`${v}: ${FID_RE.test(v)}`).toBe(`${v}: true`);
    }
  });

  it('18 AGT-347 an Idempotency-Key reused on another method or path is 409 and nothing is written', async () => {
    const a = await h.agent();
    const b = await h.agent();
    const key = randomUUID();
    expect((await h.call('PUT', `/v1/agents/${a.id}`, OWNER, { data: { name: 'first' } }, key)).status).toBe(200);
    const before = await h.state();
    const otherPath = await h.call('PUT', `/v1/agents/${b.id}`, OWNER, { data: { name: 'first' } }, key);
    expect(otherPath.status).toBe(409);
    const otherMethod = await h.call('DELETE', `/v1/agents/${a.id}`, OWNER, undefined, key);
    expect(otherMethod.status).toBe(409);
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/agents/${b.id}`, OWNER)).data.name).toBe(b.name);
  });

  it('18 AGT-348 AGT-349 every route is under /v1 (but /, /api-docs, /openapi.*, the health checks and /internal/jobs/*) and in the generated OpenAPI document', async () => {
    const doc = await openapi();
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    // The scheduler's jobs take their parameters in the query and no body (DECISIONS item 8).
    const jobBody = (m: string) => m.startsWith('POST /internal/jobs/') && m.endsWith(': request');
    expect(routesMissingSchemas(doc).filter((m) => !jobBody(m))).toEqual([]);
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, object>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    for (const r of ROUTES) {
      expect(r.url.startsWith('/v1/') || r.url.startsWith('/internal/jobs/')).toBe(true);
      expect(documented.has(`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)).toBe(true);
    }
    for (const entry of documented) {
      const path = entry.split(' ')[1] as string;
      const outside = ['/', '/healthz', '/readyz'].includes(path) || path.startsWith('/internal/jobs/');
      if (!outside) expect(path.startsWith('/v1/')).toBe(true);
    }
  });
});
