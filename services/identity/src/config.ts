import { fileURLToPath } from 'node:url';
import {
  authConfig,
  ConfigError,
  commonConfig,
  flag,
  int,
  loadConfig,
  optionalStr,
  policyConfig,
  port,
  str,
  url,
} from '@platform/kit';
import { POLICIES } from '@platform/policies';

export const DEFAULT_PORT = 4100;
export const DEFAULT_CLIENTS_DIR = fileURLToPath(new URL('../../../config/clients', import.meta.url));

/**
 * Identity's configuration. The issuer is compared exactly everywhere (SIGN-003), so it is one
 * setting; locally it is the loopback IP, never a host name (SIGN-004).
 */
export const identityConfig = (env: Record<string, string | undefined> = process.env) => {
  const c = loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_IDENTITY: port(DEFAULT_PORT),
    /** Which client definition file to load: config/clients/<CLIENTS_ENV>.json. */
    CLIENTS_ENV: str('local'),
    CLIENTS_DIR: str(DEFAULT_CLIENTS_DIR),
    /** Signing keys as a JWKS JSON string (distributed); embedded keeps them in the data folder. */
    SIGNING_KEYS: optionalStr(),
    /** Cookie signing keys, comma separated (distributed); embedded keeps them with the signing keys. */
    COOKIE_KEYS: optionalStr(),
    /** Application audiences the local access-gateway stand-in issues tokens for, comma separated. */
    GATEWAY_AUDIENCES: optionalStr(),
    /** Seed the dev principals (config/dev-principals.json) as people with their grants: local mode only. */
    SEED_DEV_PRINCIPALS: flag(false),
    SESSION_TTL_SECONDS: int(8 * 3600, 60, 30 * 24 * 3600),
    /** An upstream OpenID provider people may sign in with; unset: passwords (and dev principals) only. */
    UPSTREAM_OIDC_ISSUER: url(['https:', 'http:']),
    UPSTREAM_OIDC_CLIENT_ID: optionalStr(),
    UPSTREAM_OIDC_CLIENT_SECRET: optionalStr(),
    /** The upstream's name on the sign-in page's button. */
    UPSTREAM_OIDC_NAME: str('your organization'),
    /**
     * What the policies name but cannot hold (VENDORS_EDITORS, the gateway audiences): authz/me
     * answers as each service does only with the same values the service is given.
     */
    ...policyConfig(...Object.values(POLICIES)),
  });
  const issuer = c.AUTH_ISSUER ?? `http://127.0.0.1:${c.PORT_IDENTITY}`;
  return { ...c, AUTH_ISSUER: issuer, upstream: upstreamSettings(c) };
};

/** The three upstream settings go together; plain http only to a loopback IP (a local upstream). */
function upstreamSettings(c: {
  UPSTREAM_OIDC_ISSUER?: string;
  UPSTREAM_OIDC_CLIENT_ID?: string;
  UPSTREAM_OIDC_CLIENT_SECRET?: string;
  UPSTREAM_OIDC_NAME: string;
}) {
  const issuer = c.UPSTREAM_OIDC_ISSUER;
  if (!issuer) {
    for (const name of ['UPSTREAM_OIDC_CLIENT_ID', 'UPSTREAM_OIDC_CLIENT_SECRET'] as const) {
      if (c[name]) throw new ConfigError(`Invalid configuration: ${name} is set but UPSTREAM_OIDC_ISSUER is not`);
    }
    return undefined;
  }
  for (const name of ['UPSTREAM_OIDC_CLIENT_ID', 'UPSTREAM_OIDC_CLIENT_SECRET'] as const) {
    if (!c[name]) throw new ConfigError(`Invalid configuration: ${name} is required with UPSTREAM_OIDC_ISSUER`);
  }
  const u = new URL(issuer);
  if (u.protocol === 'http:' && !['127.0.0.1', '[::1]'].includes(u.hostname)) {
    throw new ConfigError(
      `Invalid configuration: UPSTREAM_OIDC_ISSUER must use https: (plain http only on a loopback IP) (got ${JSON.stringify(issuer)})`,
    );
  }
  return {
    issuer,
    clientId: c.UPSTREAM_OIDC_CLIENT_ID as string,
    clientSecret: c.UPSTREAM_OIDC_CLIENT_SECRET as string,
    name: c.UPSTREAM_OIDC_NAME,
  };
}

export type IdentityConfig = ReturnType<typeof identityConfig>;
