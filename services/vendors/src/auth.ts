import {
  type Authenticator,
  ConfigError,
  chain,
  devHeaderAuthenticator,
  emptyDirectory,
  gatewayAuthenticator,
  type PolicyInputs,
  type PrincipalDirectory,
  policyInputs,
  principalDirectory,
  serviceTokenAuthenticator,
  staffTokenAuthenticator,
  unauthorized,
} from '@platform/kit';
import { vendors } from '@platform/policies';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { VendorsConfig } from './config.ts';

export interface VendorsAuthOptions {
  /** The gateway's signing keys instead of fetching GATEWAY_JWKS_URL (tests, embedded gateway). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests, embedded issuer). */
  jwks?: JWTVerifyGetKey;
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

/** The dev header names people here: a service proves itself with the vendors service token, naming the person. */
const peopleOnly = (inner: Authenticator): Authenticator => ({
  async authenticate(req) {
    const p = await inner.authenticate(req);
    return p?.kind === 'person' ? p : null;
  },
});

/** The access-gateway audiences vendors serves: the internal application and the vendor portal, those set. */
export const gatewayAudiences = (cfg: VendorsConfig) =>
  [cfg.VENDORS_ACCESS_AUD, cfg.VENDORS_PORTAL_ACCESS_AUD].filter((a): a is string => Boolean(a));

/**
 * Vendors' callers, as the spec's caller table lists them: the vendors service token (with the
 * person it acts for), access-gateway tokens for either application, and the dev header only
 * with DEV_AUTH=1. With AUTH_ISSUER, also a person's platform access token, which spec 2 makes
 * valid at every service (issue 14.2): the policy counts it as an internal-application token.
 * A configuration under which nobody could ever be authenticated stops start-up with a
 * ConfigError naming the variables.
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
  if (audiences.length === 0 && !cfg.VENDORS_SERVICE_TOKEN && !cfg.DEV_AUTH && !cfg.AUTH_ISSUER) {
    throw new ConfigError(
      'Invalid configuration: nobody could ever be authenticated: set VENDORS_ACCESS_AUD (with GATEWAY_JWKS_URL), VENDORS_PORTAL_ACCESS_AUD, VENDORS_SERVICE_TOKEN, AUTH_ISSUER, or DEV_AUTH=1',
    );
  }
  const found = principalDirectory(cfg, { directory: opts.directory, devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE });
  const directory = found ?? emptyDirectory;
  const sources: Authenticator[] = [];
  const platformToken = staffTokenAuthenticator(cfg, {
    directory: found,
    jwks: opts.jwks,
    serviceRefusal:
      'A platform service calls vendors with X-Platform-Service-Token (VENDORS_SERVICE_TOKEN) and X-Platform-On-Behalf-Of naming the person',
  });
  if (platformToken) sources.push(platformToken);
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
  if (cfg.DEV_AUTH) sources.push(peopleOnly(devHeaderAuthenticator(directory)));
  return chain(...sources);
}

/** What the policy needs from this deployment: which gateway audiences are employees' and contacts', and the editors. */
export const callerPolicy = (cfg: VendorsConfig): PolicyInputs => policyInputs(vendors, cfg);
