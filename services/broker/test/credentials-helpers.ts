import { type Authenticator, emptyDirectory, gatewayAuthenticator } from '@platform/kit';
import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Harness } from './harness.ts';

/** The audience an access gateway with test keys stamps for the broker app. */
export const GATEWAY_AUD = 'broker-app';

/** An access gateway signing with local keys: its authenticator for the harness and a way to sign people in. */
export async function testGateway(): Promise<{
  authenticator: Authenticator;
  session: (email: string) => Promise<{ headers: Record<string, string> }>;
}> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'gw', alg: 'ES256' };
  const authenticator = gatewayAuthenticator({
    jwks: createLocalJWKSet({ keys: [jwk] }),
    issuer: 'https://gateway.test',
    audience: GATEWAY_AUD,
    directory: emptyDirectory,
  });
  const session = async (email: string) => {
    const jwt = await new SignJWT({ email })
      .setProtectedHeader({ alg: 'ES256', kid: 'gw' })
      .setIssuer('https://gateway.test')
      .setAudience(GATEWAY_AUD)
      .setSubject(`gw-${email}`)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    return { headers: { 'cf-access-jwt-assertion': jwt } };
  };
  return { authenticator, session };
}

/** POST /v1/oauth/token as an OAuth client would: HTTP Basic and a form body. */
export async function exchange(
  h: Harness,
  clientId: string,
  secret: string,
  form: Record<string, string> = { grant_type: 'client_credentials' },
  o: { json?: boolean; basic?: string | null } = {},
) {
  const basic =
    o.basic === undefined
      ? `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`
      : o.basic;
  const res = await h.app.inject({
    method: 'POST',
    url: '/v1/oauth/token',
    headers: {
      ...(basic ? { authorization: basic } : {}),
      'content-type': o.json ? 'application/json' : 'application/x-www-form-urlencoded',
    },
    payload: o.json ? JSON.stringify(form) : new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** A credential token's claims, verified against the broker's published JWKS at the harness's time. */
export async function verifiedClaims(h: Harness, token: string): Promise<JWTPayload> {
  const jwks = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.json()), { currentDate: h.now() });
  return payload;
}

export const lifetime = (token: string) => {
  const c = decodeJwt(token);
  return (c.exp ?? 0) - (c.iat ?? 0);
};

/** Mints a credential through the API as `who` (an email: the dev header) and answers its client_id and secret. */
export async function mint(
  h: Harness,
  who: string,
  data: Record<string, unknown> = { name: 'cli' },
): Promise<{ client_id: string; secret: string; email: string }> {
  const r = await h.call('POST', '/v1/credentials/mine', who, { data });
  h.expectStatus('mint', r, 201);
  return { client_id: r.data.client_id, secret: r.data.secret, email: r.data.email };
}

/** A credential token for `who`'s new credential, through the exchange. */
export async function tokenFor(h: Harness, who: string, data?: Record<string, unknown>) {
  const c = await mint(h, who, data);
  const r = await exchange(h, c.client_id, c.secret);
  if (r.status !== 200) throw new Error(`exchange: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...c, token: r.body.access_token as string };
}
