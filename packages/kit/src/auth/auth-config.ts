import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { ConfigError, int, optionalStr, str, url } from '../config.ts';
import { unauthorized } from '../errors.ts';
import { type Authenticator, chain, devHeaderAuthenticator } from './authenticate.ts';
import { bearerAuthenticator } from './bearer.ts';
import { DevPrincipals } from './dev-principals.ts';
import { emptyDirectory, httpDirectory, type PrincipalDirectory } from './directory.ts';
import { gatewayAuthenticator } from './gateway.ts';
import { serviceTokenAuthenticator } from './service-token.ts';

/** The authentication settings a service adds to its config (`loadConfig(env, {...commonConfig(), ...authConfig()})`). */
export const authConfig = () => ({
  AUTH_ISSUER: url(['http:', 'https:']),
  PLATFORM_AUDIENCE: str('urn:platform:api'),
  /** Defaults to `${AUTH_ISSUER}/.well-known/jwks.json`. */
  AUTH_JWKS_URL: url(['http:', 'https:']),
  /** Where grants are looked up; defaults to AUTH_ISSUER. */
  IDENTITY_URL: url(['http:', 'https:']),
  SERVICE_TOKEN: optionalStr(),
  SERVICE_TOKEN_PREVIOUS: optionalStr(),
  GATEWAY_JWKS_URL: url(['http:', 'https:']),
  GATEWAY_ISSUER: optionalStr(),
  GRANTS_CACHE_MS: int(30_000, 0, 3_600_000),
});

export interface AuthConfig {
  DEV_AUTH: boolean;
  AUTH_ISSUER?: string;
  PLATFORM_AUDIENCE: string;
  AUTH_JWKS_URL?: string;
  IDENTITY_URL?: string;
  SERVICE_TOKEN?: string;
  SERVICE_TOKEN_PREVIOUS?: string;
  GATEWAY_JWKS_URL?: string;
  GATEWAY_ISSUER?: string;
  GRANTS_CACHE_MS: number;
}

export interface AuthFromConfigOptions {
  /** This service's application audience(s) at the access gateway; the gateway is off without one. */
  gatewayAudience?: string | readonly string[];
  /** Where grants come from, instead of the one the config implies. */
  directory?: PrincipalDirectory;
  devPrincipalsFile?: string;
  /** Signing keys instead of fetching AUTH_JWKS_URL / GATEWAY_JWKS_URL (tests, embedded issuers). */
  jwks?: JWTVerifyGetKey;
  gatewayJwks?: JWTVerifyGetKey;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** Where identity publishes the keys of access tokens: AUTH_JWKS_URL, else the issuer's well-known JWKS. */
const platformJwksUrl = (cfg: Pick<AuthConfig, 'AUTH_ISSUER' | 'AUTH_JWKS_URL'>) =>
  cfg.AUTH_JWKS_URL ?? `${trimSlash(cfg.AUTH_ISSUER as string)}/.well-known/jwks.json`;

/**
 * Where people and their grants are looked up: the identity service (IDENTITY_URL, else
 * AUTH_ISSUER, with SERVICE_TOKEN), locally the dev principals file; undefined when neither.
 */
export function principalDirectory(
  cfg: Pick<AuthConfig, 'DEV_AUTH' | 'AUTH_ISSUER' | 'IDENTITY_URL' | 'SERVICE_TOKEN' | 'GRANTS_CACHE_MS'>,
  opts: Pick<AuthFromConfigOptions, 'directory' | 'devPrincipalsFile'> = {},
): PrincipalDirectory | undefined {
  if (opts.directory) return opts.directory;
  const identityUrl = cfg.IDENTITY_URL ?? cfg.AUTH_ISSUER;
  if (identityUrl && cfg.SERVICE_TOKEN) {
    return httpDirectory({ identityUrl, serviceToken: cfg.SERVICE_TOKEN, ttlMs: cfg.GRANTS_CACHE_MS });
  }
  if (cfg.DEV_AUTH) return DevPrincipals.load(opts.devPrincipalsFile);
  return undefined;
}

/**
 * The service's authenticator, in the order bearer → service token → access gateway → dev
 * header. Each source is on only when configured; the dev header only with DEV_AUTH.
 * A configuration that could never sign anyone in, or could not read grants, stops start-up.
 */
export function authenticatorFromConfig(cfg: AuthConfig, opts: AuthFromConfigOptions = {}): Authenticator {
  const directory = principalDirectory(cfg, opts);
  if (cfg.AUTH_ISSUER && !directory) {
    throw new ConfigError('SERVICE_TOKEN is required with AUTH_ISSUER (grants are read from the identity service)');
  }
  const gatewayOn = Boolean((cfg.GATEWAY_JWKS_URL || opts.gatewayJwks) && opts.gatewayAudience?.length);
  if (!cfg.AUTH_ISSUER && !cfg.SERVICE_TOKEN && !gatewayOn && !cfg.DEV_AUTH) {
    throw new ConfigError('AUTH_ISSUER is required unless DEV_AUTH=1');
  }
  // Without a directory (a gateway or service-token only service) callers simply hold no grants.
  const dir = directory ?? emptyDirectory;

  const sources: Authenticator[] = [];
  if (cfg.AUTH_ISSUER) {
    sources.push(
      bearerAuthenticator({
        issuer: cfg.AUTH_ISSUER,
        audience: cfg.PLATFORM_AUDIENCE,
        jwks: opts.jwks ?? createRemoteJWKSet(new URL(platformJwksUrl(cfg))),
        directory: dir,
      }),
    );
  }
  if (cfg.SERVICE_TOKEN) {
    sources.push(
      serviceTokenAuthenticator({ tokens: [cfg.SERVICE_TOKEN, cfg.SERVICE_TOKEN_PREVIOUS], directory: dir }),
    );
  }
  if (gatewayOn) {
    sources.push(
      gatewayAuthenticator({
        jwks: opts.gatewayJwks ?? createRemoteJWKSet(new URL(cfg.GATEWAY_JWKS_URL as string)),
        issuer: cfg.GATEWAY_ISSUER,
        audience: opts.gatewayAudience as string | readonly string[],
        directory: dir,
      }),
    );
  }
  if (cfg.DEV_AUTH) sources.push(devHeaderAuthenticator(dir));
  return chain(...sources);
}

export interface StaffTokenOptions {
  /** Where the person's email comes from; without one, AUTH_ISSUER stops start-up. */
  directory: PrincipalDirectory | undefined;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests, embedded issuers). */
  jwks?: JWTVerifyGetKey;
  /** 401 for a service's own token (client_credentials): how that service should call instead. */
  serviceRefusal: string;
}

/**
 * Identity's platform access token at a service whose caller table names people, not grants
 * (vendors, the broker). Spec 2 makes the token valid at every platform service (SIGN-064), so it
 * signs in a staff person, whose email comes from identity (the token carries none); the policy
 * decides what they may do (`via: 'bearer'`). A service's token is refused: such services name
 * their service callers through their own proofs. Off (undefined) without AUTH_ISSUER.
 */
export function staffTokenAuthenticator(
  cfg: Pick<AuthConfig, 'AUTH_ISSUER' | 'PLATFORM_AUDIENCE' | 'AUTH_JWKS_URL'>,
  o: StaffTokenOptions,
): Authenticator | undefined {
  if (!cfg.AUTH_ISSUER) return undefined;
  if (!o.directory) {
    throw new ConfigError(
      "Invalid configuration: SERVICE_TOKEN is required with AUTH_ISSUER (a person's email is read from the identity service)",
    );
  }
  const inner = bearerAuthenticator({
    issuer: cfg.AUTH_ISSUER,
    audience: cfg.PLATFORM_AUDIENCE,
    jwks: o.jwks ?? createRemoteJWKSet(new URL(platformJwksUrl(cfg))),
    directory: o.directory,
  });
  return {
    async authenticate(req) {
      const p = await inner.authenticate(req);
      if (!p) return null;
      if (p.kind !== 'person') throw unauthorized(o.serviceRefusal);
      if (!p.email) throw unauthorized("The identity service knows no email for the token's subject");
      return p;
    },
  };
}
