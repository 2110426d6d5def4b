import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/kit';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIENCE, CONTROLLER, fid, identityHarness, STAFF } from './harness.ts';
import { startUpstream } from './upstream-provider.ts';

/**
 * The sign-in page in a real browser: Debian's chromium driven by playwright-core (which never
 * downloads a browser). CI must have it; elsewhere the file skips and says why.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && (process.env.CI === 'true' || process.env.REQUIRE_REAL_INFRA === '1')) {
  throw new Error(`the browser test needs chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}
if (!haveChromium) console.warn(`skipping the browser sign-in test: no chromium at ${CHROMIUM}`);

/** The README's screenshot; rewritten only on request, so a test run never changes the tree. */
const SCREENSHOT = fileURLToPath(new URL('../../../docs/sign-in.png', import.meta.url));
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

const WEB = 'platform-web';
const REDIRECT = 'http://127.0.0.1:5173/callback';

describe.skipIf(!haveChromium)('the sign-in page in a real browser', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let h: Awaited<ReturnType<typeof identityHarness>>;
  let config: client.Configuration;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    upstream = await startUpstream(`http://127.0.0.1:${port}/upstream/callback`);
    upstream.accounts.set('u-staff', { email: STAFF, email_verified: true });
    h = await identityHarness({ port, upstream: upstream.settings });
    config = await client.discovery(new URL(h.issuer), WEB, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await upstream?.close();
  });

  /**
   * Opens the client's authorize URL in a fresh browser context and answers for the client's
   * redirect_uri (nothing listens there): the returned promise is the URL the browser was sent to.
   */
  async function openSignIn() {
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
    const context = await browser.newContext({ viewport: { width: 640, height: 820 } });
    const page = await context.newPage();
    const callback = new Promise<URL>((resolve) => {
      void page.route(`${REDIRECT}**`, async (route) => {
        resolve(new URL(route.request().url()));
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Signed in.</p>' });
      });
    });
    await page.goto(url.toString());
    return { page, callback, verifier, state, close: () => context.close() };
  }

  const exchange = (callback: URL, s: { verifier: string; state: string }) =>
    client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: s.verifier, expectedState: s.state });

  const screenshot = async (page: Page) => {
    if (UPDATE_SCREENSHOTS) await page.screenshot({ path: SCREENSHOT, fullPage: true });
  };

  it('13.9 the sign-in page works in a real browser: one click on a dev principal and the client receives a code', async () => {
    const s = await openSignIn();
    try {
      await s.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await s.page.title()).toBe('Sign in');
      await s.page.getByLabel('Password').waitFor();
      await screenshot(s.page);
      await s.page.getByRole('button', { name: new RegExp(CONTROLLER.replace('.', '\\.')) }).click();
      const callback = await s.callback;
      expect(callback.origin + callback.pathname).toBe(REDIRECT);
      expect(callback.searchParams.get('state')).toBe(s.state);
      expect(callback.searchParams.get('code')).toBeTruthy();
      const tokens = await exchange(callback, s);
      expect(decodeJwt(tokens.access_token).sub).toBe(fid(CONTROLLER));
    } finally {
      await s.close();
    }
  });

  it('13.9 upstream sign-in works in a real browser: the button, the upstream page, back with a code', async () => {
    const s = await openSignIn();
    try {
      await s.page.getByRole('button', { name: 'Sign in with Example SSO' }).click();
      await s.page.getByRole('heading', { name: 'Upstream sign-in' }).waitFor();
      await s.page.getByRole('button', { name: 'u-staff' }).click();
      const callback = await s.callback;
      expect(callback.searchParams.get('state')).toBe(s.state);
      const tokens = await exchange(callback, s);
      expect(decodeJwt(tokens.access_token).sub).toBe(fid(STAFF));
    } finally {
      await s.close();
    }
  });
});
