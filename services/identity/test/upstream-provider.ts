import { createServer } from 'node:http';
import { freePort } from '@platform/kit';
import Provider from 'oidc-provider';
import { newKeyMaterial } from '../src/oauth/keys.ts';
import { escapeHtml } from '../src/oauth/provider.ts';

export const UPSTREAM_CLIENT_ID = 'platform-identity';
export const UPSTREAM_CLIENT_SECRET = 'upstream-test-secret';

export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
}

/**
 * A second oidc-provider standing in for the organization's OpenID provider: one confidential
 * client (identity, at its callback), PKCE, the openid and email scopes, and a sign-in page that
 * lists the test's accounts, one button each, plus a refusal. Email claims come from userinfo, as
 * from most providers with the code flow. `accounts` may be changed between sign-ins.
 */
export async function startUpstream(redirectUri: string) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const keys = await newKeyMaterial();
  const accounts = new Map<string, UpstreamAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: UPSTREAM_CLIENT_ID,
        client_secret: UPSTREAM_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: keys.signing as never },
    cookies: { keys: keys.cookies },
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    findAccount: async (_ctx, sub) =>
      accounts.has(sub) ? { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) } : undefined,
    // The organization's own app: no consent screen.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const oidc = provider.callback();

  const server = createServer(async (req, res) => {
    const m = req.url?.match(/^\/interaction\/([^/?]+)(\/login)?$/);
    if (!m) return oidc(req, res);
    try {
      if (!m[2]) {
        const d = await provider.interactionDetails(req, res);
        const buttons = [...accounts.keys()]
          .map((sub) => `<button name="sub" value="${escapeHtml(sub)}">${escapeHtml(sub)}</button>`)
          .join('');
        res.setHeader('content-type', 'text/html');
        res.end(
          `<!doctype html><title>Upstream sign-in</title><h1>Upstream sign-in</h1><form method="post" action="/interaction/${d.uid}/login">${buttons}<button name="sub" value="">Refuse</button></form>`,
        );
        return;
      }
      let body = '';
      for await (const chunk of req) body += chunk;
      const sub = new URLSearchParams(body).get('sub');
      await provider.interactionFinished(
        req,
        res,
        sub
          ? { login: { accountId: sub } }
          : { error: 'access_denied', error_description: 'the person refused at the upstream' },
        { mergeWithLastSubmission: false },
      );
    } catch (e) {
      res.statusCode = 400;
      res.end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    accounts,
    settings: { issuer, clientId: UPSTREAM_CLIENT_ID, clientSecret: UPSTREAM_CLIENT_SECRET, name: 'Example SSO' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
