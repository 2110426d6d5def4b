import { randomUUID } from 'node:crypto';
import { AppError, emptyDirectory, gatewayAuthenticator, type PrincipalDirectory } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDirectory } from '../src/store/directory.ts';
import { ADMIN, CONTROLLER, fid, GATEWAY_AUDIENCE, identityHarness, SERVICE_TOKEN } from './harness.ts';

let h: Awaited<ReturnType<typeof identityHarness>>;
beforeAll(async () => {
  h = await identityHarness();
});
afterAll(async () => h?.close());

const certs = () => createRemoteJWKSet(new URL(`${h.issuer}/gateway/certs`));
const gatewayIssuer = () => `${h.issuer}/gateway`;
const errorCode = (r: { body: { payload: { errors: { code: string }[] } } }) => r.body.payload.errors[0]?.code;

async function gatewayToken(as: string | null, audience = GATEWAY_AUDIENCE, headers: Record<string, string> = {}) {
  return h.call('GET', `/v1/gateway/token?audience=${encodeURIComponent(audience)}`, as, undefined, headers);
}

async function tokenFor(as: string) {
  const r = await gatewayToken(as);
  expect(r.status).toBe(200);
  return r.body.payload.data.token as string;
}

/** What a service behind the gateway receives: only the header the gateway sets. */
const requestWith = (token: string) => ({ headers: { 'cf-access-jwt-assertion': token } }) as unknown as FastifyRequest;

describe('GET /v1/gateway/token', () => {
  it('answers a gateway JWT that verifies against /gateway/certs with the gateway issuer and audience', async () => {
    const r = await gatewayToken(CONTROLLER);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const data = r.body.payload.data;
    expect(Object.keys(data).sort()).toEqual(['audience', 'expires_at', 'token']);
    expect(data.audience).toBe(GATEWAY_AUDIENCE);
    const { payload, protectedHeader } = await jwtVerify(data.token, certs(), {
      issuer: gatewayIssuer(),
      audience: GATEWAY_AUDIENCE,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.iss).toBe(gatewayIssuer());
    expect(payload.aud).toEqual([GATEWAY_AUDIENCE]);
    expect(payload.email).toBe(CONTROLLER);
    expect(payload.sub).toBe(fid(CONTROLLER));
    expect(new Date(data.expires_at).getTime()).toBe((payload.exp as number) * 1000);
    expect(payload.exp).toBeGreaterThan(payload.iat as number);
  });

  it('a person added by the admin API gets their own email and fid in the token', async () => {
    const address = `gw-${randomUUID().slice(0, 8)}@example.com`;
    const made = await h.call('POST', '/v1/people', ADMIN, { data: { email: address } });
    expect(made.status).toBe(201);
    const { payload } = await jwtVerify(await tokenFor(address), certs(), {
      issuer: gatewayIssuer(),
      audience: GATEWAY_AUDIENCE,
    });
    expect(payload.email).toBe(address);
    expect(payload.sub).toBe(made.body.payload.data.fid);
  });

  it('the certs are public keys only, and name the key the token was signed with', async () => {
    const res = await fetch(`${h.issuer}/gateway/certs`);
    expect(res.status).toBe(200);
    const jwks = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const k of jwks.keys)
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(secret);
    const { kid } = decodeProtectedHeader(await tokenFor(CONTROLLER));
    expect(jwks.keys.map((k) => k.kid)).toContain(kid);
  });

  it('the token does not verify as a platform access token (other issuer, other audience)', async () => {
    const token = await tokenFor(CONTROLLER);
    await expect(jwtVerify(token, certs(), { issuer: h.issuer, audience: GATEWAY_AUDIENCE })).rejects.toThrow();
    await expect(
      jwtVerify(token, certs(), { issuer: gatewayIssuer(), audience: 'urn:platform:api' }),
    ).rejects.toThrow();
  });

  it('422 unknown_audience for an audience the gateway does not serve; 422 without one', async () => {
    const unknown = await gatewayToken(CONTROLLER, 'other-app');
    expect(unknown.status).toBe(422);
    expect(errorCode(unknown)).toBe('unknown_audience');
    const missing = await h.call('GET', '/v1/gateway/token', CONTROLLER);
    expect(missing.status).toBe(422);
  });

  it('403 for a service principal, by dev header or by the service token alone', async () => {
    const dev = await gatewayToken('service:payments');
    const token = await gatewayToken(null, GATEWAY_AUDIENCE, { 'x-platform-service-token': SERVICE_TOKEN });
    expect([dev.status, token.status]).toEqual([403, 403]);
  });

  it('SIGN-067 401 without a principal', async () => {
    const r = await gatewayToken(null);
    expect(r.status).toBe(401);
    expect(errorCode(r)).toBe('unauthenticated');
  });
});

describe("the kit's gatewayAuthenticator with the stand-in's certs", () => {
  const authenticator = (audience: string, directory: PrincipalDirectory) =>
    gatewayAuthenticator({ jwks: certs(), issuer: gatewayIssuer(), audience, directory });

  it("accepts the token for its audience: the principal is the person, with the token's email", async () => {
    const principal = await authenticator(GATEWAY_AUDIENCE, dbDirectory(h.database.db)).authenticate(
      requestWith(await tokenFor(CONTROLLER)),
    );
    expect(principal).toMatchObject({
      id: fid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [{ role: 'controller', scope_type: 'global', scope_id: '*' }],
    });
  });

  it("a person the service's directory does not know is the token's sub with no grants", async () => {
    const principal = await authenticator(GATEWAY_AUDIENCE, emptyDirectory).authenticate(
      requestWith(await tokenFor(CONTROLLER)),
    );
    expect(principal).toEqual({
      id: fid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [],
      via: 'gateway',
      app: GATEWAY_AUDIENCE,
    });
  });

  it('refuses the token with 401 when the service is another application', async () => {
    const token = await tokenFor(CONTROLLER);
    const attempt = authenticator('other-app', dbDirectory(h.database.db)).authenticate(requestWith(token));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('refuses a tampered token with 401', async () => {
    const [head, body, signature] = (await tokenFor(CONTROLLER)).split('.');
    const claims = JSON.parse(Buffer.from(body as string, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, email: ADMIN })).toString('base64url');
    const attempt = authenticator(GATEWAY_AUDIENCE, dbDirectory(h.database.db)).authenticate(
      requestWith([head, forged, signature].join('.')),
    );
    await expect(attempt).rejects.toMatchObject({ status: 401 });
  });
});
