import { randomUUID } from 'node:crypto';
import { type App, authenticatorFromConfig, type Principal, type PrincipalDirectory } from '@platform/kit';
import { injectJson, testDatabase } from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { workspaceConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/**
 * Spec 2, Authentication: platform bearer tokens of the identity service, the shared
 * SERVICE_TOKEN (and SERVICE_TOKEN_PREVIOUS) with X-Platform-On-Behalf-Of, and no dev header
 * outside local development.
 */
const ISSUER = 'http://127.0.0.1:4100';
const AUDIENCE = 'urn:platform:api';
const SERVICE_TOKEN = 'workspace-shared-service-token';
const PREVIOUS = 'workspace-previous-service-token';

const alice: Principal = { id: randomUUID(), kind: 'person', email: 'alice@corp.test', grants: [] };
const admin: Principal = {
  id: randomUUID(),
  kind: 'person',
  email: 'root@corp.test',
  grants: [{ role: 'platform_admin', scope_type: 'global', scope_id: '*' }],
};
const directory: PrincipalDirectory = {
  byId: async (id) => [alice, admin].find((p) => p.id === id) ?? null,
  byEmail: async (email) => [alice, admin].find((p) => p.email === email) ?? null,
};

let app: App;
let drop: () => Promise<void>;
let sign: (claims: { sub: string; aud?: string; typ?: string; exp?: number }) => Promise<string>;

beforeAll(async () => {
  const database = await testDatabase<DB>('workspace', MIGRATIONS);
  drop = () => database.drop();
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });
  sign = (c) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: c.typ ?? 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(c.aud ?? AUDIENCE)
      .setSubject(c.sub)
      .setIssuedAt(now)
      .setExpirationTime(c.exp ?? now + 3600)
      .sign(privateKey);
  };
  const config = workspaceConfig({
    AUTH_ISSUER: ISSUER,
    SERVICE_TOKEN,
    SERVICE_TOKEN_PREVIOUS: PREVIOUS,
    DEV_AUTH: '0',
  });
  app = (await buildApp({
    database,
    authenticator: authenticatorFromConfig(config, { jwks, directory }),
    logLevel: 'silent',
  })) as App;
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const create = (headers: Record<string, string>) =>
  injectJson(app, 'POST', '/v1/projects', {
    headers,
    body: { data: { name: `P ${randomUUID()}` } },
    key: randomUUID(),
  });

describe('authentication', () => {
  it('WS-592 a /v1 route called without sign-in is 401', async () => {
    for (const url of ['/v1/projects', `/v1/projects/${randomUUID()}`, `/v1/projects/${randomUUID()}/changes`]) {
      const r = await injectJson(app, 'GET', url, {});
      expect(r.status, url).toBe(401);
      expect(r.errors[0].code).toBe('unauthenticated');
    }
    const c = await create({});
    expect(c.status).toBe(401);
  });

  it("WS-030 a platform bearer token signs a person in: the project's owner is the token's sub", async () => {
    const r = await create(bearer(await sign({ sub: alice.id })));
    expect(r.status).toBe(201);
    expect(r.data.created_by).toBe(alice.id);
    const read = await injectJson(app, 'GET', `/v1/projects/${r.data.id}`, {
      headers: bearer(await sign({ sub: alice.id })),
    });
    expect(read.status).toBe(200);
  });

  it('WS-592 a token for another audience, an expired token or an ID token is 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const token of [
      await sign({ sub: alice.id, aud: 'urn:other' }),
      await sign({ sub: alice.id, exp: now - 60 }),
      await sign({ sub: alice.id, typ: 'JWT' }),
    ]) {
      const r = await injectJson(app, 'GET', '/v1/projects', { headers: bearer(token) });
      expect(r.status).toBe(401);
    }
  });

  it('WS-475 the shared SERVICE_TOKEN with X-Platform-On-Behalf-Of acts for that person', async () => {
    const r = await create({ 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-on-behalf-of': alice.id });
    expect(r.status).toBe(201);
    expect(r.data.created_by).toBe(alice.id);
  });

  it('WS-476 SERVICE_TOKEN_PREVIOUS is also accepted during rotation; any other token is 401', async () => {
    const r = await create({ 'x-platform-service-token': PREVIOUS, 'x-platform-on-behalf-of': alice.id });
    expect(r.status).toBe(201);
    const wrong = await create({ 'x-platform-service-token': 'nope', 'x-platform-on-behalf-of': alice.id });
    expect(wrong.status).toBe(401);
  });

  it('WS-026 a platform admin named by a bearer token reads a project without a membership', async () => {
    const p = await create(bearer(await sign({ sub: alice.id })));
    const r = await injectJson(app, 'GET', `/v1/projects/${p.data.id}`, {
      headers: bearer(await sign({ sub: admin.id })),
    });
    expect(r.status).toBe(200);
    const limited = await injectJson(app, 'GET', `/v1/projects/${p.data.id}`, {
      headers: { ...bearer(await sign({ sub: admin.id })), 'x-platform-as-member': 'true' },
    });
    expect(limited.status).toBe(404);
  });

  it('a dev header is not authentication outside local development (DEV_AUTH off)', async () => {
    const r = await injectJson(app, 'GET', '/v1/projects', { headers: { 'x-dev-principal': 'alice@corp.test' } });
    expect(r.status).toBe(401);
  });
});
