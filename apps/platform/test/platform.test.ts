import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { launch } from '../src/launcher.ts';
import { platformOpenApi, throwawayEnv } from '../src/openapi.ts';
import { SERVICES, type Started } from '../src/services.ts';

type Doc = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

const dataDir = mkdtempSync(join(tmpdir(), 'platform-openapi-test-'));
let platform: Awaited<ReturnType<typeof launch>>;
let merged: Doc;

beforeAll(async () => {
  platform = await launch([], { ...process.env, ...throwawayEnv(dataDir), LOG_LEVEL: 'silent' });
  merged = platformOpenApi(platform.started) as Doc;
}, 120_000);
afterAll(async () => {
  await platform?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded platform (npm start)', () => {
  const url = (name: string) => platform.started.find((s) => s.name === name)?.url as string;

  it('documents uploads work on a fresh machine: Azurite runs and the local catalog points at it', async () => {
    const sas = await fetch(`${url('documents')}/v1/documents/sas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'plan.pdf', visibility: 'private', storage_account: 'local' }),
    });
    expect(sas.status).toBe(200);
    const minted = (
      (await sas.json()) as { payload: { data: { sas_url: string; blob_name: string; container: string } } }
    ).payload.data;
    expect(minted.container).toBe('documents');
    const bytes = Buffer.from('%PDF-1.4 embedded upload');
    const put = await fetch(minted.sas_url, {
      method: 'PUT',
      headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/pdf' },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const created = await fetch(`${url('documents')}/v1/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'embedded-upload-1' },
      body: JSON.stringify({
        data: {
          filename: 'plan.pdf',
          visibility: 'private',
          storage_account: 'local',
          container: 'documents',
          blob_name: minted.blob_name,
          content_type: 'application/pdf',
          references: [],
          metadata: [],
        },
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { payload: { data: { id: string } } }).payload.data.id;
    const read = (await (await fetch(`${url('documents')}/v1/documents/${id}`)).json()) as {
      payload: { data: { sas_url: string; byte_size: number } };
    };
    expect(read.payload.data.byte_size).toBe(bytes.length);
    expect(Buffer.from(await (await fetch(read.payload.data.sas_url)).arrayBuffer())).toEqual(bytes);
  });

  it('vendors trusts the local access-gateway stand-in and the dev admin may change', async () => {
    const headers = { 'content-type': 'application/json', 'x-dev-principal': 'admin@dev.local' };
    const token = await fetch(`${url('identity')}/v1/gateway/token?audience=vendors-app`, { headers });
    expect(token.status).toBe(200);
    const gateway = ((await token.json()) as { payload: { data: { token: string } } }).payload.data.token;
    const list = await fetch(`${url('vendors')}/v1/vendors`, { headers: { 'cf-access-jwt-assertion': gateway } });
    expect(list.status).toBe(200);
  });
});

describe('merged platform OpenAPI document', () => {
  it('PLT-031 the merged platform spec excludes documents today', async () => {
    const documents = platform.started.find((s) => s.name === 'documents') as Started;
    expect(Object.keys((documents.openapi() as Doc).paths)).toContain('/v1/documents');
    expect(Object.keys(merged.paths).filter((p) => p.startsWith('/v1/documents'))).toEqual([]);
  });

  it('it holds every /v1 route of the other services, each path naming its own service', async () => {
    for (const s of platform.started.filter((x) => x.name !== 'documents')) {
      const own = Object.keys((s.openapi() as Doc).paths).filter((p) => p.startsWith('/v1/'));
      expect(own.length).toBeGreaterThan(0);
      for (const p of own) {
        expect(merged.paths[p]?.servers, p).toEqual([
          { url: `http://127.0.0.1:${SERVICES[s.name]?.port}`, description: s.name },
        ]);
      }
    }
    expect(merged.paths['/v1/vendors']).toBeDefined();
    expect(merged.paths['/v1/accounts']).toBeDefined();
    expect(Object.keys(merged.paths).every((p) => p.startsWith('/v1/'))).toBe(true);
  });

  it('is a valid OpenAPI document whose references all resolve', async () => {
    const res = await validateOpenApi(merged);
    expect(res.errors).toBeFalsy();
    expect(res.valid).toBe(true);
  });

  it('docs/openapi/platform.yaml is current (regenerate with npm run openapi)', () => {
    const published = parse(
      readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi', 'platform.yaml'), 'utf8'),
    );
    expect(published).toEqual(JSON.parse(JSON.stringify(merged)));
  });
});
