import { createServer, type Server } from 'node:http';
import type { FastifyRequest } from 'fastify';
import {
  type CryptoKey,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWTPayload,
  type JWTVerifyGetKey,
  SignJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthConfig, authenticatorFromConfig, staffTokenAuthenticator } from '../src/auth/auth-config.ts';
import { type Authenticator, authorize, devHeaderAuthenticator } from '../src/auth/authenticate.ts';
import { bearerAuthenticator } from '../src/auth/bearer.ts';
import { DevPrincipals, devFid } from '../src/auth/dev-principals.ts';
import { httpDirectory } from '../src/auth/directory.ts';
import { gatewayAuthenticator } from '../src/auth/gateway.ts';
import { createDecide, type Policy } from '../src/auth/principal.ts';
import { serviceTokenAuthenticator } from '../src/auth/service-token.ts';
import { ConfigError } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { AppError } from '../src/errors.ts';
import { createServiceApp } from '../src/http/app.ts';

const ISSUER = 'https://id.platform.test';
const AUDIENCE = 'urn:platform:api';
const GATEWAY_AUD = 'vendors-internal-aud';
const CONTROLLER = 'controller@platform.test';
const NO_GRANTS = 'nobody@platform.test';
const controllerGrant = { role: 'controller', scope_type: 'global' as const, scope_id: '*' };

/** Known principals: a controller, a person with no grants, and the payments service. */
const directory = new DevPrincipals({
  people: [
    { email: CONTROLLER, grants: [controllerGrant] },
    { email: NO_GRANTS, grants: [] },
  ],
  services: [{ id: 'service:payments', grants: [{ role: 'poster', scope_type: 'global', scope_id: '*' }] }],
});

let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let jwks: JWTVerifyGetKey;

beforeAll(async () => {
  const own = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  signingKey = own.privateKey;
  strangerKey = stranger.privateKey;
  jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(own.publicKey)), kid: 'k1', alg: 'RS256' }] });
});

interface SignOptions {
  typ?: string;
  iss?: string;
  aud?: string | string[];
  /** Seconds since the epoch. */
  exp?: number;
  key?: CryptoKey;
}
const nowSec = () => Math.floor(Date.now() / 1000);
const sign = (claims: JWTPayload, o: SignOptions = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: o.typ ?? 'at+jwt' })
    .setIssuer(o.iss ?? ISSUER)
    .setAudience(o.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(o.exp ?? nowSec() + 3600)
    .sign(o.key ?? signingKey);

const fakeRequest = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

/** The 401 (or other AppError) an authenticator throws, or the principal it returns. */
async function outcome(a: Authenticator, headers: Record<string, string>) {
  try {
    return { principal: await a.authenticate(fakeRequest(headers)) };
  } catch (e) {
    if (e instanceof AppError) return { status: e.status, message: e.message };
    throw e;
  }
}

const fakeDatabase = {
  db: {},
  schema: 'authtest',
  kind: 'pglite',
  ping: async () => true,
  close: async () => {},
} as unknown as Database;

/** A service app with one guarded route that answers with the caller. */
async function appWith(authenticator: Authenticator) {
  const app = await createServiceApp({
    service: 'authtest',
    title: 'auth test',
    description: 'auth test',
    database: fakeDatabase,
    authenticator,
    logLevel: 'silent',
    routes: (a) => {
      a.get('/v1/me', async (req, reply) => reply.envelope(authorize(req, (p) => p.grants.length > 0)));
    },
  });
  await app.ready();
  return {
    get: async (headers: Record<string, string>) => {
      const res = await app.inject({ method: 'GET', url: '/v1/me', headers });
      return { status: res.statusCode, body: res.body, json: res.json() };
    },
    close: () => app.close(),
  };
}

const bearer = (o: Partial<Parameters<typeof bearerAuthenticator>[0]> = {}) =>
  bearerAuthenticator({ issuer: ISSUER, audience: AUDIENCE, jwks, directory, ...o });

describe('bearer access tokens', () => {
  let app: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    app = await appWith(bearer());
  });
  afterAll(() => app.close());

  it('SIGN-060 a valid access token with the platform audience is accepted', async () => {
    const res = await app.get({ authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) })}` });
    expect(res.status).toBe(200);
    expect(res.json.payload.data).toMatchObject({ id: devFid(CONTROLLER), kind: 'person', grants: [controllerGrant] });
  });

  it('SIGN-061 the principal id is the sub: a person FID, or service:<client_id> for a client_credentials token', async () => {
    const person = await outcome(bearer(), { authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) })}` });
    expect(person.principal).toMatchObject({ id: devFid(CONTROLLER), kind: 'person' });

    const service = await outcome(bearer(), { authorization: `Bearer ${await sign({ sub: 'payments' })}` });
    expect(service.principal).toEqual({
      id: 'service:payments',
      kind: 'service',
      grants: [{ role: 'poster', scope_type: 'global', scope_id: '*' }],
      via: 'bearer',
    });

    const unknownFid = '0190a6b1-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
    const stranger = await outcome(bearer(), { authorization: `Bearer ${await sign({ sub: unknownFid })}` });
    expect(stranger.principal).toEqual({ id: unknownFid, kind: 'person', grants: [], via: 'bearer' });

    const unknownClient = await outcome(bearer(), { authorization: `Bearer ${await sign({ sub: 'billing' })}` });
    expect(unknownClient.principal).toEqual({ id: 'service:billing', kind: 'service', grants: [], via: 'bearer' });
  });

  it('SIGN-003 an issuer differing by a trailing slash or by host name is refused with 401', async () => {
    for (const iss of [`${ISSUER}/`, 'https://127.0.0.1', 'https://id.platform.test.evil']) {
      const res = await app.get({ authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) }, { iss })}` });
      expect(res.status).toBe(401);
      expect(res.json.payload.errors[0]).toEqual({ code: 'unauthenticated', message: 'token issuer not trusted' });
    }
  });

  it('SIGN-063 an ID token sent as the bearer token is refused with 401', async () => {
    const idToken = await sign({ sub: devFid(CONTROLLER), email: CONTROLLER }, { typ: 'JWT' });
    const res = await app.get({ authorization: `Bearer ${idToken}` });
    expect(res.status).toBe(401);
    expect(res.json.payload.errors[0].message).toBe('an ID token is not an access token');
  });

  it('SIGN-067 a request with no token is not signed in: 401', async () => {
    const res = await app.get({});
    expect(res.status).toBe(401);
    expect(res.json.payload.errors[0].code).toBe('unauthenticated');
  });

  it('SIGN-068 an expired token is refused with 401', async () => {
    const expired = await sign({ sub: devFid(CONTROLLER) }, { exp: nowSec() - 3600 });
    const res = await app.get({ authorization: `Bearer ${expired}` });
    expect(res.status).toBe(401);
    expect(res.json.payload.errors[0].message).toBe('token expired');
  });

  it('SIGN-068 a remembered token is refused once its exp has passed', async () => {
    let now = Date.now();
    const a = bearer({ now: () => now });
    const token = await sign({ sub: devFid(CONTROLLER) }, { exp: Math.floor(now / 1000) + 60 });
    expect((await outcome(a, { authorization: `Bearer ${token}` })).principal?.id).toBe(devFid(CONTROLLER));
    now += 120_000;
    expect(await outcome(a, { authorization: `Bearer ${token}` })).toEqual({ status: 401, message: 'token expired' });
  });

  it('SIGN-060 a repeat of a verified token skips the signature check', async () => {
    let keyLookups = 0;
    const counting: JWTVerifyGetKey = (header, token) => {
      keyLookups++;
      return jwks(header, token);
    };
    const a = bearer({ jwks: counting });
    const token = await sign({ sub: devFid(CONTROLLER) });
    await a.authenticate(fakeRequest({ authorization: `Bearer ${token}` }));
    await a.authenticate(fakeRequest({ authorization: `Bearer ${token}` }));
    expect(keyLookups).toBe(1);
  });

  it('SIGN-069 a token whose audience is not the platform audience is refused with 401', async () => {
    const res = await app.get({
      authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) }, { aud: 'urn:other:api' })}`,
    });
    expect(res.status).toBe(401);
    expect(res.json.payload.errors[0].message).toBe('token audience is not this platform');
  });

  it('SIGN-070 a signed-in caller whom no grant allows is refused with 403', async () => {
    const res = await app.get({ authorization: `Bearer ${await sign({ sub: devFid(NO_GRANTS) })}` });
    expect(res.status).toBe(403);
  });

  it('SIGN-065 a refused token is not repeated in the 401 body', async () => {
    const tokens = [
      await sign({ sub: devFid(CONTROLLER) }, { key: strangerKey }),
      await sign({ sub: devFid(CONTROLLER) }, { exp: nowSec() - 3600 }),
      'not-a-jwt-at-all',
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    ];
    for (const token of tokens) {
      const res = await app.get({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body).not.toContain(token);
      // Not even the signature part, which is the secret-bearing bit of a leaked token.
      const signature = token.split('.')[2];
      if (signature) expect(res.body).not.toContain(signature);
    }
  });

  it('SIGN-060 a token signed by a key outside the issuer key set, or a malformed one, is 401', async () => {
    const forged = await outcome(bearer(), {
      authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) }, { key: strangerKey })}`,
    });
    expect(forged).toEqual({ status: 401, message: 'token signature invalid' });
    expect(await outcome(bearer(), { authorization: 'Bearer abc.def' })).toEqual({
      status: 401,
      message: 'malformed token',
    });
    expect(await outcome(bearer(), { authorization: 'Bearer' })).toEqual({ status: 401, message: 'malformed token' });
  });

  it('SIGN-067 another authorization scheme is not a bearer token: the source does not apply', async () => {
    expect(await outcome(bearer(), { authorization: 'Basic dXNlcjpwYXNz' })).toEqual({ principal: null });
  });
});

describe('access-gateway tokens', () => {
  const gateway = () => gatewayAuthenticator({ jwks, audience: GATEWAY_AUD, issuer: ISSUER, directory });
  const gatewayToken = (claims: JWTPayload, aud = GATEWAY_AUD) => sign(claims, { aud, typ: 'JWT' });

  it('VEN-045 OPS-037 a gateway token for the application audience is verified and its email is the caller', async () => {
    const known = await outcome(gateway(), {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-1', email: 'Controller@Platform.test' }),
    });
    expect(known.principal).toEqual({
      id: devFid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [controllerGrant],
      via: 'gateway',
      app: GATEWAY_AUD,
    });

    const unknown = await outcome(gateway(), {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-2', email: 'visitor@firm.test' }),
    });
    expect(unknown.principal).toEqual({
      id: 'cf-user-2',
      kind: 'person',
      email: 'visitor@firm.test',
      grants: [],
      via: 'gateway',
      app: GATEWAY_AUD,
    });
  });

  it('VEN-048 VEN-049 one service fronting two applications accepts either audience and records which one', async () => {
    const both = gatewayAuthenticator({ jwks, audience: [GATEWAY_AUD, 'portal-app'], issuer: ISSUER, directory });
    const internal = await outcome(both, {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-1', email: CONTROLLER }),
    });
    expect(internal.principal).toMatchObject({ via: 'gateway', app: GATEWAY_AUD });
    const portal = await outcome(both, {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-3', email: 'visitor@firm.test' }, 'portal-app'),
    });
    expect(portal.principal).toMatchObject({ email: 'visitor@firm.test', via: 'gateway', app: 'portal-app' });
    const other = await outcome(both, {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-1', email: CONTROLLER }, 'other-app'),
    });
    expect(other).toEqual({ status: 401, message: 'token audience is not this application' });
    const twoApps = await outcome(both, {
      'cf-access-jwt-assertion': await sign(
        { sub: 'cf-user-3', email: 'visitor@firm.test' },
        { aud: [GATEWAY_AUD, 'portal-app'], typ: 'JWT' },
      ),
    });
    expect(twoApps).toEqual({ status: 401, message: 'token names more than one application of this service' });
  });

  it('VEN-045 CON-179 a gateway token for another application audience is 401', async () => {
    const res = await outcome(gateway(), {
      'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-1', email: CONTROLLER }, 'other-app'),
    });
    expect(res).toEqual({ status: 401, message: 'token audience is not this application' });
  });

  it('CON-179 a gateway token without an email claim is 401', async () => {
    const res = await outcome(gateway(), { 'cf-access-jwt-assertion': await gatewayToken({ sub: 'cf-user-1' }) });
    expect(res).toEqual({ status: 401, message: 'gateway token names no email' });
  });

  it('OPS-037 a gateway token not signed by a key of the key set is 401', async () => {
    const forged = await sign({ sub: 'cf-user-1', email: CONTROLLER }, { aud: GATEWAY_AUD, key: strangerKey });
    expect(await outcome(gateway(), { 'cf-access-jwt-assertion': forged })).toEqual({
      status: 401,
      message: 'token signature invalid',
    });
  });

  it('CON-179 without the gateway header the source does not apply', async () => {
    expect(await outcome(gateway(), {})).toEqual({ principal: null });
  });
});

describe('shared service token', () => {
  const CURRENT = 'current-service-token-0123456789';
  const PREVIOUS = 'previous-service-token-0123456789';
  const serviceToken = () => serviceTokenAuthenticator({ tokens: [CURRENT, PREVIOUS], directory });

  it('SIGN-072 VEN-050 with X-Platform-On-Behalf-Of the call acts for the named person (id is their FID)', async () => {
    const byFid = await outcome(serviceToken(), {
      'x-platform-service-token': CURRENT,
      'x-platform-on-behalf-of': devFid(CONTROLLER),
    });
    expect(byFid.principal).toEqual({
      id: devFid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [controllerGrant],
      via: 'service_token',
    });
    const byEmail = await outcome(serviceToken(), {
      'x-platform-service-token': CURRENT,
      'x-platform-on-behalf-of': CONTROLLER.toUpperCase(),
    });
    expect(byEmail.principal).toEqual(byFid.principal);
  });

  it('SIGN-072 an unknown named person is that person with no grants, still via the service token', async () => {
    const res = await outcome(serviceToken(), {
      'x-platform-service-token': CURRENT,
      'x-platform-on-behalf-of': 'newcomer@platform.test',
    });
    expect(res.principal).toEqual({
      id: devFid('newcomer@platform.test'),
      kind: 'person',
      email: 'newcomer@platform.test',
      grants: [],
      via: 'service_token',
    });
  });

  it('SIGN-072 without X-Platform-On-Behalf-Of the caller is the platform service', async () => {
    const res = await outcome(serviceToken(), { 'x-platform-service-token': CURRENT });
    expect(res.principal).toEqual({ id: 'service:platform', kind: 'service', grants: [] });
  });

  it('SIGN-072 an On-Behalf-Of value that is neither a person id nor an email is 401', async () => {
    const res = await outcome(serviceToken(), {
      'x-platform-service-token': CURRENT,
      'x-platform-on-behalf-of': 'service:payments',
    });
    expect(res.status).toBe(401);
  });

  it('WS-476 SIGN-072 the previous token is accepted during rotation', async () => {
    const res = await outcome(serviceToken(), {
      'x-platform-service-token': PREVIOUS,
      'x-platform-on-behalf-of': devFid(CONTROLLER),
    });
    expect(res.principal?.id).toBe(devFid(CONTROLLER));
  });

  it('VEN-052 SIGN-072 a token that matches neither configured token is 401', async () => {
    for (const sent of ['wrong', `${CURRENT}x`, CURRENT.slice(0, -1), '']) {
      expect(await outcome(serviceToken(), { 'x-platform-service-token': sent })).toEqual({
        status: 401,
        message: 'service token not accepted',
      });
    }
  });

  it('VEN-052 a service-token header where no token is configured is 401', async () => {
    const none = serviceTokenAuthenticator({ tokens: [undefined, ''], directory });
    expect((await outcome(none, { 'x-platform-service-token': CURRENT })).status).toBe(401);
    expect(await outcome(none, {})).toEqual({ principal: null });
  });
});

describe('identity directory over HTTP', () => {
  const KNOWN = devFid(CONTROLLER);
  const BROKEN = devFid('broken@platform.test');
  let server: Server;
  let base: string;
  const seen: { url: string; token?: string }[] = [];
  let failing = true;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', token: req.headers['x-platform-service-token'] as string | undefined });
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      if (q.get('id') === BROKEN && failing) {
        res.writeHead(500).end();
        return;
      }
      if (q.get('id') === KNOWN || q.get('id') === BROKEN || q.get('email') === CONTROLLER) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            header: {},
            payload: { data: { id: KNOWN, kind: 'person', email: CONTROLLER, grants: [controllerGrant] } },
          }),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"header":{},"payload":{"errors":[]}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const hitsFor = (fragment: string) => seen.filter((s) => s.url.includes(fragment)).length;

  it('SIGN-070 SIGN-066 grants are read from identity with the service token in a header, never in the URL', async () => {
    seen.length = 0;
    const dir = httpDirectory({ identityUrl: `${base}/`, serviceToken: 'svc-secret' });
    expect(await dir.byId(KNOWN)).toEqual({ id: KNOWN, kind: 'person', email: CONTROLLER, grants: [controllerGrant] });
    expect(seen).toEqual([{ url: `/v1/principals/lookup?id=${KNOWN}`, token: 'svc-secret' }]);
    expect(await dir.byEmail('CONTROLLER@platform.test')).toMatchObject({ id: KNOWN });
    expect(seen[1].url).toBe(`/v1/principals/lookup?email=${encodeURIComponent(CONTROLLER)}`);
    expect(seen.some((s) => s.url.includes('svc-secret'))).toBe(false);
  });

  it('SIGN-059 an answer is reused within the ttl and asked again after it', async () => {
    seen.length = 0;
    let now = 1_000_000;
    const dir = httpDirectory({ identityUrl: base, serviceToken: 'svc-secret', ttlMs: 30_000, now: () => now });
    await dir.byId(KNOWN);
    await dir.byId(KNOWN);
    expect(hitsFor(KNOWN)).toBe(1);
    now += 30_001;
    await dir.byId(KNOWN);
    expect(hitsFor(KNOWN)).toBe(2);
  });

  it('SIGN-059 concurrent lookups of one id share one request', async () => {
    seen.length = 0;
    const dir = httpDirectory({ identityUrl: base, serviceToken: 'svc-secret' });
    const answers = await Promise.all([dir.byId(KNOWN), dir.byId(KNOWN), dir.byId(KNOWN)]);
    expect(answers.every((a) => a?.id === KNOWN)).toBe(true);
    expect(hitsFor(KNOWN)).toBe(1);
  });

  it('SIGN-070 a person identity does not know is null (404), and that answer is cached too', async () => {
    seen.length = 0;
    const stranger = devFid('stranger@platform.test');
    const dir = httpDirectory({ identityUrl: base, serviceToken: 'svc-secret' });
    expect(await dir.byId(stranger)).toBeNull();
    expect(await dir.byId(stranger)).toBeNull();
    expect(hitsFor(stranger)).toBe(1);
  });

  it('SIGN-070 identity failing is 503 identity_unavailable and is not cached', async () => {
    seen.length = 0;
    failing = true;
    const dir = httpDirectory({ identityUrl: base, serviceToken: 'svc-secret' });
    await expect(dir.byId(BROKEN)).rejects.toMatchObject({ status: 503, code: 'identity_unavailable' });
    failing = false;
    expect(await dir.byId(BROKEN)).toMatchObject({ id: KNOWN });
    expect(hitsFor(BROKEN)).toBe(2);
  });

  it('SIGN-070 identity unreachable is 503, and a bearer request then answers 503, not 401', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dir = httpDirectory({ identityUrl: `http://127.0.0.1:${port}`, serviceToken: 'svc-secret' });
    const res = await outcome(bearer({ directory: dir }), {
      authorization: `Bearer ${await sign({ sub: KNOWN })}`,
    });
    expect(res.status).toBe(503);
  });
});

describe('dev header', () => {
  it('SIGN-071 the dev header resolves through the directory: known email with grants, unknown with none', async () => {
    const dev = devHeaderAuthenticator(directory);
    expect((await outcome(dev, { 'x-dev-principal': CONTROLLER })).principal).toEqual({
      id: devFid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [controllerGrant],
    });
    expect((await outcome(dev, { 'x-dev-actor': 'someone@platform.test' })).principal).toEqual({
      id: devFid('someone@platform.test'),
      kind: 'person',
      email: 'someone@platform.test',
      grants: [],
    });
    expect((await outcome(dev, { 'x-dev-principal': 'service:payments' })).principal?.grants).toHaveLength(1);
    expect((await outcome(dev, { 'x-dev-principal': 'service:Bad Name' })).principal).toBeNull();
    expect((await outcome(dev, { 'x-dev-principal': 'not an email' })).principal).toBeNull();
  });
});

describe('authenticatorFromConfig', () => {
  const base: AuthConfig = {
    DEV_AUTH: false,
    AUTH_ISSUER: ISSUER,
    PLATFORM_AUDIENCE: AUDIENCE,
    SERVICE_TOKEN: 'current-service-token-0123456789',
    GRANTS_CACHE_MS: 30_000,
  };

  it('SIGN-071 outside local development a request carrying only the dev header gets 401', async () => {
    const app = await appWith(authenticatorFromConfig(base, { directory, jwks }));
    const res = await app.get({ 'x-dev-principal': CONTROLLER });
    expect(res.status).toBe(401);
    await app.close();
  });

  it('SIGN-071 with DEV_AUTH the dev header stands in, but a bad bearer token never falls through to it', async () => {
    const app = await appWith(authenticatorFromConfig({ ...base, DEV_AUTH: true }, { directory, jwks }));
    expect((await app.get({ 'x-dev-principal': CONTROLLER })).status).toBe(200);
    const expired = await sign({ sub: devFid(CONTROLLER) }, { exp: nowSec() - 3600 });
    const res = await app.get({ authorization: `Bearer ${expired}`, 'x-dev-principal': CONTROLLER });
    expect(res.status).toBe(401);
    await app.close();
  });

  it('SIGN-060 SIGN-072 the configured chain accepts a bearer token and the service token', async () => {
    const app = await appWith(
      authenticatorFromConfig(base, { directory, jwks, gatewayJwks: jwks, gatewayAudience: GATEWAY_AUD }),
    );
    const viaBearer = await app.get({ authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) })}` });
    expect(viaBearer.json.payload.data.id).toBe(devFid(CONTROLLER));
    const viaService = await app.get({
      'x-platform-service-token': 'current-service-token-0123456789',
      'x-platform-on-behalf-of': CONTROLLER,
    });
    expect(viaService.json.payload.data).toMatchObject({ id: devFid(CONTROLLER), via: 'service_token' });
    await app.close();
  });

  it('SIGN-060 AUTH_ISSUER without SERVICE_TOKEN (no way to read grants) stops start-up', () => {
    expect(() => authenticatorFromConfig({ ...base, SERVICE_TOKEN: undefined })).toThrow(
      new ConfigError('SERVICE_TOKEN is required with AUTH_ISSUER (grants are read from the identity service)'),
    );
  });

  it('SIGN-071 with nothing configured and DEV_AUTH off, start-up stops', () => {
    expect(() =>
      authenticatorFromConfig({ DEV_AUTH: false, PLATFORM_AUDIENCE: AUDIENCE, GRANTS_CACHE_MS: 30_000 }),
    ).toThrow(new ConfigError('AUTH_ISSUER is required unless DEV_AUTH=1'));
  });
});

describe('14.2 the platform access token as a staff caller (vendors, the broker)', () => {
  const cfg = { AUTH_ISSUER: ISSUER, PLATFORM_AUDIENCE: AUDIENCE };
  const staff = () =>
    staffTokenAuthenticator(cfg, { directory, jwks, serviceRefusal: 'call with the service token' }) as Authenticator;

  it('14.2 SIGN-064 SIGN-061 a person’s token signs in that person, with the email the directory gives, marked via bearer', async () => {
    const r = await outcome(staff(), { authorization: `Bearer ${await sign({ sub: devFid(CONTROLLER) })}` });
    expect(r.principal).toMatchObject({ id: devFid(CONTROLLER), kind: 'person', email: CONTROLLER, via: 'bearer' });
    expect((await outcome(staff(), {})).principal).toBeNull();
  });

  it('14.2 SIGN-067 a service’s token is 401 saying how to call instead; so is a person the directory names no email for', async () => {
    const service = await outcome(staff(), { authorization: `Bearer ${await sign({ sub: 'payments' })}` });
    expect(service).toEqual({ status: 401, message: 'call with the service token' });
    const unknown = await outcome(staff(), {
      authorization: `Bearer ${await sign({ sub: '0190a6b1-1c2d-7e3f-8a4b-5c6d7e8f9a0b' })}`,
    });
    expect(unknown.status).toBe(401);
  });

  it('14.2 off without AUTH_ISSUER; with AUTH_ISSUER and no way to read emails, start-up stops', () => {
    const o = { directory, jwks, serviceRefusal: 'x' };
    expect(staffTokenAuthenticator({ PLATFORM_AUDIENCE: AUDIENCE }, o)).toBeUndefined();
    expect(() => staffTokenAuthenticator(cfg, { ...o, directory: undefined })).toThrow(ConfigError);
  });

  it('14.2 SIGN-064 a policy counts the token as the application its platformToken names, and as none without one', () => {
    const actions = {
      internal: { anyPerson: true, apps: ['a'] },
      portal: { anyPerson: true, apps: ['b'] },
      open: { anyPerson: true },
    };
    const apps = { a: { audience: 'A_AUD', elsewhere: 'a only' }, b: { audience: 'B_AUD', elsewhere: 'b only' } };
    const counted: Policy = {
      service: 't',
      superAdmin: 'none',
      apps,
      platformToken: { app: 'a', elsewhere: 'not b' },
      actions,
    };
    const uncounted: Policy = { service: 't', superAdmin: 'none', apps, actions };
    const person = {
      id: devFid(CONTROLLER),
      kind: 'person' as const,
      email: CONTROLLER,
      grants: [],
      via: 'bearer' as const,
    };
    const decide = createDecide(counted);
    expect(decide(person, 'internal')).toEqual({ allowed: true });
    expect(decide(person, 'portal')).toEqual({ allowed: false, refusal: 'unauthenticated', message: 'not b' });
    expect(decide(person, 'open')).toEqual({ allowed: true });
    expect(createDecide(uncounted)(person, 'internal')).toMatchObject({ allowed: false, refusal: 'unauthenticated' });
    expect(createDecide(uncounted)(person, 'open')).toEqual({ allowed: true });
  });
});
