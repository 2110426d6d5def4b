import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClientRegistrationError } from '../src/clients/definition.ts';
import { identityConfig } from '../src/config.ts';
import { startIdentity } from '../src/start.ts';

const AUD = 'urn:platform:api';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const person = (over: Record<string, unknown> = {}) => ({
  client_id: 'web-app',
  audience: [AUD],
  grant_types: ['authorization_code'],
  response_types: ['code'],
  scope: 'openid',
  token_endpoint_auth_method: 'none',
  redirect_uris: ['https://app.example.com/callback'],
  post_logout_redirect_uris: ['https://app.example.com/'],
  metadata: { first_party: true },
  ...over,
});
const service = (over: Record<string, unknown> = {}) => ({
  client_id: 'payments',
  audience: [AUD],
  grant_types: ['client_credentials'],
  response_types: ['code'],
  scope: 'openid',
  token_endpoint_auth_method: 'client_secret_basic',
  redirect_uris: [],
  metadata: { first_party: true },
  ...over,
});

/** One broken definition per registration rule: [rule, environment, client]. */
const BROKEN: [string, string, Record<string, unknown>][] = [
  ['SIGN-004', 'local', person({ redirect_uris: ['http://localhost:5173/callback'] })],
  ['SIGN-032', 'local', person({ client_id: 'Web_App' })],
  ['SIGN-033', 'local', person({ client_id: '0f8fad5b-d9cb-469f-a165-70867728950e' })],
  ['SIGN-034', 'local', person({ audience: [AUD, 'urn:other:api'] })],
  ['SIGN-035', 'local', person({ grant_types: ['implicit'] })],
  ['SIGN-036', 'local', service({ grant_types: ['client_credentials', 'password'] })],
  ['SIGN-037', 'local', person({ response_types: ['code', 'id_token'] })],
  ['SIGN-038', 'local', person({ scope: 'openid profile' })],
  ['SIGN-039', 'local', person({ scope: 'openid offline_access' })],
  ['SIGN-040', 'local', person({ grant_types: ['authorization_code', 'refresh_token'] })],
  ['SIGN-041', 'local', person({ token_endpoint_auth_method: 'client_secret_basic' })],
  ['SIGN-042', 'local', person({ redirect_uris: ['https://*.example.com/callback'] })],
  ['SIGN-043', 'local', person({ post_logout_redirect_uris: ['https://app.example.com/*'] })],
  ['SIGN-044', 'local', person({ redirect_uris: ['http://127.0.0.1/callback'] })],
  ['SIGN-045', 'prod', person({ redirect_uris: ['http://127.0.0.1:5173/callback'] })],
  ['SIGN-046', 'local', person({ metadata: { first_party: false } })],
];

function clientsDir(environment: string, clients: unknown[]) {
  const dir = mkdtempSync(join(tmpdir(), 'identity-start-'));
  dirs.push(dir);
  writeFileSync(join(dir, `${environment}.json`), JSON.stringify({ environment, clients }));
  return dir;
}

describe('start-up refuses a client definition file that breaks a registration rule', () => {
  it.each(BROKEN)('%s a bad definition stops start-up naming the client and the rule', async (rule, env, client) => {
    const dir = clientsDir(env, [client]);
    const config = identityConfig({
      CLIENTS_DIR: dir,
      CLIENTS_ENV: env,
      PLATFORM_DATA_DIR: join(dir, 'data'),
      PORT_IDENTITY: '0',
    });
    const started = startIdentity(config, {}, {});
    await expect(started).rejects.toBeInstanceOf(ClientRegistrationError);
    await expect(started).rejects.toThrow(rule);
    await expect(started).rejects.toThrow(`"${client.client_id}"`);
  });

  it('SIGN-031 start-up refuses two definition files for one environment', async () => {
    const dir = clientsDir('local', [person()]);
    writeFileSync(join(dir, 'local.copy.json'), JSON.stringify({ environment: 'local', clients: [person()] }));
    const started = startIdentity(identityConfig({ CLIENTS_DIR: dir, PLATFORM_DATA_DIR: join(dir, 'data') }), {}, {});
    await expect(started).rejects.toThrow('SIGN-031');
  });

  it('a service client without its secret outside local mode stops start-up naming the variable', async () => {
    const dir = clientsDir('prod', [service()]);
    const started = startIdentity(
      identityConfig({ CLIENTS_DIR: dir, CLIENTS_ENV: 'prod', PLATFORM_DATA_DIR: join(dir, 'data') }),
      {},
      {},
    );
    await expect(started).rejects.toThrow('CLIENT_SECRET_PAYMENTS');
  });
});
