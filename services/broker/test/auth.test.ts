import type { App } from '@platform/kit';
import { injectJson, testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { brokerAuthenticator } from '../src/auth.ts';
import { brokerConfig, loadCatalog, providerEndpoints } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';
import { TokenSigner } from '../src/tokens.ts';
import { signingKeyPem } from './harness.ts';

/**
 * Spec 3, Authentication (Broker) through the service's own configuration: outside local
 * development (DEV_AUTH off) the dev header signs no one in, and a missing or bad token is 401.
 */
const SERVICE_TOKEN = 'broker-auth-test-service-token';
let app: App;
let drop: () => Promise<void>;

beforeAll(async () => {
  const config = brokerConfig({ SERVICE_TOKEN, DEV_AUTH: '0', OPENAI_API_KEY: 'k' });
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
});
afterAll(async () => {
  await app.close();
  await drop();
});

const get = (url: string, headers: Record<string, string>) => injectJson(app, 'GET', url, { headers });

describe('who may call the broker', () => {
  it('BRK-171 a missing or invalid token is 401', async () => {
    expect((await get('/v1/catalog', {})).status).toBe(401);
    expect((await get('/v1/catalog', { authorization: 'Bearer not-a-jwt' })).status).toBe(401);
    expect((await get('/v1/catalog', { 'x-platform-service-token': 'wrong' })).status).toBe(401);
  });

  it('BRK-190 outside local dev the X-Dev-Principal header authenticates no one', async () => {
    const r = await get('/v1/catalog', { 'x-dev-principal': 'admin@dev.local' });
    expect(r.status).toBe(401);
  });

  it('BRK-179 the service token may read the catalog (configured through SERVICE_TOKEN)', async () => {
    const r = await get('/v1/catalog', { 'x-platform-service-token': SERVICE_TOKEN });
    expect(r.status).toBe(200);
    const openai = r.data.providers.find((p: { id: string }) => p.id === 'openai');
    expect(openai.available).toBe(true);
  });
});
