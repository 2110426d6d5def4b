import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFid } from '../src/tokens.ts';
import { exchange, lifetime, mint, verifiedClaims } from './credentials-helpers.ts';
import { fid, type Harness, harness, OTHER, tag } from './harness.ts';

/** Spec 3: POST /v1/oauth/token (client credentials) and GET /.well-known/jwks.json. */
let h: Harness;
let unsigned: Harness;

beforeAll(async () => {
  h = await harness();
  unsigned = await harness({ signing: false });
});
afterAll(async () => {
  // On PGlite both share the process's one instance, which the first close shuts.
  await unsigned.close_();
  await h.close_();
});

const person = () => `o-${tag()}@broker.test`;
const issuedAt = () => Math.floor(h.now().getTime() / 1000);

describe('the token exchange', () => {
  it('BRK-156 BRK-157 HTTP Basic and grant_type=client_credentials give a plain OAuth token response', async () => {
    const c = await mint(h, person());
    const r = await exchange(h, c.client_id, c.secret);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(r.body).not.toHaveProperty('header');
    expect(r.body).not.toHaveProperty('payload');
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('BRK-156 a JSON body is accepted too', async () => {
    const c = await mint(h, person());
    const r = await exchange(h, c.client_id, c.secret, { grant_type: 'client_credentials' }, { json: true });
    expect(r.status).toBe(200);
    expect(typeof r.body.access_token).toBe('string');
  });

  it('BRK-158 BRK-192 the token is a JWT expiring one hour after issue, however it was issued', async () => {
    const who = person();
    const c = await mint(h, who);
    const viaExchange = (await exchange(h, c.client_id, c.secret)).body.access_token;
    const viaRoute = (await h.call('POST', `/v1/credentials/mine/${c.client_id}/token`, who)).data.token.access_token;
    const viaRotate = (await h.call('POST', `/v1/credentials/mine/${c.client_id}/rotate`, who)).data.token.access_token;
    for (const token of [viaExchange, viaRoute, viaRotate]) {
      expect(token.split('.')).toHaveLength(3);
      const claims = decodeJwt(token);
      expect(claims.iat).toBe(issuedAt());
      expect(claims.exp).toBe(issuedAt() + 3600);
      expect(lifetime(token)).toBe(3600);
    }
  });

  it('BRK-159 a bad client secret is 401 invalid_client with no token; so is an unknown client', async () => {
    const c = await mint(h, person());
    const wrong = await exchange(h, c.client_id, `${c.secret}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: 'Unknown client or wrong secret' });
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="model-broker"');
    const unknown = await exchange(h, 'bk-ffffffffffffffffffffffff', c.secret);
    expect(unknown.status).toBe(401);
    expect(unknown.body).not.toHaveProperty('access_token');
  });

  it('BRK-187 the token route uses HTTP Basic: without it the answer is 401', async () => {
    const c = await mint(h, person());
    const none = await exchange(h, c.client_id, c.secret, undefined, { basic: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('invalid_client');
    // Credentials in the form body are not HTTP Basic.
    const inBody = await exchange(
      h,
      c.client_id,
      c.secret,
      { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.secret },
      { basic: null },
    );
    expect(inBody.status).toBe(401);
    const bearer = await exchange(h, c.client_id, c.secret, undefined, { basic: `Bearer ${c.secret}` });
    expect(bearer.status).toBe(401);
    expect(bearer.body).not.toHaveProperty('access_token');
  });

  it('a missing or other grant_type is 400 invalid_request or unsupported_grant_type', async () => {
    const c = await mint(h, person());
    const missing = await exchange(h, c.client_id, c.secret, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const other = await exchange(h, c.client_id, c.secret, { grant_type: 'password' });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('unsupported_grant_type');
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: {
        authorization: `Basic ${Buffer.from(`${c.client_id}:${c.secret}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      payload: '{"grant_type":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('BRK-156 the client id and secret are form-decoded from Basic (RFC 6749 §2.3.1)', async () => {
    const c = await mint(h, person());
    const encoded = `${encodeURIComponent(c.client_id)}:${c.secret.replace(/_/g, '%5F')}`;
    const r = await exchange(h, c.client_id, c.secret, undefined, {
      basic: `Basic ${Buffer.from(encoded).toString('base64')}`,
    });
    expect(r.status).toBe(200);
  });
});

describe('what a token says', () => {
  it("BRK-161 a personal token carries the owner's sign-in email and FID", async () => {
    const who = person();
    const c = await mint(h, who);
    const claims = await verifiedClaims(h, (await exchange(h, c.client_id, c.secret)).body.access_token);
    expect(claims).toMatchObject({
      email: who,
      sub: fid(who),
      client_id: c.client_id,
      credential_kind: 'personal',
      owner_email: who,
      aud: 'model-broker',
    });
  });

  it('BRK-162 a service token carries <client_id>@service.broker', async () => {
    const who = person();
    const c = await mint(h, who, { name: 'svc', kind: 'service' });
    const claims = await verifiedClaims(h, (await exchange(h, c.client_id, c.secret)).body.access_token);
    const email = `${c.client_id}@service.broker`;
    expect(claims).toMatchObject({ email, sub: identityFid(email), credential_kind: 'service', owner_email: who });
  });

  it("BRK-163 a token request naming another email still yields the credential's own email", async () => {
    const who = person();
    const c = await mint(h, who);
    const r = await exchange(h, c.client_id, c.secret, {
      grant_type: 'client_credentials',
      email: OTHER,
      sub: fid(OTHER),
      scope: 'admin',
    });
    expect(r.status).toBe(200);
    const claims = await verifiedClaims(h, r.body.access_token);
    expect(claims.email).toBe(who);
    expect(claims.sub).toBe(fid(who));
    const json = await exchange(
      h,
      c.client_id,
      c.secret,
      { grant_type: 'client_credentials', email: OTHER },
      { json: true },
    );
    expect((await verifiedClaims(h, json.body.access_token)).email).toBe(who);
  });

  it('BRK-160 GET /.well-known/jwks.json returns the public keys that verify issued tokens', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const jwks = res.json();
    expect(jwks).not.toHaveProperty('payload');
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const c = await mint(h, person());
    const token = (await exchange(h, c.client_id, c.secret)).body.access_token;
    expect(decodeJwt(token).iss).toBe('urn:test:broker');
    expect((await verifiedClaims(h, token)).client_id).toBe(c.client_id);
  });
});

describe('without a signing key', () => {
  it('BRK-191 POST /v1/oauth/token and POST .../token answer 503 and issue no token', async () => {
    const who = person();
    const c = await mint(unsigned, who);
    const exchanged = await exchange(unsigned, c.client_id, c.secret);
    expect(exchanged.status).toBe(503);
    expect(exchanged.body.error).toBe('token_signing_unavailable');
    expect(exchanged.body).not.toHaveProperty('access_token');
    const issued = await unsigned.call('POST', `/v1/credentials/mine/${c.client_id}/token`, who);
    expect(issued.status).toBe(503);
    expect(issued.errors[0].code).toBe('token_signing_unavailable');
    expect(JSON.stringify(issued.body)).not.toContain('access_token');
    const rotated = await unsigned.call('POST', `/v1/credentials/mine/${c.client_id}/rotate`, who);
    expect(rotated.status).toBe(200);
    expect(rotated.data.token).toBeNull();
    const jwks = await unsigned.call('GET', '/.well-known/jwks.json', null);
    expect(jwks.status).toBe(503);
    expect(jwks.errors[0].code).toBe('token_signing_unavailable');
  });
});
