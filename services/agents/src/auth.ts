import {
  type Authenticator,
  authenticatorFromConfig,
  ConfigError,
  chain,
  emptyDirectory,
  type PolicyInputs,
  policyInputs,
  principalDirectory,
  schedulerTokenAuthenticator,
} from '@platform/kit';
import { agents } from '@platform/policies';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { brokerCredentialAuthenticator } from './auth/broker-credential.ts';
import type { AgentsConfig } from './config.ts';

export interface AgentsAuthOptions {
  /** The gateway's signing keys instead of fetching GATEWAY_JWKS_URL (tests). */
  gatewayJwks?: JWTVerifyGetKey;
  /** Identity's signing keys instead of fetching AUTH_JWKS_URL (tests). */
  jwks?: JWTVerifyGetKey;
  /** The broker's credential-token keys instead of fetching AGENTS_BROKER_URL/.well-known/jwks.json (tests). */
  brokerJwks?: JWTVerifyGetKey;
}

/**
 * A person's broker credential token (AGT-312), verified against the broker's published keys; off
 * when neither AGENTS_BROKER_URL nor test keys say where they are.
 */
function brokerCredentials(cfg: AgentsConfig, opts: AgentsAuthOptions): Authenticator | null {
  if (cfg.AUTH_ISSUER && cfg.AUTH_ISSUER === cfg.AGENTS_BROKER_TOKEN_ISSUER) {
    throw new ConfigError(
      'Invalid configuration: AGENTS_BROKER_TOKEN_ISSUER must differ from AUTH_ISSUER (it tells broker tokens from platform tokens)',
    );
  }
  const url = cfg.AGENTS_BROKER_URL?.replace(/\/+$/, '');
  const jwks = opts.brokerJwks ?? (url ? createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`)) : undefined);
  if (!jwks) return null;
  const directory = principalDirectory(cfg, { devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE }) ?? emptyDirectory;
  return brokerCredentialAuthenticator({ issuer: cfg.AGENTS_BROKER_TOKEN_ISSUER, jwks, directory });
}

/** Where X-Platform-Scheduler-Token is accepted: the wake and the internal job routes. */
export const SCHEDULER_ROUTES = ['/v1/agents/:id/wake', '/internal/jobs/*'];

/**
 * The agents service's callers (spec 3, Agents authentication): the access-gateway token for
 * AGENTS_ACCESS_AUD, a person's platform access token or broker credential token, the shared
 * service token, or locally the dev header; no proof is 401.
 */
export const agentsAuthenticator = (cfg: AgentsConfig, opts: AgentsAuthOptions = {}): Authenticator =>
  chain(
    // The scheduler's token opens only the routes it calls (DECISIONS item 8, AGT-318).
    schedulerTokenAuthenticator({ token: cfg.SCHEDULER_TOKEN, routes: SCHEDULER_ROUTES }),
    // Before identity's bearer source: it takes only tokens claiming the broker's issuer.
    ...[brokerCredentials(cfg, opts)].filter((a): a is Authenticator => a !== null),
    authenticatorFromConfig(cfg, {
      gatewayAudience: cfg.AGENTS_ACCESS_AUD,
      devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE,
      jwks: opts.jwks,
      gatewayJwks: opts.gatewayJwks,
    }),
  );

/** The deployment's inputs to the policy: the gateway audience. */
export const callerPolicy = (cfg: AgentsConfig): PolicyInputs => policyInputs(agents, cfg);
