import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError, openDatabase, openPglite, SharedPglite } from '@platform/kit';
import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildApp } from '../src/app.ts';
import { DEFAULT_MAX_UPLOAD_BYTES, documentsConfig } from '../src/config.ts';
import { startDocuments } from '../src/start.ts';
import type { DB } from '../src/store/db.ts';
import { type Harness, harness, putBlob, send, testCatalog } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** Every /v1 path documents serves. */
const V1_PATHS = [
  '/v1/documents',
  '/v1/documents/sas',
  '/v1/documents/readable',
  '/v1/documents/uploaded-count',
  '/v1/documents/{id}',
];

describe('discovery and ops routes', () => {
  it('PLT-015 GET / is an enveloped discovery document', async () => {
    const r = await h.call('GET', '/');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(r.body.header).toMatchObject({ service: 'documents', api_version: 'v1' });
    expect(r.data).toMatchObject({ service: 'documents' });
    expect(r.data.links).toMatchObject({
      api_docs: '/api-docs',
      openapi_json: '/openapi.json',
      openapi_yaml: '/openapi.yaml',
      healthz: '/healthz',
      readyz: '/readyz',
    });
  });

  it('PLT-016 GET /api-docs serves the interactive docs', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api-docs' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
  });

  it('PLT-017 PLT-018 the OpenAPI spec is served as YAML and JSON; a real validator accepts it; every route has schemas', async () => {
    const json = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const yaml = await h.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(json.statusCode).toBe(200);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toContain('yaml');
    const doc = json.json();
    expect(doc.openapi).toBe('3.0.3');
    expect(parseYaml(yaml.body)).toEqual(doc);
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(routesMissingSchemas(doc)).toEqual([]);
  });

  it('PLT-019 PLT-020 liveness and readiness answer 200 with the database up', async () => {
    expect((await h.call('GET', '/healthz')).status).toBe(200);
    const ready = await h.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.data).toEqual({ status: 'ready' });
  });

  it('PLT-021 readiness fails without the database; liveness still answers', async () => {
    const pg = new PGlite();
    await pg.waitReady;
    const database = await openDatabase<DB>({ schema: 'documents', pglite: new SharedPglite(pg) });
    const app = await buildApp({ database, storage: h.storage, logLevel: 'silent' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await pg.close();
    const r = await app.inject({ method: 'GET', url: '/readyz' });
    expect(r.statusCode).toBe(503);
    expect(r.json().payload.errors[0].code).toBe('database_unavailable');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });

  it('PLT-025 PLT-030 every API route is under /v1/ and in the service own OpenAPI document; no other service route is', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const api = Object.keys(doc.paths).filter((p) => !['/', '/healthz', '/readyz'].includes(p));
    expect(api.sort()).toEqual([...V1_PATHS].sort());
    for (const p of api) expect(p.startsWith('/v1/documents')).toBe(true);
    expect(Object.keys(doc.paths['/v1/documents/{id}']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/documents']).sort()).toEqual(['get', 'post']);
  });
});

describe('authorization and storage', () => {
  it('DOC-091 every route answers a request with no credentials (writes with an Idempotency-Key)', async () => {
    const minted = await h.sas({ filename: 'open.pdf', visibility: 'private', storage_account: 'local' });
    expect(minted.status).toBe(200);
    expect((await putBlob(minted.data.sas_url, 'open')).status).toBe(201);
    const { sas_url: _u, sas_expires_at: _e, ...location } = minted.data;
    const reg = await h.call('POST', '/v1/documents', {
      data: { ...location, content_type: 'text/plain', references: [], metadata: [] },
    });
    expect(reg.status).toBe(201);
    const id = reg.data.id;
    expect((await h.call('POST', `/v1/documents/${id}`, { data: { filename: 'still-open.pdf' } })).status).toBe(200);
    for (const url of [
      `/v1/documents/${id}`,
      '/v1/documents',
      '/v1/documents/readable?all=true',
      '/v1/documents/uploaded-count?all=true',
    ]) {
      const r = await h.call('GET', url);
      expect(r.status, url).toBe(200);
    }
  });

  it('DOC-092 with no storage configured, SAS minting and registration answer 503 and write nothing', async () => {
    const doc = await h.document();
    const u = await h.upload('x');
    const app = await buildApp({ database: h.database, storage: undefined, logLevel: 'silent' });
    const before = await h.state();
    const sas = await send(app, 'POST', '/v1/documents/sas', {
      filename: 'a.pdf',
      visibility: 'private',
      storage_account: 'local',
    });
    expect(sas.status).toBe(503);
    expect(sas.errors[0].code).toBe('storage_not_configured');
    const reg = await send(app, 'POST', '/v1/documents', { data: h.registration(u) });
    expect(reg.status).toBe(503);
    expect(reg.errors[0].code).toBe('storage_not_configured');
    expect((await send(app, 'GET', `/v1/documents/${doc.id}`)).status).toBe(503);
    expect(await h.state()).toEqual(before);
    // Lists need no storage.
    expect((await send(app, 'GET', '/v1/documents')).status).toBe(200);
    await app.close();
  });
});

describe('configuration and start-up', () => {
  const catalogJson = () => JSON.stringify(testCatalog(h.azurite.blobEndpoint));

  it('reads the catalog from DOCUMENTS_STORAGE_CATALOG or a file, with a 100 MiB default upload limit', () => {
    const fromText = documentsConfig({ DOCUMENTS_STORAGE_CATALOG: catalogJson() });
    expect(fromText.STORAGE_CATALOG?.accounts.map((a) => a.name)).toEqual(['local', 'local-multi', 'archive']);
    expect(fromText.DOCUMENTS_MAX_UPLOAD_BYTES).toBe(DEFAULT_MAX_UPLOAD_BYTES);
    expect(DEFAULT_MAX_UPLOAD_BYTES).toBe(100 * 1024 * 1024);
    expect(fromText.PORT_DOCUMENTS).toBe(4103);
    const dir = mkdtempSync(join(tmpdir(), 'documents-config-'));
    try {
      const file = join(dir, 'catalog.json');
      writeFileSync(file, catalogJson());
      const fromFile = documentsConfig({ DOCUMENTS_STORAGE_CATALOG_FILE: file, DOCUMENTS_MAX_UPLOAD_BYTES: '1024' });
      expect(fromFile.STORAGE_CATALOG).toEqual(fromText.STORAGE_CATALOG);
      expect(fromFile.DOCUMENTS_MAX_UPLOAD_BYTES).toBe(1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(documentsConfig({}).STORAGE_CATALOG).toBeUndefined();
  });

  it('a bad catalog stops start-up naming the account and the field; a key may come from key_env', () => {
    const account = {
      name: 'main',
      visibility: 'private',
      containers: ['documents'],
      sas_ttl_seconds: 600,
      endpoint: 'https://example.blob.core.windows.net',
      account_name: 'example',
      key_env: 'MAIN_STORAGE_KEY',
    };
    const bad =
      (accounts: unknown[], extra: Record<string, string> = {}) =>
      () =>
        documentsConfig({ DOCUMENTS_STORAGE_CATALOG: JSON.stringify({ accounts }), ...extra });
    const ok = bad([account], { MAIN_STORAGE_KEY: 'c2VjcmV0' })();
    expect(ok.STORAGE_CATALOG?.accounts[0]).toMatchObject({ name: 'main', key: 'c2VjcmV0' });
    const cases: [unknown[], RegExp][] = [
      [[account], /account "main" field key_env names MAIN_STORAGE_KEY, which is not set/],
      [[{ ...account, visibility: 'secret' }], /account "main" field visibility/],
      [[{ ...account, containers: [] }], /account "main" field containers/],
      [[{ ...account, containers: ['Bad_Name'] }], /account "main" field containers\/0/],
      [[{ ...account, sas_ttl_seconds: 0 }], /account "main" field sas_ttl_seconds/],
      [[{ ...account, colour: 'blue' }], /account "main" field colour has an unknown field/],
      [[{ ...account, key: 'k' }], /account "main" needs exactly one of key and key_env/],
      [[account, account], /account "main" is named twice/],
      [[], /field accounts/],
    ];
    for (const [accounts, message] of cases) {
      expect(bad(accounts, accounts.length === 2 ? { MAIN_STORAGE_KEY: 'k' } : {}), String(message)).toThrow(
        ConfigError,
      );
      expect(bad(accounts, accounts.length === 2 ? { MAIN_STORAGE_KEY: 'k' } : {})).toThrow(message);
    }
    expect(() => documentsConfig({ DOCUMENTS_STORAGE_CATALOG: '{not json' })).toThrow(/DOCUMENTS_STORAGE_CATALOG/);
    expect(() =>
      documentsConfig({ DOCUMENTS_STORAGE_CATALOG: catalogJson(), DOCUMENTS_STORAGE_CATALOG_FILE: '/x.json' }),
    ).toThrow(/not both/);
    expect(() => documentsConfig({ DOCUMENTS_STORAGE_CATALOG_FILE: '/nonexistent/catalog.json' })).toThrow(
      /DOCUMENTS_STORAGE_CATALOG_FILE cannot be read/,
    );
    expect(() => documentsConfig({ DOCUMENTS_MAX_UPLOAD_BYTES: '0' })).toThrow(/DOCUMENTS_MAX_UPLOAD_BYTES/);
  });

  it('DOC-092 a bad storage catalog stops start-up without ever echoing an account key', () => {
    const key = 'S3cr3tAccountKey+base64/AAAAAAAAAAAAAAAAAAAAA==';
    const account = {
      name: 'main',
      visibility: 'private',
      containers: ['documents'],
      sas_ttl_seconds: 600,
      endpoint: 'https://example.blob.core.windows.net',
      account_name: 'example',
      key,
    };
    const texts = [
      JSON.stringify([account]),
      JSON.stringify({ accounts: { 0: account } }),
      JSON.stringify({ accounts: [account], extra: { key } }),
      JSON.stringify({ accounts: [{ ...account, visibility: key }] }),
      JSON.stringify({ accounts: [{ ...account, endpoint: `not a url ${key}` }] }),
      JSON.stringify({ accounts: [{ ...account, key: 42 }] }),
      JSON.stringify({ accounts: [{ ...account, colour: key }] }),
      `{"accounts":[{"name":"main","key":"${key}" oops}]}`,
      `{"accounts":[{"name":"main","key": ${key}}]}`,
    ];
    for (const text of texts) {
      let message = '';
      try {
        documentsConfig({ DOCUMENTS_STORAGE_CATALOG: text });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message, text).toContain('DOCUMENTS_STORAGE_CATALOG');
      expect(message, text).not.toContain(key);
      expect(message, text).not.toContain(key.slice(0, 12));
    }
  });

  it('DOC-003 DOC-048 DOC-049 DOC-075 the OpenAPI document shows the limits and the enums', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schema = doc.paths['/v1/documents'].post.requestBody.content['application/json'].schema.properties.data;
    expect(schema.properties.filename.maxLength).toBe(255);
    expect(schema.properties.references.maxItems).toBe(100);
    expect(schema.properties.metadata.maxItems).toBe(100);
    expect(schema.properties.references.items.properties.ref_id.pattern).toBeDefined();
    expect(schema.properties.content_hash.pattern).toBe('^[0-9a-f]{64}$');
    expect(schema.additionalProperties).toBe(false);
    const list = doc.paths['/v1/documents'].get.parameters as { name: string; schema: Record<string, unknown> }[];
    const isExternal = list.find((p) => p.name === 'is_external')?.schema;
    expect(JSON.stringify(isExternal)).toContain('"true"');
    expect(JSON.stringify(isExternal)).toContain('"false"');
    expect(list.find((p) => p.name === 'pagination[pageSize]')?.schema.maximum).toBe(100);
    const sas = doc.paths['/v1/documents/sas'].post;
    expect(sas.requestBody.content['application/json'].schema.properties.ttl_seconds.description).toContain('24 hours');
    for (const status of ['409', '413', '422', '503'])
      expect(doc.paths['/v1/documents'].post.responses[status]).toBeDefined();
  });

  it('startDocuments listens on a real port with the configured catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'documents-start-'));
    const pglite = openPglite('memory://');
    const started = await startDocuments(
      documentsConfig({
        PORT_DOCUMENTS: '0',
        PLATFORM_DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        DOCUMENTS_STORAGE_CATALOG: catalogJson(),
      }),
      { pglite },
    );
    try {
      expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
      const minted = await fetch(`${started.url}/v1/documents/sas`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'started.pdf', visibility: 'private', storage_account: 'local' }),
      });
      expect(minted.status).toBe(200);
      const sasUrl = ((await minted.json()) as { payload: { data: { sas_url: string } } }).payload.data.sas_url;
      expect((await putBlob(sasUrl, randomUUID())).status).toBe(201);
    } finally {
      await started.close();
      await (await pglite).pg.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
