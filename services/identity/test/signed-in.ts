import * as client from 'openid-client';
import { Browser } from './browser.ts';
import { AUDIENCE } from './harness.ts';

/** The local first-party web app of config/clients/local.json and its registered callback. */
const WEB = 'platform-web';
const REDIRECT = 'http://127.0.0.1:5173/callback';

const discover = (issuer: string, clientId: string, secret?: string) =>
  client.discovery(new URL(issuer), clientId, secret, secret === undefined ? client.None() : undefined, {
    execute: [client.allowInsecureRequests],
  });

/**
 * A person's platform access token, obtained as a client app built on the sign-in contract gets
 * it: authorization code with PKCE through openid-client against identity on its real port,
 * signed in on identity's own page as a dev principal (identityHarness seeds them).
 */
export async function signedInAccessToken(issuer: string, email: string): Promise<string> {
  const config = await discover(issuer, WEB);
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
  const browser = new Browser();
  const login = await browser.navigate(url.toString(), REDIRECT);
  const uid = login.url.split('/interaction/')[1];
  const done = login.callback ? login : await browser.navigate(`${issuer}/interaction/${uid}/dev`, REDIRECT, { email });
  if (!done.callback) throw new Error(`sign-in as ${email} did not reach the callback (${done.status})`);
  const tokens = await client.authorizationCodeGrant(config, done.callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return tokens.access_token;
}

/** A platform service's access token (client_credentials): `payments` of the local client file. */
export async function serviceAccessToken(issuer: string): Promise<string> {
  const config = await discover(issuer, 'payments', 'local-secret-payments');
  return (await client.clientCredentialsGrant(config)).access_token;
}
