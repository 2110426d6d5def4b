import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateOpenApi } from '@platform/kit/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type FakeProvider, startFakeProvider } from '../../../services/broker/test/fakes/providers.ts';
import { launch } from '../src/launcher.ts';
import {
  EXCLUDED_FROM_MERGED_SPEC,
  PATHS_EXCLUDED_FROM_MERGED_SPEC,
  platformOpenApi,
  throwawayEnv,
} from '../src/openapi.ts';
import { SERVICES, type Started } from '../src/services.ts';

type Doc = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

const dataDir = mkdtempSync(join(tmpdir(), 'platform-openapi-test-'));
let platform: Awaited<ReturnType<typeof launch>>;
let merged: Doc;
/** The model provider the broker relays to (OPENAI_BASE_URL / OPENAI_API_KEY, as the README configures it). */
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider({ key: 'sk-local' });
  platform = await launch([], {
    ...process.env,
    ...throwawayEnv(dataDir),
    LOG_LEVEL: 'silent',
    OPENAI_BASE_URL: provider.baseUrl,
    OPENAI_API_KEY: 'sk-local',
  });
  merged = platformOpenApi(platform.started) as Doc;
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await provider?.close();
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

  it('BRK-195 the merged platform spec excludes the broker today', async () => {
    const broker = platform.started.find((s) => s.name === 'broker') as Started;
    const own = Object.keys((broker.openapi() as Doc).paths).filter((p) => p.startsWith('/v1/'));
    expect(own).toContain('/v1/relay/chat/completions');
    const servedBy = (p: string) =>
      (merged.paths[p]?.servers as { description: string }[] | undefined)?.[0]?.description;
    expect(Object.keys(merged.paths).filter((p) => servedBy(p) === 'broker')).toEqual([]);
    // /v1/people is identity's in the merged document, not the broker's roster.
    expect(own.filter((p) => merged.paths[p] && servedBy(p) !== 'identity')).toEqual([]);
  });

  it('the README broker flow: mint a credential as a dev principal, exchange it, relay with the OpenAI SDK', async () => {
    const broker = platform.started.find((s) => s.name === 'broker')?.url as string;
    const minted = await fetch(`${broker}/v1/credentials/mine`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-dev-principal': 'staff@dev.local',
        'idempotency-key': 'readme-broker-1',
      },
      body: JSON.stringify({ data: { name: 'my laptop' } }),
    });
    expect(minted.status).toBe(201);
    const { client_id, secret } = (
      (await minted.json()) as { payload: { data: { client_id: string; secret: string } } }
    ).payload.data;
    const exchanged = await fetch(`${broker}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client_id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(exchanged.status).toBe(200);
    const { access_token } = (await exchanged.json()) as { access_token: string };

    const client = new OpenAI({ baseURL: `${broker}/v1/relay`, apiKey: access_token });
    const reply = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello from the README' }],
    });
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(provider.requests.at(-1)?.headers.authorization).toBe('Bearer sk-local');

    const usage = await fetch(`${broker}/v1/usage?group=model`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    const rows = ((await usage.json()) as { payload: { data: { model: string; calls: number }[] } }).payload.data;
    expect(rows.find((r) => r.model === 'gpt-4o-mini')?.calls).toBe(1);
  });

  it('16 WS-347 the broker beside the workspace saves an API-credential relay call as an unfiled workspace conversation', async () => {
    const broker = platform.started.find((s) => s.name === 'broker')?.url as string;
    const workspace = platform.started.find((s) => s.name === 'workspace')?.url as string;
    const owner = 'staff@dev.local';
    const minted = await fetch(`${broker}/v1/credentials/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': owner, 'idempotency-key': 'saved-conv-1' },
      body: JSON.stringify({ data: { name: 'saved conversations' } }),
    });
    const { client_id, secret } = (
      (await minted.json()) as { payload: { data: { client_id: string; secret: string } } }
    ).payload.data;
    const exchanged = await fetch(`${broker}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client_id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const question = `Where is the saved conversation ${Date.now()}?`;
    const client = new OpenAI({ baseURL: `${broker}/v1/relay`, apiKey: access_token });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] });
    type Listed = { payload: { data: { id: string; project_id?: string }[] } };
    // Saving is after the reply: wait for it to land.
    let found: { id: string; project_id?: string } | undefined;
    for (let i = 0; i < 100 && !found; i++) {
      const list = (await (
        await fetch(`${workspace}/v1/conversations?filed=false`, { headers: { 'x-dev-principal': owner } })
      ).json()) as Listed;
      for (const c of list.payload.data) {
        const turns = (await (
          await fetch(`${workspace}/v1/conversations/${c.id}/turns`, { headers: { 'x-dev-principal': owner } })
        ).json()) as { payload: { data: { text: string }[] } };
        if (turns.payload.data.some((t) => t.text === question)) found = c;
      }
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toBeDefined();
    expect(found?.project_id).toBeUndefined();
  });

  it('16 WS-382 the workspace beside the documents service saves an uploaded output through it (DOCUMENTS_URL set by npm start)', async () => {
    const workspace = platform.started.find((s) => s.name === 'workspace')?.url as string;
    const owner = 'staff@dev.local';
    const call = async (path: string, data: object, key: string) => {
      const r = await fetch(`${workspace}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dev-principal': owner, 'idempotency-key': key },
        body: JSON.stringify({ data }),
      });
      return { status: r.status, body: (await r.json()) as { payload: { data: Record<string, unknown> } } };
    };
    const tag = `${Date.now()}`;
    const project = await call('/v1/projects', { name: `Uploads ${tag}` }, `up-project-${tag}`);
    expect(project.status).toBe(201);
    const projectId = project.body.payload.data.id as string;
    const conversation = await call(`/v1/projects/${projectId}/conversations`, { title: 'Plans' }, `up-conv-${tag}`);
    expect(conversation.status).toBe(201);
    const conversationId = conversation.body.payload.data.id as string;
    const up = await call(
      `/v1/conversations/${conversationId}/outputs/upload`,
      { slug: 'site-plan', filename: 'site-plan.txt', content_type: 'text/plain' },
      `up-upload-${tag}`,
    );
    expect(up.status).toBe(201);
    const upload = up.body.payload.data as { id: string; upload_url: string; upload_headers: Record<string, string> };
    const bytes = Buffer.from('The site plan, second draft.');
    const put = await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: bytes });
    expect(put.status).toBe(201);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const done = await call(
      `/v1/conversations/${conversationId}/outputs/finalize`,
      { upload_id: upload.id, sha256 },
      `up-final-${tag}`,
    );
    expect(done.status).toBe(201);
    expect(done.body.payload.data).toMatchObject({ slug: 'site-plan', sha256, version: 1, status: 'active' });
  });

  it('it holds every /v1 route of the other services, each path naming its own service (construction without its /v1/documents register)', async () => {
    for (const s of platform.started.filter((x) => !EXCLUDED_FROM_MERGED_SPEC.includes(x.name))) {
      const left = PATHS_EXCLUDED_FROM_MERGED_SPEC[s.name] ?? [];
      const own = Object.keys((s.openapi() as Doc).paths).filter(
        (p) => p.startsWith('/v1/') && !left.some((l) => p === l || p.startsWith(`${l}/`)),
      );
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
