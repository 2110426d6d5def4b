import {
  type Authenticator,
  bearerToken,
  ConfigError,
  chain,
  devHeaderAuthenticator,
  emptyDirectory,
  gatewayAuthenticator,
  type PrincipalDirectory,
  principalDirectory,
  serviceTokenAuthenticator,
  staffTokenAuthenticator,
} from '@platform/kit';
import { createRemoteJWKSet, decodeJwt, type JWTVerifyGetKey } from 'jose';
import type { BrokerConfig } from './config.ts';
import { credentialTokenAuthenticator, type TokenSigner } from './tokens.ts';

export interface BrokerAuthOptions {
  signer?: TokenSigner;
  /** The gateway's keys instead of fetching GATEWAY_JWKS_URL (tests, embedded gateway). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests, embedded issuer). */
  jwks?: JWTVerifyGetKey;
  directory?: PrincipalDirectory;
}

/** The issuer a bearer JWT claims, unverified: only to pick which verifier checks it. */
const claimedIssuer = (token: string): string | undefined => {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
};

/**
 * `Authorization: Bearer` carries two kinds of JWT here: identity's platform access tokens (issuer
 * AUTH_ISSUER) and the broker's own credential tokens. The claimed issuer picks the verifier, which
 * then checks everything itself, so a token claiming identity's issuer never reaches the other.
 */
const byIssuer = (platformIssuer: string, platform: Authenticator, credential: Authenticator): Authenticator => ({
  async authenticate(req) {
    const token = bearerToken(req);
    if (token === undefined) return null;
    return claimedIssuer(token) === platformIssuer ? platform.authenticate(req) : credential.authenticate(req);
  },
});

/**
 * The broker's callers (spec 3, Authentication): credential tokens (Authorization: Bearer), the
 * shared service token (with X-Platform-On-Behalf-Of naming whom to bill), the access-gateway
 * session of staff, and the dev header only with DEV_AUTH=1. With AUTH_ISSUER, also a person's
 * platform access token, which spec 2 makes valid at every service (issue 14.2): a staff caller
 * like a gateway session, billed to the email identity gives.
 */
export function brokerAuthenticator(cfg: BrokerConfig, opts: BrokerAuthOptions = {}): Authenticator {
  if (cfg.AUTH_ISSUER && cfg.AUTH_ISSUER === cfg.BROKER_TOKEN_ISSUER) {
    throw new ConfigError(
      'Invalid configuration: BROKER_TOKEN_ISSUER must differ from AUTH_ISSUER (it tells credential tokens from platform tokens)',
    );
  }
  const found = principalDirectory(cfg, { directory: opts.directory, devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE });
  const directory = found ?? emptyDirectory;
  const credential = credentialTokenAuthenticator(opts.signer, directory);
  const platformToken = staffTokenAuthenticator(cfg, {
    directory: found,
    jwks: opts.jwks,
    serviceRefusal: 'A platform service calls the broker with X-Platform-Service-Token',
  });
  const sources: Authenticator[] = [
    platformToken && cfg.AUTH_ISSUER ? byIssuer(cfg.AUTH_ISSUER, platformToken, credential) : credential,
  ];
  if (cfg.SERVICE_TOKEN) {
    sources.push(serviceTokenAuthenticator({ tokens: [cfg.SERVICE_TOKEN, cfg.SERVICE_TOKEN_PREVIOUS], directory }));
  }
  if (cfg.BROKER_ACCESS_AUD && (cfg.GATEWAY_JWKS_URL || opts.gatewayJwks)) {
    sources.push(
      gatewayAuthenticator({
        jwks: opts.gatewayJwks ?? createRemoteJWKSet(new URL(cfg.GATEWAY_JWKS_URL as string)),
        issuer: cfg.GATEWAY_ISSUER,
        audience: cfg.BROKER_ACCESS_AUD,
        directory,
      }),
    );
  }
  if (cfg.DEV_AUTH) sources.push(devHeaderAuthenticator(directory));
  return chain(...sources);
}
