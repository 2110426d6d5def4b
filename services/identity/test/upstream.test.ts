import { ConfigError, freePort } from '@platform/kit';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityConfig } from '../src/config.ts';
import { Browser } from './browser.ts';
import { AUDIENCE, CONTROLLER, fid, identityHarness, STAFF } from './harness.ts';
import { startUpstream } from './upstream-provider.ts';

const WEB = 'platform-web';
const REDIRECT = 'http://127.0.0.1:5173/callback';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let h: Awaited<ReturnType<typeof identityHarness>>;
let config: client.Configuration;

beforeAll(async () => {
  // The upstream registers identity's callback exactly, so identity's port is chosen first.
  const port = await freePort();
  upstream = await startUpstream(`http://127.0.0.1:${port}/upstream/callback`);
  h = await identityHarness({ port, upstream: upstream.settings });
  config = await client.discovery(new URL(h.issuer), WEB, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await upstream?.close();
});

async function authorize() {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid',
    audience: AUDIENCE,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, verifier, state };
}

/**
 * A person opens the client's authorize URL, presses "Sign in with Example SSO", and at the
 * upstream signs in as `sub` (empty: refuses there). Ends at the client's callback or on a page.
 */
async function viaUpstream(sub: string, browser = new Browser(), stopAt = REDIRECT) {
  const a = await authorize();
  const login = await browser.navigate(a.url.toString(), REDIRECT);
  expect(login.html).toContain('Sign in with Example SSO');
  const uid = login.url.split('/interaction/')[1];
  const there = await browser.navigate(`${h.issuer}/interaction/${uid}/upstream`, REDIRECT, {});
  expect(there.url.startsWith(`${upstream.issuer}/interaction/`)).toBe(true);
  expect(there.html).toContain('Upstream sign-in');
  const back = await browser.navigate(`${there.url}/login`, stopAt, { sub });
  return { ...a, back, browser, uid };
}

const tokenFor = async (s: Awaited<ReturnType<typeof viaUpstream>>) =>
  client.authorizationCodeGrant(config, s.back.callback as URL, {
    pkceCodeVerifier: s.verifier,
    expectedState: s.state,
  });

const links = async (sub: string) =>
  h.database.db.selectFrom('upstream_identities').selectAll().where('sub', '=', sub).execute();

describe('sign-in through the upstream OpenID provider', () => {
  it('13.9 SIGN-005 SIGN-024 a verified email at the upstream signs in the person with that email: code at the redirect_uri, token for their FID', async () => {
    upstream.accounts.set('u-staff', { email: 'Staff@Dev.Local', email_verified: true });
    const s = await viaUpstream('u-staff');
    expect(s.back.callback?.searchParams.get('state')).toBe(s.state);
    const tokens = await tokenFor(s);
    expect(decodeJwt(tokens.access_token).sub).toBe(fid(STAFF));
    // The link is stored under the upstream's issuer and subject.
    expect(await links('u-staff')).toMatchObject([{ issuer: upstream.issuer, sub: 'u-staff', fid: fid(STAFF) }]);
    // The sign-in left a session at identity: the next authorize needs no page at all.
    const again = await s.browser.navigate((await authorize()).url.toString(), REDIRECT);
    expect(again.callback?.searchParams.get('code')).toBeTruthy();
  });

  it('13.9 a later sign-in finds the person by the stored upstream subject, even after the email changed there', async () => {
    upstream.accounts.set('u-staff', { email: 'someone.else@example.com', email_verified: false });
    const s = await viaUpstream('u-staff');
    expect(decodeJwt((await tokenFor(s)).access_token).sub).toBe(fid(STAFF));
  });

  it('13.9 an email the upstream has not verified is refused with a page saying so: no code, no session, no link', async () => {
    upstream.accounts.set('u-unverified', { email: CONTROLLER, email_verified: false });
    const s = await viaUpstream('u-unverified');
    expect(s.back.callback).toBeUndefined();
    expect(s.back.status).toBe(403);
    expect(s.back.html).toContain(`Example SSO has not verified your email address ${CONTROLLER}`);
    expect(await links('u-unverified')).toEqual([]);
    // No session: the next authorize in the same browser shows the sign-in page again.
    const next = await s.browser.navigate((await authorize()).url.toString(), REDIRECT);
    expect(next.callback).toBeUndefined();
    expect(next.html).toContain('Sign in with Example SSO');
  });

  it('13.9 a person unknown here is refused with a page naming the email; nobody is created', async () => {
    upstream.accounts.set('u-stranger', { email: 'stranger@example.com', email_verified: true });
    const s = await viaUpstream('u-stranger');
    expect(s.back.status).toBe(403);
    expect(s.back.html).toContain('There is no one with the email address stranger@example.com here');
    expect(await links('u-stranger')).toEqual([]);
    const person = await h.database.db
      .selectFrom('people')
      .select('fid')
      .where('email', '=', 'stranger@example.com')
      .executeTakeFirst();
    expect(person).toBeUndefined();
  });

  it('13.9 an upstream account without an email is refused', async () => {
    upstream.accounts.set('u-no-email', {});
    const s = await viaUpstream('u-no-email');
    expect(s.back.status).toBe(403);
    expect(s.back.html).toContain('did not tell us your email address');
  });

  it('13.9 a second upstream account with the email of a person already linked is refused', async () => {
    upstream.accounts.set('u-staff-again', { email: STAFF, email_verified: true });
    const s = await viaUpstream('u-staff-again');
    expect(s.back.status).toBe(403);
    expect(s.back.html).toContain('already signs in here with another Example SSO account');
    expect(await links('u-staff-again')).toEqual([]);
  });

  it('13.9 a refusal at the upstream comes back as a page, not a code', async () => {
    const s = await viaUpstream('');
    expect(s.back.callback).toBeUndefined();
    expect(s.back.status).toBe(400);
    expect(s.back.html).toContain('Example SSO did not sign you in');
  });

  it("13.9 the upstream's answer finishes only the browser that started the sign-in, and only once", async () => {
    upstream.accounts.set('u-controller', { email: CONTROLLER, email_verified: true });
    const s = await viaUpstream('u-controller', new Browser(), `${h.issuer}/upstream/callback`);
    const answer = s.back.callback as URL;
    expect(answer.searchParams.get('code')).toBeTruthy();
    // Another browser (without this sign-in's cookie) gets nowhere with it, and uses nothing up.
    const stranger = await new Browser().navigate(answer.toString(), REDIRECT);
    expect(stranger.callback).toBeUndefined();
    expect(stranger.status).toBe(400);
    expect(stranger.html).toContain('expired');
    // The browser that started it finishes the sign-in.
    const done = await s.browser.navigate(answer.toString(), REDIRECT);
    const tokens = await client.authorizationCodeGrant(config, done.callback as URL, {
      pkceCodeVerifier: s.verifier,
      expectedState: s.state,
    });
    expect(decodeJwt(tokens.access_token).sub).toBe(fid(CONTROLLER));
    // Replayed, the same answer signs nobody in.
    const replay = await new Browser().navigate(answer.toString(), REDIRECT);
    expect(replay.callback).toBeUndefined();
    expect(replay.status).toBe(400);
  });
});

describe('upstream settings', () => {
  const base = { UPSTREAM_OIDC_CLIENT_ID: 'platform', UPSTREAM_OIDC_CLIENT_SECRET: 'secret' };

  it('13.9 the issuer, client id and secret go together; plain http only on a loopback IP', () => {
    expect(identityConfig({}).upstream).toBeUndefined();
    expect(
      identityConfig({ ...base, UPSTREAM_OIDC_ISSUER: 'https://login.example.com', UPSTREAM_OIDC_NAME: 'Example' })
        .upstream,
    ).toEqual({ issuer: 'https://login.example.com', clientId: 'platform', clientSecret: 'secret', name: 'Example' });
    expect(() => identityConfig({ UPSTREAM_OIDC_ISSUER: 'https://login.example.com' })).toThrow(
      /UPSTREAM_OIDC_CLIENT_ID is required/,
    );
    expect(() => identityConfig({ ...base })).toThrow(/UPSTREAM_OIDC_ISSUER is not/);
    expect(() => identityConfig({ ...base, UPSTREAM_OIDC_ISSUER: 'http://login.example.com' })).toThrow(ConfigError);
    expect(identityConfig({ ...base, UPSTREAM_OIDC_ISSUER: 'http://127.0.0.1:9000' }).upstream?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
  });

  it('13.9 an upstream that cannot be reached is a page saying so (502), and the password form still works', async () => {
    const down = await identityHarness({
      upstream: { issuer: `http://127.0.0.1:${await freePort()}`, clientId: 'x', clientSecret: 'y', name: 'Down SSO' },
    });
    try {
      const browser = new Browser();
      const a = await authorize();
      const login = await browser.navigate(a.url.toString().replace(h.issuer, down.issuer), REDIRECT);
      const uid = login.url.split('/interaction/')[1];
      const r = await browser.navigate(`${down.issuer}/interaction/${uid}/upstream`, REDIRECT, {});
      expect(r.status).toBe(502);
      expect(r.html).toContain('Down SSO cannot be reached');
      const dev = await browser.navigate(`${down.issuer}/interaction/${uid}/dev`, REDIRECT, { email: STAFF });
      expect(dev.callback?.searchParams.get('code')).toBeTruthy();
    } finally {
      await down.close();
    }
  });
});
