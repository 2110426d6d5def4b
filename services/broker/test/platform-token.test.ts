import { randomUUID } from 'node:crypto';
import type { App } from '@platform/kit';
import { injectJson, testDatabase } from '@platform/kit/testing';
import { decodeJwt, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  AUDIENCE,
  identityHarness,
  SERVICE_TOKEN as PLATFORM_SERVICE_TOKEN,
  STAFF,
} from '../../identity/test/harness.ts';
import { serviceAccessToken, signedInAccessToken } from '../../identity/test/signed-in.ts';
import { signAccessToken } from '../../identity/test/tokens.ts';
import { buildApp } from '../src/app.ts';
import { brokerAuthenticator } from '../src/auth.ts';
import { brokerConfig, loadCatalog, providerEndpoints } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { TokenSigner } from '../src/tokens.ts';
import { type FakeProvider, startFakeProvider } from './fakes/providers.ts';
import { signingKeyPem } from './harness.ts';

/**
 * Issue 14.2: spec 2 (Authentication 1, SIGN-064) says the platform access token is valid at every
 * platform service; spec 3's broker callers name other proofs, and `Authorization: Bearer` here
 * carried only broker credential tokens. The broker now tells the two apart by issuer and takes a
 * person's platform token as it takes their gateway session: staff rights, their grants from
 * identity, spend billed to the email identity gives. The tokens are real: identity on a real
 * port, signed in through openid-client.
 */
const PROVIDER_KEY = 'sk-platform-token-test';
let id: Awaited<ReturnType<typeof identityHarness>>;
let provider: FakeProvider;
let app: App;
let drop: () => Promise<void>;
let staff: string;
let admin: string;

beforeAll(async () => {
  id = await identityHarness();
  provider = await startFakeProvider({ key: PROVIDER_KEY });
  const config = brokerConfig({
    AUTH_ISSUER: id.issuer,
    IDENTITY_URL: id.issuer,
    SERVICE_TOKEN: PLATFORM_SERVICE_TOKEN,
    GRANTS_CACHE_MS: '0',
    DEV_AUTH: '0',
    OPENAI_BASE_URL: provider.baseUrl,
    OPENAI_API_KEY: PROVIDER_KEY,
  });
  const catalog = loadCatalog(config);
  const signer = await TokenSigner.fromPem(await signingKeyPem(), config.BROKER_TOKEN_ISSUER);
  const database = await testDatabase<DB>('broker', MIGRATIONS);
  drop = () => database.drop();
  app = (await buildApp({
    database,
    authenticator: brokerAuthenticator(config, { signer }),
    catalog,
    endpoints: providerEndpoints(catalog, config.env),
    signer,
    logLevel: 'silent',
  })) as App;
  await app.ready();
  staff = await signedInAccessToken(id.issuer, STAFF);
  admin = await signedInAccessToken(id.issuer, ADMIN);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
  await provider?.close();
  await id?.close();
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (url: string, token: string) => injectJson(app, 'GET', url, { headers: auth(token) });
const command = (method: 'POST' | 'PUT', url: string, token: string, body: unknown) =>
  injectJson(app, method, url, { headers: auth(token), body, key: randomUUID() });

describe('14.2 the platform access token at the broker', () => {
  it('14.2 SIGN-064 SIGN-061 BRK-173 BRK-176 a person’s platform token relays, billed to the email identity gives for the token’s subject', async () => {
    const relayed = await app.inject({
      method: 'POST',
      url: '/v1/relay/chat/completions',
      headers: { ...auth(staff), 'content-type': 'application/json' },
      payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(relayed.statusCode, relayed.body).toBe(200);
    const fid = decodeJwt(staff).sub as string;
    const own = await get('/v1/usage?group=call', staff);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.data.map((c: { actor_fid: string }) => c.actor_fid)).toEqual([fid]);
    // The admin names the person by email: the broker's roster has it from identity.
    const byEmail = await get(`/v1/usage?group=call&actor=${encodeURIComponent(STAFF)}`, admin);
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(200);
    expect(byEmail.data.map((c: { actor_fid: string }) => c.actor_fid)).toEqual([fid]);
  });

  it('14.2 SIGN-064 BRK-181 BRK-182 a platform admin’s platform token manages budgets (grants from identity); a staff token is 403', async () => {
    await get('/v1/catalog', staff); // every caller joins the roster on first sight
    const put = await command('PUT', `/v1/budgets/${encodeURIComponent(STAFF)}`, admin, { data: { limit: 500 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const refused = await command('PUT', `/v1/budgets/${encodeURIComponent(STAFF)}`, staff, { data: { limit: 1 } });
    expect(refused.status).toBe(403);
    // The roster holds each person by the email identity gave: the admin reads everyone, staff themselves.
    const emails = async (token: string) =>
      ((await get('/v1/people?people_only=true', token)).data as { email: string }[]).map((p) => p.email).sort();
    expect(await emails(admin)).toEqual([ADMIN, STAFF]);
    expect(await emails(staff)).toEqual([STAFF]);
  });

  it('14.2 BRK-177 BRK-164 BRK-186 a person mints their own credential with the platform token; its broker token still acts as them', async () => {
    const minted = await command('POST', '/v1/credentials/mine', staff, { data: { name: 'from the web app' } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const { client_id, secret } = minted.data as { client_id: string; secret: string };
    const exchanged = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: {
        authorization: `Basic ${Buffer.from(`${client_id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(exchanged.statusCode).toBe(200);
    const credentialToken = exchanged.json().access_token as string;
    const own = await get('/v1/people?people_only=true', credentialToken);
    expect(own.status).toBe(200);
    expect(own.data.map((p: { fid: string; email: string }) => [p.fid, p.email])).toEqual([
      [decodeJwt(staff).sub, STAFF],
    ]);
  });

  it('14.2 BRK-171 BRK-178 a service’s platform token is 401 (services use the shared service token); so is a forged one claiming identity’s issuer', async () => {
    const service = await serviceAccessToken(id.issuer);
    const refused = await get('/v1/catalog', service);
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0].message).toContain('X-Platform-Service-Token');
    const key = id.keys.signing[0] as JWK;
    const fid = decodeJwt(staff).sub as string;
    const expired = await signAccessToken(key, { issuer: id.issuer, audience: AUDIENCE, sub: fid, iatOffset: -7200 });
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(id.issuer)
      .setAudience(AUDIENCE)
      .setSubject(fid)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-issuer-key-not-the-issuer-key'));
    for (const token of [expired, forged]) expect((await get('/v1/catalog', token)).status).toBe(401);
  });
});
