import {
  type Authenticator,
  ConfigError,
  chain,
  devHeaderAuthenticator,
  emptyDirectory,
  gatewayAuthenticator,
  type PrincipalDirectory,
  principalDirectory,
  serviceTokenAuthenticator,
  unauthorized,
} from '@platform/kit';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { VendorsConfig } from './config.ts';
import type { CallerPolicy } from './domain/callers.ts';

export interface VendorsAuthOptions {
  /** The gateway's signing keys instead of fetching GATEWAY_JWKS_URL (tests, embedded gateway). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Where people are looked up, instead of the one the config implies. */
  directory?: PrincipalDirectory;
}

/**
 * The vendors service token names the person it acts for: without X-Platform-On-Behalf-Of it is
 * no proof (401), since a service only ever reads on someone's behalf here.
 */
const onBehalfOfRequired = (inner: Authenticator): Authenticator => ({
  async authenticate(req) {
    const p = await inner.authenticate(req);
    if (p && p.via !== 'service_token') {
      throw unauthorized('X-Platform-On-Behalf-Of is required with X-Platform-Service-Token: name the person');
    }
    return p;
  },
});

/** The access-gateway audiences vendors serves: the internal application and the vendor portal, those set. */
export const gatewayAudiences = (cfg: VendorsConfig) =>
  [cfg.VENDORS_ACCESS_AUD, cfg.VENDORS_PORTAL_ACCESS_AUD].filter((a): a is string => Boolean(a));

/**
 * Vendors' callers, as the spec's caller table lists them: the vendors service token (with the
 * person it acts for), access-gateway tokens for either application, and the dev header only
 * with DEV_AUTH=1. No platform bearer tokens. A configuration under which nobody could ever be
 * authenticated stops start-up with a ConfigError naming the variables.
 */
export function vendorsAuthenticator(cfg: VendorsConfig, opts: VendorsAuthOptions = {}): Authenticator {
  const audiences = gatewayAudiences(cfg);
  if (cfg.VENDORS_ACCESS_AUD && cfg.VENDORS_ACCESS_AUD === cfg.VENDORS_PORTAL_ACCESS_AUD) {
    throw new ConfigError(
      'Invalid configuration: VENDORS_PORTAL_ACCESS_AUD must differ from VENDORS_ACCESS_AUD (tokens are scoped to one application)',
    );
  }
  if (audiences.length > 0 && !cfg.GATEWAY_JWKS_URL && !opts.gatewayJwks) {
    throw new ConfigError(
      'Invalid configuration: GATEWAY_JWKS_URL is required with VENDORS_ACCESS_AUD or VENDORS_PORTAL_ACCESS_AUD',
    );
  }
  if (cfg.VENDORS_SERVICE_TOKEN_PREVIOUS && !cfg.VENDORS_SERVICE_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: VENDORS_SERVICE_TOKEN is required with VENDORS_SERVICE_TOKEN_PREVIOUS',
    );
  }
  if (audiences.length === 0 && !cfg.VENDORS_SERVICE_TOKEN && !cfg.DEV_AUTH) {
    throw new ConfigError(
      'Invalid configuration: nobody could ever be authenticated: set VENDORS_ACCESS_AUD (with GATEWAY_JWKS_URL), VENDORS_PORTAL_ACCESS_AUD, VENDORS_SERVICE_TOKEN, or DEV_AUTH=1',
    );
  }
  const directory =
    principalDirectory(cfg, { directory: opts.directory, devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE }) ??
    emptyDirectory;
  const sources: Authenticator[] = [];
  if (cfg.VENDORS_SERVICE_TOKEN) {
    sources.push(
      onBehalfOfRequired(
        serviceTokenAuthenticator({
          tokens: [cfg.VENDORS_SERVICE_TOKEN, cfg.VENDORS_SERVICE_TOKEN_PREVIOUS],
          directory,
        }),
      ),
    );
  }
  if (audiences.length > 0) {
    sources.push(
      gatewayAuthenticator({
        jwks: opts.gatewayJwks ?? createRemoteJWKSet(new URL(cfg.GATEWAY_JWKS_URL as string)),
        issuer: cfg.GATEWAY_ISSUER,
        audience: audiences,
        directory,
      }),
    );
  }
  if (cfg.DEV_AUTH) sources.push(devHeaderAuthenticator(directory));
  return chain(...sources);
}

/** What the routes need to tell callers apart. */
export const callerPolicy = (cfg: VendorsConfig): CallerPolicy => ({
  internalAudience: cfg.VENDORS_ACCESS_AUD,
  portalAudience: cfg.VENDORS_PORTAL_ACCESS_AUD,
  editors: cfg.VENDORS_EDITORS,
});
