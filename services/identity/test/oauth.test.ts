import { createHash } from 'node:crypto';
import {
  MIGRATIONS as ACCOUNTING_MIGRATIONS,
  type AccountingDB,
  buildApp as buildAccounting,
} from '@platform/accounting';
import { authenticatorFromConfig } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, inputValue } from './browser.ts';
import { AUDIENCE, CONTROLLER, fid, identityHarness, SERVICE_TOKEN } from './harness.ts';
import { signAccessToken } from './tokens.ts';

const WEB = 'platform-web';
const REDIRECT = 'http://127.0.0.1:5173/callback';
const POST_LOGOUT = 'http://127.0.0.1:5173/';
const THIRD_PARTY = 'partner-app';

let h: Awaited<ReturnType<typeof identityHarness>>;
let accounting: Awaited<ReturnType<typeof buildAccounting>>;
let accountingDb: Awaited<ReturnType<typeof testDatabase<AccountingDB>>>;
let config: client.Configuration;
/** Every token-endpoint request openid-client sends: method, content type and form. */
const tokenRequests: { contentType: string | null; form: URLSearchParams }[] = [];

beforeAll(async () => {
  h = await identityHarness({
    extraClients: [
      {
        client_id: THIRD_PARTY,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1:7000/cb'],
        token_endpoint_auth_method: 'none',
        first_party: false,
      },
    ],
  });
  config = await client.discovery(new URL(h.issuer), WEB, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  config[client.customFetch] = async (url, options) => {
    if (String(url).endsWith('/oauth2/token')) {
      tokenRequests.push({
        contentType: new Headers(options.headers as Record<string, string>).get('content-type'),
        form: new URLSearchParams(String(options.body)),
      });
    }
    return fetch(url, options as RequestInit);
  };
  // Accounting trusts the issuer exactly as in production: remote JWKS, grants over HTTP.
  accountingDb = await testDatabase<AccountingDB>('accounting', ACCOUNTING_MIGRATIONS);
  accounting = await buildAccounting({
    database: accountingDb,
    authenticator: authenticatorFromConfig({
      DEV_AUTH: false,
      AUTH_ISSUER: h.issuer,
      PLATFORM_AUDIENCE: AUDIENCE,
      SERVICE_TOKEN,
      GRANTS_CACHE_MS: 0,
    }),
    logLevel: 'silent',
  });
  await accounting.ready();
}, 60_000);

afterAll(async () => {
  await accounting?.close();
  await accountingDb?.close();
  await h?.close();
});

/** The contract's authorize parameters, all eight (SIGN-007). */
async function authorizeParams(overrides: Record<string, string | undefined> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const params: Record<string, string | undefined> = {
    client_id: WEB,
    response_type: 'code',
    scope: 'openid',
    audience: AUDIENCE,
    redirect_uri: REDIRECT,
    state: client.randomState(),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  };
  const url = new URL(`${h.issuer}/oauth2/auth`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return { url, verifier, state: params.state as string, params };
}

/** Sign in on the server's page as a dev principal (one click) and land on the client's callback. */
async function signIn(browser: Browser, email = CONTROLLER, overrides: Record<string, string | undefined> = {}) {
  const a = await authorizeParams(overrides);
  const login = await browser.navigate(a.url.toString(), REDIRECT);
  if (login.callback) return { ...a, callback: login.callback, sawLoginPage: false };
  expect(login.html).toContain('Sign in');
  const uid = login.url.split('/interaction/')[1];
  const done = await browser.navigate(`${h.issuer}/interaction/${uid}/dev`, REDIRECT, { email });
  return { ...a, callback: done.callback as URL, sawLoginPage: true };
}

const exchange = (s: { callback: URL; verifier: string; state: string }) =>
  client.authorizationCodeGrant(config, s.callback, { pkceCodeVerifier: s.verifier, expectedState: s.state });

describe('authorization code + PKCE with openid-client', () => {
  let tokens: Awaited<ReturnType<typeof exchange>>;
  let browser: Browser;
  let flow: Awaited<ReturnType<typeof signIn>>;

  beforeAll(async () => {
    browser = new Browser();
    flow = await signIn(browser);
    tokens = await exchange(flow);
  });

  it('SIGN-005 SIGN-006 SIGN-015 the client opens /oauth2/auth and gets a code at its redirect_uri; the password is typed only on the server; no consent page', () => {
    expect(flow.sawLoginPage).toBe(true);
    expect(flow.callback.origin + flow.callback.pathname).toBe(REDIRECT);
    expect(flow.callback.searchParams.get('code')).toBeTruthy();
    expect(flow.callback.searchParams.get('state')).toBe(flow.state);
    // Every page the browser visited was the authorization server's; none was a consent screen.
    expect(browser.visited.every((u) => u.startsWith(h.issuer))).toBe(true);
    expect(browser.visited.some((u) => /consent/i.test(u))).toBe(false);
  });

  it('SIGN-007 SIGN-008 SIGN-009 SIGN-010 SIGN-011 SIGN-012 SIGN-013 SIGN-014 the authorize URL carries all eight parameters as the contract fixes them', async () => {
    const p = flow.params;
    for (const k of [
      'client_id',
      'response_type',
      'scope',
      'audience',
      'redirect_uri',
      'state',
      'code_challenge',
      'code_challenge_method',
    ]) {
      expect(flow.url.searchParams.get(k), k).toBeTruthy();
    }
    expect(p.response_type).toBe('code');
    expect(p.scope).toBe('openid');
    expect(p.audience).toBe(AUDIENCE);
    expect(flow.state.length).toBeGreaterThanOrEqual(16);
    expect((await authorizeParams()).state).not.toBe(flow.state);
    expect(p.code_challenge).toBe(createHash('sha256').update(flow.verifier).digest('base64url'));
    expect(p.code_challenge_method).toBe('S256');
    expect(flow.url.searchParams.has('prompt')).toBe(false);
  });

  it('SIGN-020 SIGN-021 the code is exchanged by a form POST with grant_type, client_id, code, redirect_uri and code_verifier', () => {
    const req = tokenRequests.at(-1);
    expect(req?.contentType).toContain('application/x-www-form-urlencoded');
    expect(req?.form.get('grant_type')).toBe('authorization_code');
    expect(req?.form.get('client_id')).toBe(WEB);
    expect(req?.form.get('code')).toBe(flow.callback.searchParams.get('code'));
    expect(req?.form.get('redirect_uri')).toBe(REDIRECT);
    expect(req?.form.get('code_verifier')).toBe(flow.verifier);
  });

  it('SIGN-001 SIGN-002 SIGN-022 SIGN-023 SIGN-025 SIGN-027 SIGN-062 the access token is a JWT from the issuer, verified by the JWKS, one hour, for the platform audience, with no refresh token and no personal claims', async () => {
    expect(tokens.access_token.split('.')).toHaveLength(3);
    const jwks = createRemoteJWKSet(new URL(`${h.issuer}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: h.issuer,
      audience: AUDIENCE,
    });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload.iss).toBe(h.issuer);
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
    expect(payload.aud).toBe(AUDIENCE);
    expect(tokens.refresh_token).toBeUndefined();
    for (const claim of ['email', 'email_verified', 'name', 'given_name', 'family_name', 'roles', 'grants', 'role']) {
      expect(payload, claim).not.toHaveProperty(claim);
    }
  });

  it('SIGN-024 SIGN-048 SIGN-049 SIGN-060 the token opens GET /v1/me/profile on the sign-in host and its sub is the fid there', async () => {
    const res = await h.app.inject({
      url: '/v1/me/profile',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.statusCode).toBe(200);
    const profile = res.json().payload.data;
    expect(profile.fid).toBe(decodeJwt(tokens.access_token).sub);
    expect(profile.fid).toBe(fid(CONTROLLER));
    expect(profile.email).toBe(CONTROLLER);
  });

  it('SIGN-061 SIGN-064 the same token is accepted by the accounting service, which acts as the person (sub)', async () => {
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const read = await accounting.inject({ url: '/v1/accounts', headers });
    expect(read.statusCode).toBe(200);
    const created = await accounting.inject({
      method: 'POST',
      url: '/v1/legal-entities',
      headers: { ...headers, 'idempotency-key': 'e2e-entity-1' },
      payload: { data: { name: 'Token Holdings', chart_code: 'US', status: 'active' } },
    });
    expect(created.statusCode).toBe(201);
    const row = await accountingDb.db
      .selectFrom('legal_entities')
      .select('created_by')
      .where('id', '=', created.json().payload.data.id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe(decodeJwt(tokens.access_token).sub);
  });

  it('SIGN-026 SIGN-063 the id_token is there for sign-out only: services refuse it with 401', async () => {
    expect(tokens.id_token).toBeTruthy();
    const headers = { authorization: `Bearer ${tokens.id_token}` };
    expect((await h.app.inject({ url: '/v1/me/profile', headers })).statusCode).toBe(401);
    expect((await accounting.inject({ url: '/v1/accounts', headers })).statusCode).toBe(401);
  });

  it('SIGN-016 a second authorize during the session returns a code without the login page', async () => {
    const again = await signIn(browser);
    expect(again.sawLoginPage).toBe(false);
    expect(again.callback.searchParams.get('code')).toBeTruthy();
    expect((await exchange(again)).access_token).toBeTruthy();
  });

  it('SIGN-029 SIGN-030 sign-out with id_token_hint, a registered post_logout_redirect_uri and state ends the session', async () => {
    const state = client.randomState();
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: POST_LOGOUT,
      state,
    });
    expect(url.pathname).toBe('/oauth2/sessions/logout');
    for (const k of ['id_token_hint', 'post_logout_redirect_uri', 'state']) expect(url.searchParams.has(k)).toBe(true);
    const page = await browser.navigate(url.toString(), POST_LOGOUT);
    // The confirmation form submits itself in a browser; here the test submits it.
    const xsrf = inputValue(page.html ?? '', 'xsrf');
    expect(xsrf).toBeTruthy();
    const done = await browser.navigate(`${h.issuer}/oauth2/sessions/logout/confirm`, POST_LOGOUT, {
      xsrf: xsrf as string,
      logout: 'yes',
    });
    expect(done.callback?.toString().startsWith(POST_LOGOUT)).toBe(true);
    expect(done.callback?.searchParams.get('state')).toBe(state);
    // The session is over: the next authorize shows the login page again.
    expect((await signIn(browser)).sawLoginPage).toBe(true);
  });
});

describe('native apps and new tokens', () => {
  const MOBILE = 'platform-mobile';
  const MOBILE_REDIRECT = 'com.platform.mobile:/oauth2/callback';

  it('SIGN-018 SIGN-019 a native app signs in through the browser session and gets its code at its registered custom-scheme redirect', async () => {
    const browser = new Browser();
    await signIn(browser);
    // The system browser already holds the session from the web sign-in: no second login page.
    const a = await authorizeParams({ client_id: MOBILE, redirect_uri: MOBILE_REDIRECT });
    const r = await browser.navigate(a.url.toString(), MOBILE_REDIRECT);
    expect(r.callback?.protocol).toBe('com.platform.mobile:');
    expect(r.callback?.searchParams.get('code')).toBeTruthy();
    const mobile = await client.discovery(new URL(h.issuer), MOBILE, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const tokens = await client.authorizationCodeGrant(mobile, r.callback as URL, {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    expect(decodeJwt(tokens.access_token).sub).toBe(fid(CONTROLLER));
  });

  it('SIGN-028 there is no refresh grant: a new access token comes from repeating the authorization step', async () => {
    const browser = new Browser();
    const first = await exchange(await signIn(browser));
    const refused = await fetch(`${h.issuer}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: WEB, refresh_token: 'anything' }),
    });
    expect(refused.status).toBe(400);
    const again = await signIn(browser);
    expect(again.sawLoginPage).toBe(false);
    const second = await exchange(again);
    expect(second.access_token).not.toBe(first.access_token);
  });

  it('13.3 SIGN-027 SIGN-040 discovery lists no refresh_token grant and the token endpoint has none', async () => {
    const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as {
      grant_types_supported: string[];
    };
    expect(discovery.grant_types_supported).not.toContain('refresh_token');
    expect(discovery.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials']),
    );
    expect(config.serverMetadata().grant_types_supported).not.toContain('refresh_token');
    const refused = await fetch(`${h.issuer}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: WEB, refresh_token: 'anything' }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });
});

describe('refusals', () => {
  const noCode = (r: { callback?: URL }) => expect(r.callback?.searchParams.get('code') ?? null).toBeNull();
  /** An authorize with these changes comes back to the client with `error` and no code. */
  const refusedWith = async (overrides: Record<string, string>, error: string) => {
    const r = await new Browser().navigate((await authorizeParams(overrides)).url.toString(), REDIRECT);
    noCode(r);
    expect(r.callback?.searchParams.get('error')).toBe(error);
    return r;
  };

  it.each([
    'client_id',
    'response_type',
    'scope',
    'audience',
    'redirect_uri',
    'state',
    'code_challenge',
    'code_challenge_method',
  ])('SIGN-007 an authorize request without %s yields no code', async (param) => {
    const browser = new Browser();
    const a = await authorizeParams({ [param]: undefined });
    const r = await browser.navigate(a.url.toString(), REDIRECT);
    noCode(r);
    if (r.callback) expect(r.callback.searchParams.get('error')).toBeTruthy();
    else expect(r.status).toBe(400);
  });

  it('SIGN-011 a state under 16 characters is refused', async () => {
    const r = await refusedWith({ state: 'short-state-123' }, 'invalid_request');
    expect(r.callback?.searchParams.get('error_description')).toContain('16');
  });

  it('SIGN-013 code_challenge_method=plain is refused', async () => {
    await refusedWith({ code_challenge_method: 'plain' }, 'invalid_request');
  });

  it('SIGN-010 an audience other than the platform audience is refused', async () => {
    await refusedWith({ audience: 'urn:other:api' }, 'invalid_target');
  });

  it('SIGN-014 prompt=none does not work', async () => {
    const browser = new Browser();
    await signIn(browser);
    const r = await browser.navigate((await authorizeParams({ prompt: 'none' })).url.toString(), REDIRECT);
    noCode(r);
    expect(r.callback?.searchParams.get('error')).toBe('login_required');
  });

  it('SIGN-042 an authorize with a redirect_uri not exactly registered yields no code and no redirect', async () => {
    for (const redirect of [
      `${REDIRECT}/`,
      `${REDIRECT}?x=1`,
      'http://127.0.0.1:5174/callback',
      'http://localhost:5173/callback',
    ]) {
      const r = await new Browser().navigate(
        (await authorizeParams({ redirect_uri: redirect })).url.toString(),
        'http://',
      );
      expect(r.callback, redirect).toBeUndefined();
      expect(r.status).toBe(400);
    }
  });

  it('an unknown client yields no code and no redirect', async () => {
    const r = await new Browser().navigate(
      (await authorizeParams({ client_id: 'no-such-client' })).url.toString(),
      'http://',
    );
    expect(r.callback).toBeUndefined();
    expect(r.status).toBe(400);
  });

  it('SIGN-047 a client that is not first-party is refused consent: no code', async () => {
    const browser = new Browser();
    await signIn(browser);
    const a = await authorizeParams({ client_id: THIRD_PARTY, redirect_uri: 'http://127.0.0.1:7000/cb' });
    const r = await browser.navigate(a.url.toString(), 'http://127.0.0.1:7000/cb');
    noCode(r);
    expect(r.callback?.searchParams.get('error')).toBe('access_denied');
  });

  it('SIGN-017 a callback whose state differs from the stored one is rejected before any token request', async () => {
    const s = await signIn(new Browser());
    const before = tokenRequests.length;
    await expect(
      client.authorizationCodeGrant(config, s.callback, {
        pkceCodeVerifier: s.verifier,
        expectedState: client.randomState(),
      }),
    ).rejects.toThrow();
    expect(tokenRequests.length).toBe(before);
  });

  it('SIGN-012 the code_challenge is base64url(SHA-256(verifier)), so a wrong code_verifier gets no token', async () => {
    const s = await signIn(new Browser());
    await expect(exchange({ ...s, verifier: client.randomPKCECodeVerifier() })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('SIGN-030 an unregistered post_logout_redirect_uri is not redirected to', async () => {
    const browser = new Browser();
    const s = await signIn(browser);
    const tokens = await exchange(s);
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: 'http://127.0.0.1:9999/evil',
      state: client.randomState(),
    });
    const r = await browser.navigate(url.toString(), 'http://127.0.0.1:9999');
    expect(r.callback).toBeUndefined();
    expect(r.status).toBe(400);
  });

  it('SIGN-068 an expired access token is refused with 401', async () => {
    const expired = await signAccessToken(h.keys.signing[0] as JWK, {
      issuer: h.issuer,
      audience: AUDIENCE,
      sub: fid(CONTROLLER),
      iatOffset: -7200,
    });
    const headers = { authorization: `Bearer ${expired}` };
    expect((await h.app.inject({ url: '/v1/me/profile', headers })).statusCode).toBe(401);
    expect((await accounting.inject({ url: '/v1/accounts', headers })).statusCode).toBe(401);
  });

  it('SIGN-069 a token for another audience is refused with 401', async () => {
    const other = await signAccessToken(h.keys.signing[0] as JWK, {
      issuer: h.issuer,
      audience: 'urn:other:api',
      sub: fid(CONTROLLER),
    });
    expect(decodeProtectedHeader(other).typ).toBe('at+jwt');
    const headers = { authorization: `Bearer ${other}` };
    expect((await h.app.inject({ url: '/v1/me/profile', headers })).statusCode).toBe(401);
    expect((await accounting.inject({ url: '/v1/accounts', headers })).statusCode).toBe(401);
  });

  it('SIGN-067 no token is 401', async () => {
    expect((await h.app.inject({ url: '/v1/me/profile' })).statusCode).toBe(401);
    expect((await accounting.inject({ url: '/v1/accounts' })).statusCode).toBe(401);
  });
});

describe('the shared service token at a service', () => {
  it('SIGN-072 a service call with X-Platform-On-Behalf-Of acts for the named person: the write is attributed to them', async () => {
    const created = await accounting.inject({
      method: 'POST',
      url: '/v1/legal-entities',
      headers: {
        'x-platform-service-token': SERVICE_TOKEN,
        'x-platform-on-behalf-of': fid(CONTROLLER),
        'idempotency-key': 'e2e-entity-on-behalf',
      },
      payload: { data: { name: 'On Behalf Holdings', chart_code: 'US', status: 'active' } },
    });
    expect(created.statusCode).toBe(201);
    const row = await accountingDb.db
      .selectFrom('legal_entities')
      .select('created_by')
      .where('id', '=', created.json().payload.data.id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe(fid(CONTROLLER));
  });

  it('SIGN-071 outside local development the dev header alone is 401', async () => {
    const r = await accounting.inject({ url: '/v1/accounts', headers: { 'x-dev-principal': CONTROLLER } });
    expect(r.statusCode).toBe(401);
  });
});

describe('client_credentials for services', () => {
  it('SIGN-036 SIGN-053 SIGN-061 a service token names the client; the profile refuses it (403); authz/me answers for it', async () => {
    const svc = await client.discovery(new URL(h.issuer), 'payments', 'local-secret-payments', undefined, {
      execute: [client.allowInsecureRequests],
    });
    const tokens = await client.clientCredentialsGrant(svc);
    const claims = decodeJwt(tokens.access_token);
    expect(claims.sub).toBe('payments');
    expect(claims.aud).toBe(AUDIENCE);
    expect(tokens.refresh_token).toBeUndefined();
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    expect((await h.app.inject({ url: '/v1/me/profile', headers })).statusCode).toBe(403);
    const authz = await h.app.inject({ url: '/v1/authz/me', headers });
    expect(authz.json().payload.data).toMatchObject({ fid: 'service:payments', kind: 'service' });
    // Accounting's policy names the Payments service: it may read journal entries.
    expect((await accounting.inject({ url: '/v1/journal-entries', headers })).statusCode).not.toBe(401);
  });

  it('14.14 SIGN-038 a client_credentials token carries scope openid whether or not the request named it, as decisions.md lists', async () => {
    const svc = await client.discovery(new URL(h.issuer), 'payments', 'local-secret-payments', undefined, {
      execute: [client.allowInsecureRequests],
    });
    const without = await client.clientCredentialsGrant(svc);
    expect(decodeJwt(without.access_token).scope).toBe('openid');
    expect(without.scope).toBe('openid');
    const named = await client.clientCredentialsGrant(svc, { scope: 'openid' });
    expect(decodeJwt(named.access_token).scope).toBe('openid');
  });

  it('a wrong client secret gets no token', async () => {
    const svc = await client.discovery(new URL(h.issuer), 'payments', 'wrong-secret', undefined, {
      execute: [client.allowInsecureRequests],
    });
    await expect(client.clientCredentialsGrant(svc)).rejects.toMatchObject({ error: 'invalid_client' });
  });
});
