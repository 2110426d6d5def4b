import {
  type Authenticator,
  chain,
  devHeaderAuthenticator,
  emptyDirectory,
  gatewayAuthenticator,
  type PrincipalDirectory,
  principalDirectory,
  serviceTokenAuthenticator,
} from '@platform/kit';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { BrokerConfig } from './config.ts';
import { credentialTokenAuthenticator, type TokenSigner } from './tokens.ts';

export interface BrokerAuthOptions {
  signer?: TokenSigner;
  /** The gateway's keys instead of fetching GATEWAY_JWKS_URL (tests, embedded gateway). */
  gatewayJwks?: JWTVerifyGetKey;
  directory?: PrincipalDirectory;
}

/**
 * The broker's callers (spec 3, Authentication): credential tokens (Authorization: Bearer), the
 * shared service token (with X-Platform-On-Behalf-Of naming whom to bill), the access-gateway
 * session of staff, and the dev header only with DEV_AUTH=1. Platform bearer tokens are not in
 * the broker's caller list: Authorization: Bearer here means a credential token.
 */
export function brokerAuthenticator(cfg: BrokerConfig, opts: BrokerAuthOptions = {}): Authenticator {
  const directory =
    principalDirectory(cfg, { directory: opts.directory, devPrincipalsFile: cfg.DEV_PRINCIPALS_FILE }) ??
    emptyDirectory;
  const sources: Authenticator[] = [credentialTokenAuthenticator(opts.signer, directory)];
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
