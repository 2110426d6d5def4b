import {
  type Authenticator,
  authenticatorFromConfig,
  createServiceApp,
  type Database,
  type PolicyInputs,
} from '@platform/kit';
import { createLocalJWKSet } from 'jose';
import type { ClientMetadata } from 'oidc-provider';
import { roleMatrix } from './domain/roles.ts';
import { events } from './events.ts';
import { type GatewayIssuer, gatewayIssuer } from './oauth/gateway.ts';
import { type KeyMaterial, publicJwk } from './oauth/keys.ts';
import { createProvider } from './oauth/provider.ts';
import { type UpstreamSettings, UpstreamSignIn } from './oauth/upstream.ts';
import type { RouteDeps } from './routes/deps.ts';
import { gatewayRoutes } from './routes/gateway.ts';
import { interactionRoutes } from './routes/interactions.ts';
import { meRoutes } from './routes/me.ts';
import { peopleRoutes } from './routes/people.ts';
import { principalRoutes } from './routes/principals.ts';
import { UPSTREAM_CALLBACK_PATH, upstreamRoutes } from './routes/upstream.ts';
import type { DB } from './store/db.ts';
import { dbDirectory } from './store/directory.ts';
import { findPerson } from './store/people.ts';

export interface IdentityDeps {
  database: Database<DB>;
  /** Exact issuer string (SIGN-003): locally http://127.0.0.1:4100. */
  issuer: string;
  audience: string;
  /** Registered clients, already checked against the registration rules. */
  clients: ClientMetadata[];
  keys: KeyMaterial;
  sessionTtlSeconds?: number;
  /** Application audiences the local access-gateway stand-in serves; none: no stand-in. */
  gatewayAudiences?: string[];
  serviceToken?: string;
  serviceTokenPrevious?: string;
  devAuth?: boolean;
  /**
   * Per service, what its policy names but cannot hold (vendors' editors list), so authz/me answers
   * as the service does: `policyInputs` over the configuration `policyConfig` reads.
   */
  policyInputs?: Record<string, PolicyInputs>;
  /** Local mode: one-click sign-in for these people (the seeded dev principals). */
  devPeople?: () => Promise<{ email: string; label: string }[]>;
  /** An upstream OpenID provider people may sign in with (UPSTREAM_OIDC_*). */
  upstream?: UpstreamSettings;
  /** Tests may replace the authenticator; by default identity trusts its own keys and store. */
  authenticator?: Authenticator;
  clock?: () => Date;
  logLevel?: string;
}

const OIDC_PATHS = ['/oauth2/', '/.well-known/'];

export async function buildApp(deps: IdentityDeps) {
  const provider = createProvider({
    issuer: deps.issuer,
    audience: deps.audience,
    clients: deps.clients,
    keys: deps.keys,
    db: deps.database.db,
    sessionTtlSeconds: deps.sessionTtlSeconds ?? 8 * 3600,
    personExists: async (fid) => Boolean(await findPerson(deps.database.db, fid)),
  });
  const oidc = provider.callback();
  let gateway: GatewayIssuer | undefined;
  if (deps.gatewayAudiences?.length) {
    gateway = gatewayIssuer({
      issuer: `${deps.issuer}/gateway`,
      keys: deps.keys.gateway,
      audiences: deps.gatewayAudiences,
    });
  }
  // Identity verifies its own tokens with its own keys and resolves grants from its own store.
  const authenticator =
    deps.authenticator ??
    authenticatorFromConfig(
      {
        DEV_AUTH: deps.devAuth ?? false,
        AUTH_ISSUER: deps.issuer,
        PLATFORM_AUDIENCE: deps.audience,
        SERVICE_TOKEN: deps.serviceToken,
        SERVICE_TOKEN_PREVIOUS: deps.serviceTokenPrevious,
        GRANTS_CACHE_MS: 0,
      },
      {
        directory: dbDirectory(deps.database.db),
        jwks: createLocalJWKSet({ keys: deps.keys.signing.map(publicJwk) }),
      },
    );
  const routeDeps: RouteDeps = {
    database: deps.database,
    clock: deps.clock ?? (() => new Date()),
    events,
    gateway,
    matrix: roleMatrix(deps.policyInputs),
  };
  const upstream = deps.upstream
    ? new UpstreamSignIn(deps.upstream, `${deps.issuer}${UPSTREAM_CALLBACK_PATH}`, deps.database.db)
    : undefined;

  const app = await createServiceApp({
    service: 'identity',
    title: 'Identity',
    description:
      'Sign-in (OAuth 2.0 authorization server: /oauth2/auth, /oauth2/token, /oauth2/sessions/logout, ' +
      '/.well-known/jwks.json, /.well-known/openid-configuration), profile, what-may-I-do, people and grants',
    database: deps.database,
    authenticator,
    logLevel: deps.logLevel,
    rawHandler: (req, res) => {
      const path = req.url ?? '';
      if (!OIDC_PATHS.some((p) => path.startsWith(p))) return false;
      oidc(req, res);
      return true;
    },
    routes: (app) => {
      app.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      interactionRoutes(app, {
        provider,
        database: deps.database,
        devPeople: deps.devPeople,
        upstreamName: upstream?.settings.name,
      });
      if (upstream) upstreamRoutes(app, { provider, database: deps.database, upstream, clock: routeDeps.clock });
      for (const routes of [meRoutes, peopleRoutes, principalRoutes, gatewayRoutes]) routes(app, routeDeps);
    },
  });
  return Object.assign(app, { provider });
}
