import { type Authenticator, authenticatorFromConfig, type PolicyInputs, policyInputs } from '@platform/kit';
import { agents } from '@platform/policies';
import type { JWTVerifyGetKey } from 'jose';
import type { AgentsConfig } from './config.ts';

export interface AgentsAuthOptions {
  /** The gateway's signing keys instead of fetching GATEWAY_JWKS_URL (tests). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests). */
  jwks?: JWTVerifyGetKey;
}

/**
 * The agents service's callers (spec 3, Agents authentication): the access-gateway token for
 * AGENTS_ACCESS_AUD, a person's platform access token, the shared service token, or locally the
 * dev header; no proof is 401.
 */
export const agentsAuthenticator = (cfg: AgentsConfig, opts: AgentsAuthOptions = {}): Authenticator =>
  authenticatorFromConfig(cfg, {
    gatewayAudience: cfg.AGENTS_ACCESS_AUD,
    devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE,
    jwks: opts.jwks,
    gatewayJwks: opts.gatewayJwks,
  });

/** The deployment's inputs to the policy: the gateway audience. */
export const callerPolicy = (cfg: AgentsConfig): PolicyInputs => policyInputs(agents, cfg);
