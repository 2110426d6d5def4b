import { type Authenticator, authenticatorFromConfig, type PolicyInputs, policyInputs } from '@platform/kit';
import { construction } from '@platform/policies';
import type { JWTVerifyGetKey } from 'jose';
import type { ConstructionConfig } from './config.ts';

export interface ConstructionAuthOptions {
  /** The gateway's signing keys instead of fetching GATEWAY_JWKS_URL (tests). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests). */
  jwks?: JWTVerifyGetKey;
}

/**
 * Construction's callers (spec 3, Construction authentication): the access-gateway token for
 * CONSTRUCTION_ACCESS_AUD, a person's platform access token (spec 2 makes it valid everywhere), a
 * platform service's token, or locally the dev header; no proof is 401 (CON-179, CON-180).
 */
export const constructionAuthenticator = (cfg: ConstructionConfig, opts: ConstructionAuthOptions = {}): Authenticator =>
  authenticatorFromConfig(cfg, {
    gatewayAudience: cfg.CONSTRUCTION_ACCESS_AUD,
    devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE,
    jwks: opts.jwks,
    gatewayJwks: opts.gatewayJwks,
  });

/** The deployment's inputs to the policy: the gateway audience and CONSTRUCTION_EDITORS. */
export const callerPolicy = (cfg: ConstructionConfig): PolicyInputs => policyInputs(construction, cfg);
