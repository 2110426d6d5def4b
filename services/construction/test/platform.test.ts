import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { construction } from '@platform/policies';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ app: { swaggerOn: true } });
});
afterAll(() => h.close_());

type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; [k: string]: unknown };

/** Every named property of every schema in the document, with its schema (anyOf/items/nested objects walked). */
function properties(node: unknown, out: [string, Schema][] = []): [string, Schema][] {
  if (Array.isArray(node)) for (const n of node) properties(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Schema;
    if (o.properties) for (const [k, v] of Object.entries(o.properties)) out.push([k, v]);
    for (const v of Object.values(o)) properties(v, out);
  }
  return out;
}
/** The non-null types a property may take (`anyOf: [X, null]` or `type: [X, 'null']`). */
const variants = (s: Schema): Schema[] => {
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  return (alts ?? [s]).filter((v) => v.type !== 'null');
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const openapi = async () => (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();

describe('17 construction conventions', () => {
  it('17 CON-001 CON-002 CON-013 reads and writes answer the {header, payload} envelope, data in payload, pages at payload.meta.pagination', async () => {
    const created = await h.call('POST', '/v1/development-projects', EDITOR, {
      data: { code: 'ENV-1', name: 'Envelope', kind: 'conversion' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object).sort()).toEqual(['header', 'payload']);
    const list = await h.call('GET', '/v1/development-projects?pagination[pageSize]=1', READER);
    const body = list.body as {
      header: { service: string };
      payload: { data: unknown[]; meta: { pagination: object } };
    };
    expect(body.header.service).toBe('construction');
    expect(Array.isArray(body.payload.data)).toBe(true);
    expect(body.payload.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 1 });
    const refused = await h.call('GET', '/v1/development-projects/not-a-uuid', READER);
    expect(Object.keys(refused.body as object).sort()).toEqual(['header', 'payload']);
  });

  it('17 CON-004 a command with {data} and no why is accepted and takes its fields from data; why is optional', async () => {
    const r = await h.call('POST', '/v1/development-projects', EDITOR, {
      data: { code: 'NOWHY-1', name: 'No why', kind: 'master_plan', region: 'north' },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ code: 'NOWHY-1', name: 'No why', kind: 'master_plan', region: 'north' });
    const withWhy = await h.call('POST', '/v1/development-projects', EDITOR, {
      data: { code: 'WHY-1', name: 'Why', kind: 'master_plan' },
      why: { code: 'intake', detail: 'Board approved the scheme' },
    });
    expect(withWhy.status).toBe(201);
  });

  it('17 CON-005 CON-006 CON-007 CON-008 CON-009 discovery, interactive docs, the OpenAPI document as YAML and JSON, and liveness answer 200', async () => {
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

  it('17 CON-010 date fields are YYYY-MM-DD in the contract and in answers', async () => {
    const dated = properties(await openapi()).filter(([k]) => /(_on|_date|_start|_finish|^week_of)$/.test(k));
    expect(dated.length).toBeGreaterThan(10);
    for (const [k, s] of dated) expect(`${k}: ${JSON.stringify(s).includes('"format":"date"')}`).toBe(`${k}: true`);
    const p = await h.project();
    await h.ok('PUT', `/v1/development-projects/${p.id}/stages/design/plan`, {
      planned_start: '2026-04-01',
      planned_finish: '2026-06-30',
    });
    const stages = (await h.call('GET', `/v1/development-projects/${p.id}/stages`, READER)).data as Record<
      string,
      unknown
    >[];
    const values = stages.flatMap((s) =>
      Object.entries(s).filter(([k, v]) => /(_start|_finish)$/.test(k) && v !== null),
    );
    expect(values.length).toBeGreaterThan(1);
    for (const [, v] of values) expect(v).toMatch(ISO_DATE);
  });

  it('17 CON-011 money fields are integer minor units in the contract', async () => {
    const money = properties(await openapi()).filter(([k]) => k.endsWith('_minor'));
    expect(money.length).toBeGreaterThan(5);
    for (const [k, s] of money) for (const v of variants(s)) expect(`${k}: ${v.type}`).toBe(`${k}: integer`);
  });

  it('17 CON-012 fields named *_fid hold principal ids: the creator and owner are FIDs, never emails', async () => {
    const fids = properties(await openapi()).filter(([k]) => k.endsWith('_fid'));
    expect(fids.length).toBeGreaterThan(3);
    for (const [k, s] of fids) for (const v of variants(s)) expect(`${k}: ${v.type}`).toBe(`${k}: string`);
    const p = await h.project({ owner_fid: 'fid-owner-1' });
    const r = (await h.call('GET', `/v1/development-projects/${p.id}`, READER)).data as Record<string, unknown>;
    for (const [k, v] of Object.entries(r)) if (k.endsWith('_fid') && v !== null) expect(String(v)).not.toContain('@');
    expect(r.owner_fid).toBe('fid-owner-1');
  });
});

describe('17 construction authentication and contract', () => {
  it('17 CON-180 locally, a request with no dev principal is 401 and nothing is written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/development-projects', null, {
      data: { code: 'X-1', name: 'X', kind: 'ground_up' },
    });
    expect(r.status).toBe(401);
    expect((await h.call('GET', '/v1/development-projects', null)).status).toBe(401);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-181 the action list has exactly the twenty-eight actions of the spec', () => {
    expect(Object.keys(construction.actions).sort()).toEqual(
      [
        'CreateProject',
        'ReadProject',
        'PlanProject',
        'AdvanceStage',
        'RecordProgress',
        'OpenDecision',
        'RecordDecision',
        'ReadDecisions',
        'RequestApproval',
        'RespondToApproval',
        'ReadApprovals',
        'RaiseRisk',
        'ManageRisk',
        'ReadRisks',
        'ManageVendors',
        'ReadVendors',
        'ManageTasks',
        'ReadTasks',
        'ManageDocuments',
        'PublishDocument',
        'ReadDocuments',
        'ManageVariations',
        'ReadVariations',
        'ManageBudget',
        'ReadBudget',
        'ReadReports',
        'AttachDocument',
        'ReadAttachments',
      ].sort(),
    );
  });

  it('17 CON-184 CON-185 every route is under /v1 (but /, /api-docs, /openapi.* and the health checks) and in the OpenAPI document, which a validator accepts', async () => {
    const doc = await openapi();
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(routesMissingSchemas(doc)).toEqual([]);
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, object>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    const { ROUTES } = await import('../src/routes/index.ts');
    for (const r of ROUTES) {
      expect(r.url.startsWith('/v1/')).toBe(true);
      expect(documented.has(`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)).toBe(true);
    }
    for (const entry of documented) {
      const path = entry.split(' ')[1] as string;
      if (!['/', '/healthz', '/readyz'].includes(path)) expect(path.startsWith('/v1/')).toBe(true);
    }
    expect(ROUTES.length).toBe([...documented].filter((e) => e.includes(' /v1/')).length);
  });
});
