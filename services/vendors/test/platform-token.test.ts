import { decodeJwt, importJWK, type JWK, SignJWT } from 'jose';
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
import { EDITOR, type Harness, harness, tag } from './harness.ts';

/**
 * Issue 14.2: spec 2 (Authentication 1, SIGN-064) says the platform access token is valid at every
 * platform service; spec 1's vendors caller table names other proofs. Vendors accepts the token
 * as a staff caller, whose email comes from identity: it reads as an employee of the internal
 * application does, changes only when that email is in VENDORS_EDITORS, and never has portal
 * rights. The tokens are real: identity on a real port, signed in through openid-client.
 */
let id: Awaited<ReturnType<typeof identityHarness>>;
let h: Harness;
let staff: string;
let admin: string;
let firm: { id: string };

beforeAll(async () => {
  id = await identityHarness();
  h = await harness({
    env: {
      AUTH_ISSUER: id.issuer,
      IDENTITY_URL: id.issuer,
      SERVICE_TOKEN: PLATFORM_SERVICE_TOKEN,
      GRANTS_CACHE_MS: '0',
      // The editors: the harness's gateway editor (who sets up firms) and the dev admin signed in at identity.
      VENDORS_EDITORS: `${EDITOR},${ADMIN}`,
    },
  });
  staff = await signedInAccessToken(id.issuer, STAFF);
  admin = await signedInAccessToken(id.issuer, ADMIN);
  firm = await h.firm();
}, 60_000);
afterAll(async () => {
  await h?.close_();
  await id?.close();
});

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const newFirm = () => ({ data: { name: `Token ${tag()}`, kind: 'consultant', discipline: 'legal' } });

describe('14.2 the platform access token at vendors', () => {
  it('14.2 SIGN-064 SIGN-060 VEN-045 a person signed in at identity reads vendors with the access token', async () => {
    for (const url of [
      '/v1/vendors',
      `/v1/vendors/${firm.id}`,
      `/v1/vendors/${firm.id}/insurance`,
      '/v1/vendor-insurance',
    ]) {
      const r = await h.call('GET', url, bearer(staff));
      expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
    }
  });

  it('14.2 SIGN-064 VEN-047 with the platform token someone not in VENDORS_EDITORS may not change: 403, nothing written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/vendors', bearer(staff), newFirm());
    expect(r.status).toBe(403);
    expect(r.errors?.[0].code).toBe('forbidden');
    expect(await h.state()).toEqual(before);
  });

  it('14.2 SIGN-064 VEN-046 with the platform token an editor (email from identity) changes', async () => {
    const r = await h.call('POST', '/v1/vendors', bearer(admin), newFirm());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const status = await h.call('POST', `/v1/vendors/${r.data.id}/status`, bearer(admin), {
      data: { status: 'inactive' },
    });
    expect(status.status).toBe(200);
  });

  it('14.2 VEN-048 VEN-049 the platform token carries no portal rights: /v1/vendor-portal/ is 401, even for a contact’s email', async () => {
    await h.contact(firm.id, { email: STAFF });
    const r = await h.call('GET', '/v1/vendor-portal/contact', bearer(staff));
    expect(r.status).toBe(401);
    expect(r.errors?.[0].message).toContain('/v1/vendor-portal/');
    // The same person through the portal application is a contact there.
    expect((await h.call('GET', '/v1/vendor-portal/contact', { portal: STAFF })).status).toBe(200);
  });

  it('14.2 VEN-050 VEN-051 a service’s platform token (client_credentials) is 401: a service calls vendors with the vendors service token naming the person', async () => {
    const token = await serviceAccessToken(id.issuer);
    for (const url of ['/v1/vendors', '/v1/vendor-portal/contact']) {
      const r = await h.call('GET', url, bearer(token));
      expect(r.status, url).toBe(401);
      expect(r.errors?.[0].message).toContain('X-Platform-Service-Token');
    }
    expect((await h.call('POST', '/v1/vendors', bearer(token), newFirm())).status).toBe(401);
  });

  it('14.2 SIGN-063 SIGN-068 SIGN-069 a platform token that does not verify is 401: expired, another audience, another key, an ID token', async () => {
    const key = id.keys.signing[0] as JWK;
    const fid = decodeJwt(staff).sub as string;
    const expired = await signAccessToken(key, { issuer: id.issuer, audience: AUDIENCE, sub: fid, iatOffset: -7200 });
    const otherAudience = await signAccessToken(key, { issuer: id.issuer, audience: 'urn:other:api', sub: fid });
    const stranger = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(id.issuer)
      .setAudience(AUDIENCE)
      .setSubject(fid)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-issuer-key-not-the-issuer-key'));
    const idToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(id.issuer)
      .setAudience(AUDIENCE)
      .setSubject(fid)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importJWK(key, 'RS256'));
    for (const token of [expired, otherAudience, stranger, idToken]) {
      expect((await h.call('GET', '/v1/vendors', bearer(token))).status).toBe(401);
    }
  });

  it('14.2 SIGN-064 identity’s GET /v1/authz/me for the same token lists what vendors answers it: vendors.read, never vendors.portal', async () => {
    const r = await fetch(`${id.issuer}/v1/authz/me`, { headers: { authorization: `Bearer ${staff}` } });
    expect(r.status).toBe(200);
    const can = ((await r.json()) as { payload: { data: { can: { scope_type: string; actions: string[] }[] } } })
      .payload.data.can;
    const global = can.find((e) => e.scope_type === 'global')?.actions ?? [];
    expect(global).toContain('vendors.read');
    expect(global).not.toContain('vendors.portal');
  });
});
