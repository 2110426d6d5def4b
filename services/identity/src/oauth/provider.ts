import Provider, { type ClientMetadata, type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../store/db.ts';
import { oidcAdapterFactory } from '../store/oidc-adapter.ts';
import type { KeyMaterial } from './keys.ts';
import { page } from './pages.ts';

/** Where the contract puts the OAuth 2.0 endpoints (spec 2, "Client sign-in contract"). */
export const ROUTES = {
  authorization: '/oauth2/auth',
  token: '/oauth2/token',
  end_session: '/oauth2/sessions/logout',
  jwks: '/.well-known/jwks.json',
  userinfo: '/oauth2/userinfo',
  revocation: '/oauth2/revoke',
  introspection: '/oauth2/introspect',
} as const;

export const ACCESS_TOKEN_TTL = 3600;
const MIN_STATE = 16;

export interface ProviderOptions {
  issuer: string;
  /** The one platform audience every access token is for. */
  audience: string;
  clients: ClientMetadata[];
  keys: KeyMaterial;
  db: Db;
  sessionTtlSeconds: number;
  /** Whether a person with this FID exists (the token's sub must name one). */
  personExists: (fid: string) => Promise<boolean>;
}

/**
 * A client_credentials request that names no scope gets the client's registered one (`openid`,
 * SIGN-038), the pre-defined default RFC 6749 section 3.3 allows, so every access token carries the
 * same claims. oidc-provider resolves the resource before it reads the requested scopes, and this
 * hook is the one place it calls in between.
 */
function defaultClientCredentialsScope(ctx: KoaContextWithOIDC) {
  const params = ctx.oidc?.params as { grant_type?: string; scope?: string } | undefined;
  if (ctx.oidc?.route !== 'token' || params?.grant_type !== 'client_credentials' || params.scope) return;
  const registered = ctx.oidc.client?.scope;
  if (registered) params.scope = registered;
}

const required = (name: string) => (_ctx: KoaContextWithOIDC, value: string | undefined) => {
  if (value === undefined || value === '') throw new errors.InvalidRequest(`missing required parameter '${name}'`);
};

/**
 * oidc-provider configured to the contract: authorization code + PKCE (S256) for people,
 * client_credentials for services, JWT access tokens for the one platform audience valid one hour,
 * no refresh tokens, no consent screen for first-party clients and consent refused for any other.
 */
export function createProvider(o: ProviderOptions): Provider {
  const firstParty = new Set(o.clients.filter((c) => c.first_party === true).map((c) => c.client_id));

  const configuration: Configuration = {
    adapter: oidcAdapterFactory(o.db),
    clients: o.clients,
    jwks: { keys: o.keys.signing as never },
    cookies: { keys: o.keys.cookies },
    routes: ROUTES,
    scopes: ['openid'],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    extraClientMetadata: { properties: ['first_party'] },
    /**
     * Every authorize parameter of the contract is required (SIGN-007); these run after the client
     * and redirect_uri are known good, so a refusal goes back to the client as error=invalid_request.
     */
    extraParams: {
      audience(ctx, value) {
        required('audience')(ctx, value);
        if (value !== o.audience) throw new errors.InvalidTarget('audience must be the platform audience');
      },
      state(ctx, value) {
        required('state')(ctx, value);
        if ((value as string).length < MIN_STATE) {
          throw new errors.InvalidRequest(`state must be at least ${MIN_STATE} characters`);
        }
      },
      code_challenge_method: required('code_challenge_method'),
      // oidc-provider fills in the only registered redirect URI when it is missing; the contract does not.
      redirect_uri(ctx) {
        const sent =
          ctx.method === 'POST' ? (ctx.oidc.body as Record<string, unknown>)?.redirect_uri : ctx.query.redirect_uri;
        required('redirect_uri')(ctx, typeof sent === 'string' ? sent : undefined);
      },
      scope: required('scope'),
      /** prompt=none does not work (spec 2): the client must never rely on it. */
      prompt(_ctx, value) {
        if (typeof value === 'string' && value.split(' ').includes('none')) {
          throw new errors.LoginRequired('prompt=none is not supported; send the person to sign in');
        }
      },
    },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      clientCredentials: { enabled: true },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // The contract names the audience `audience`; it is the resource of RFC 8707.
        defaultResource: async (ctx, _client, oneOf) => oneOf ?? (ctx.oidc.params?.audience as string) ?? o.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx, resource) => {
          if (resource !== o.audience) throw new errors.InvalidTarget('audience must be the platform audience');
          defaultClientCredentialsScope(ctx);
          return {
            scope: 'openid',
            audience: o.audience,
            accessTokenTTL: ACCESS_TOKEN_TTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        // The confirmation form submits itself: the id_token_hint already ties the request to the session.
        logoutSource: async (ctx, form) => {
          ctx.body = page(
            'Signing out',
            `${form}<p>Signing you out…</p><noscript><button form="op.logoutForm" name="logout" value="yes">Sign out</button></noscript>
<script>var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();</script>`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = page('Signed out', '<p>You are signed out.</p>');
        },
      },
    },
    // No issueRefreshToken here: oidc-provider registers (and advertises) the refresh_token grant
    // whenever that hook is replaced. Its default issues one only to a client holding the
    // refresh_token grant with offline_access, and no client may hold either (SIGN-039, SIGN-040).
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL,
      Interaction: 600,
      Session: o.sessionTtlSeconds,
      Grant: o.sessionTtlSeconds,
    },
    findAccount: async (_ctx, sub) =>
      (await o.personExists(sub)) ? { accountId: sub, claims: async () => ({ sub }) } : undefined,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    /**
     * Consent is accepted on the server for first-party clients (no consent screen); any other
     * client gets no grant here, so the interaction asks for consent and is refused.
     */
    loadExistingGrant: async (ctx) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (!firstParty.has(client.clientId)) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid');
      grant.addResourceScope(o.audience, 'openid');
      await grant.save();
      return grant;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<p><strong>${escapeHtml(out.error)}</strong></p><p>${escapeHtml(out.error_description ?? '')}</p>`,
      );
    },
    clientBasedCORS: (_ctx, origin, client) =>
      [...(client.redirectUris ?? []), ...(client.postLogoutRedirectUris ?? [])].some((u) => {
        try {
          return new URL(u).origin === origin;
        } catch {
          return false;
        }
      }),
  };

  const provider = new Provider(o.issuer, configuration);
  // Behind a TLS-terminating proxy the issuer is https while the socket is http.
  provider.proxy = true;
  return provider;
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
