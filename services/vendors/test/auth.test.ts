import { ConfigError } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { callerPolicy, vendorsAuthenticator } from '../src/auth.ts';
import { vendorsConfig } from '../src/config.ts';
import { startVendors } from '../src/start.ts';
import {
  type As,
  EDITOR,
  GATEWAY_ISSUER,
  gatewayKeys,
  type Harness,
  harness,
  INTERNAL_AUD,
  PORTAL_AUD,
  PREVIOUS_SERVICE_TOKEN,
  READER,
  SERVICE_TOKEN,
  tag,
  testEnv,
} from './harness.ts';

let h: Harness;
let firm: { id: string };
let contact: { id: string; email: string };
beforeAll(async () => {
  h = await harness();
  firm = await h.firm();
  contact = await h.contact(firm.id);
  await h.certificate(firm.id);
});
afterAll(async () => h.close_());

const reads = () => [
  '/v1/vendors',
  `/v1/vendors?ids=${firm.id}&status=active`,
  `/v1/vendors/${firm.id}`,
  `/v1/vendors/${firm.id}/insurance`,
  '/v1/vendor-insurance',
  '/v1/vendor-insurance?coverage=general_liability&status=current',
];
/** Every command route, each with a body that succeeds for an editor. */
const commands = (): [string, () => unknown][] => [
  ['/v1/vendors', () => ({ data: { name: `Auth ${tag()}`, kind: 'consultant', discipline: 'legal' } })],
  [`/v1/vendors/${firm.id}/status`, () => ({ data: { status: 'active' } })],
  [
    `/v1/vendors/${firm.id}/contacts`,
    () => ({ data: { email: `auth.${tag()}@firm.test`, given_name: 'Au', family_name: 'Th' } }),
  ],
  [`/v1/vendors/${firm.id}/contacts/${contact.id}/active`, () => ({ data: { active: true } })],
  [
    `/v1/vendors/${firm.id}/insurance`,
    () => ({
      data: { coverage: 'umbrella', policy_number: `A-${tag()}`, starts_on: '2025-01-01', expires_on: '2025-12-31' },
    }),
  ],
];

/** Every command is refused with `status` for `as`, and nothing at all is written. */
async function commandsRefused(as: As, status: number, code?: string) {
  const before = await h.state();
  for (const [url, body] of commands()) {
    const r = await h.call('POST', url, as, body());
    expect(r.status, `${JSON.stringify(as)} POST ${url}`).toBe(status);
    if (code) expect(r.errors?.[0].code).toBe(code);
  }
  expect(await h.state()).toEqual(before);
}

describe('callers', () => {
  it('VEN-044 a request with no accepted proof is 401 on every route, and commands write nothing', async () => {
    for (const url of [...reads(), '/v1/vendor-portal/contact']) {
      const r = await h.call('GET', url, null);
      expect(r.status, url).toBe(401);
      expect(r.errors?.[0].code).toBe('unauthenticated');
    }
    await commandsRefused(null, 401, 'unauthenticated');
  });

  it('VEN-044 gateway tokens that do not verify are 401: another key, expired, another issuer, another application, no email', async () => {
    const stranger = await gatewayKeys();
    const past = Math.floor(Date.now() / 1000) - 3600;
    const bad = [
      await stranger.sign({ email: EDITOR, aud: INTERNAL_AUD }),
      await h.keys.sign({ email: EDITOR, aud: INTERNAL_AUD, exp: past }),
      await h.keys.sign({ email: EDITOR, aud: INTERNAL_AUD, iss: 'https://other-gateway.test' }),
      await h.keys.sign({ email: EDITOR, aud: 'construction-app' }),
      await h.keys.sign({ aud: INTERNAL_AUD }),
      'not.a.jwt',
    ];
    for (const token of bad) {
      const r = await h.call('GET', '/v1/vendors', { headers: { 'cf-access-jwt-assertion': token } });
      expect(r.status).toBe(401);
      const c = await h.call(
        'POST',
        '/v1/vendors',
        { headers: { 'cf-access-jwt-assertion': token } },
        commands()[0][1](),
      );
      expect(c.status).toBe(401);
    }
  });

  it('VEN-045 an employee with an internal-application token reads everything', async () => {
    for (const url of reads()) {
      const r = await h.call('GET', url, READER);
      expect(r.status, url).toBe(200);
    }
    expect((await h.call('GET', `/v1/vendors/${firm.id}`, READER)).data.id).toBe(firm.id);
  });

  it('VEN-046 an employee listed in VENDORS_EDITORS (compared ignoring case) may run every command', async () => {
    for (const [url, body] of commands()) {
      const r = await h.call('POST', url, EDITOR.toUpperCase(), body());
      expect([200, 201], `POST ${url}: ${JSON.stringify(r.body)}`).toContain(r.status);
    }
    const second = await h.call('POST', commands()[0][0], 'second.editor@corp.test', commands()[0][1]());
    expect(second.status).toBe(201);
  });

  it('VEN-047 an employee not in VENDORS_EDITORS gets 403 on every command and nothing is written', async () => {
    await commandsRefused(READER, 403, 'forbidden');
  });

  it('VEN-046 VEN-047 with DEV_AUTH=1 a dev-header person is an employee: reads, and changes only if an editor', async () => {
    for (const url of reads()) expect((await h.call('GET', url, { dev: READER })).status, url).toBe(200);
    await commandsRefused({ dev: READER }, 403, 'forbidden');
    const r = await h.call('POST', commands()[0][0], { dev: EDITOR }, commands()[0][1]());
    expect(r.status).toBe(201);
  });

  it('VEN-048 VEN-049 a vendor-portal token is 401 on every route outside /v1/vendor-portal/, and writes nothing', async () => {
    for (const as of [{ portal: contact.email }, { portal: EDITOR }]) {
      for (const url of reads()) {
        const r = await h.call('GET', url, as);
        expect(r.status, url).toBe(401);
        expect(r.errors?.[0].message).toContain('/v1/vendor-portal/');
      }
      await commandsRefused(as, 401, 'unauthenticated');
    }
    expect((await h.call('GET', '/v1/vendor-portal/contact', { portal: contact.email })).status).toBe(200);
  });

  it('VEN-050 a platform service with VENDORS_SERVICE_TOKEN (or the previous one) on behalf of a person reads everything', async () => {
    for (const url of reads()) {
      expect((await h.call('GET', url, { service: READER })).status, url).toBe(200);
      expect((await h.call('GET', url, { service: READER, token: PREVIOUS_SERVICE_TOKEN })).status, url).toBe(200);
    }
  });

  it('VEN-051 a platform service never changes: every command with the service token is 403, even for an editor, nothing written', async () => {
    await commandsRefused({ service: EDITOR }, 403, 'forbidden');
    await commandsRefused({ service: READER, token: PREVIOUS_SERVICE_TOKEN }, 403, 'forbidden');
  });

  it('VEN-052 a service token that does not match VENDORS_SERVICE_TOKEN is 401 everywhere', async () => {
    const wrong = { service: EDITOR, token: `${SERVICE_TOKEN}x` };
    for (const url of [...reads(), '/v1/vendor-portal/contact']) {
      const r = await h.call('GET', url, wrong);
      expect(r.status, url).toBe(401);
      expect(r.errors?.[0].code).toBe('unauthenticated');
    }
    await commandsRefused(wrong, 401, 'unauthenticated');
  });

  it('VEN-050 VEN-052 the service token without X-Platform-On-Behalf-Of is 401 saying the header is required', async () => {
    for (const url of [...reads(), '/v1/vendor-portal/contact']) {
      const r = await h.call('GET', url, { headers: { 'x-platform-service-token': SERVICE_TOKEN } });
      expect(r.status, url).toBe(401);
      expect(r.errors?.[0].message).toContain('X-Platform-On-Behalf-Of');
    }
    // A dev-header service principal names no person either.
    expect((await h.call('GET', '/v1/vendors', { dev: 'service:construction' })).status).toBe(401);
  });

  it('VEN-044 without DEV_AUTH the dev header is no proof', async () => {
    const config = vendorsConfig(testEnv({ DEV_AUTH: undefined }));
    const app = await buildApp({
      database: h.database,
      authenticator: vendorsAuthenticator(config, { gatewayJwks: h.keys.jwks }),
      callers: callerPolicy(config),
      logLevel: 'silent',
    });
    try {
      const dev = await app.inject({ method: 'GET', url: '/v1/vendors', headers: { 'x-dev-principal': EDITOR } });
      expect(dev.statusCode).toBe(401);
      const portal = await app.inject({
        method: 'GET',
        url: '/v1/vendor-portal/contact',
        headers: { 'x-dev-principal': contact.email },
      });
      expect(portal.statusCode).toBe(401);
      const gw = await app.inject({
        method: 'GET',
        url: '/v1/vendors',
        headers: { 'cf-access-jwt-assertion': await h.token(READER, INTERNAL_AUD) },
      });
      expect(gw.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('configuration', () => {
  const configError = (env: Record<string, string | undefined>, opts = {}) => {
    try {
      vendorsAuthenticator(vendorsConfig(env), opts);
    } catch (e) {
      if (e instanceof ConfigError) return e.message;
      throw e;
    }
    return undefined;
  };

  it('VEN-044 start-up fails naming the variables when nobody could ever be authenticated', async () => {
    const message = configError({});
    expect(message).toContain('VENDORS_ACCESS_AUD');
    expect(message).toContain('VENDORS_SERVICE_TOKEN');
    expect(message).toContain('DEV_AUTH');
    // Before any database is opened or port taken.
    await expect(startVendors(vendorsConfig({ PORT_VENDORS: '0' }))).rejects.toBeInstanceOf(ConfigError);
  });

  it('VEN-044 VEN-045 VEN-048 inconsistent settings stop start-up with the variable named', () => {
    expect(configError({ VENDORS_ACCESS_AUD: INTERNAL_AUD })).toContain('GATEWAY_JWKS_URL');
    expect(
      configError({
        VENDORS_ACCESS_AUD: 'same',
        VENDORS_PORTAL_ACCESS_AUD: 'same',
        GATEWAY_JWKS_URL: 'https://gw.test/certs',
      }),
    ).toContain('VENDORS_PORTAL_ACCESS_AUD');
    expect(configError({ VENDORS_SERVICE_TOKEN_PREVIOUS: 'old', DEV_AUTH: '1' })).toContain('VENDORS_SERVICE_TOKEN');
    expect(() => vendorsConfig({ VENDORS_EDITORS: 'ok@corp.test, not an email' })).toThrow(/VENDORS_EDITORS/);
    expect(() => vendorsConfig({ GATEWAY_JWKS_URL: 'ftp://gw.test' })).toThrow(/GATEWAY_JWKS_URL/);
    expect(() => vendorsConfig({ PORT_VENDORS: 'http' })).toThrow(/PORT_VENDORS/);
  });

  it('VEN-045 VEN-048 VEN-050 any one source is enough: the gateway alone, the service token alone, or DEV_AUTH alone', () => {
    expect(
      configError({ VENDORS_PORTAL_ACCESS_AUD: PORTAL_AUD, GATEWAY_JWKS_URL: 'https://gw.test/certs', GATEWAY_ISSUER }),
    ).toBeUndefined();
    expect(configError({ VENDORS_ACCESS_AUD: INTERNAL_AUD }, { gatewayJwks: h.keys.jwks })).toBeUndefined();
    expect(configError({ VENDORS_SERVICE_TOKEN: SERVICE_TOKEN })).toBeUndefined();
    expect(configError({ DEV_AUTH: '1' })).toBeUndefined();
    const c = vendorsConfig({ VENDORS_EDITORS: ' A@Corp.test,,b@corp.test , a@corp.test' });
    expect(c.VENDORS_EDITORS).toEqual(['a@corp.test', 'b@corp.test']);
    expect(vendorsConfig({}).PORT_VENDORS).toBe(4102);
  });
});
