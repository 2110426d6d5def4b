import {
  type Authenticator,
  type AuthFromConfigOptions,
  authenticatorFromConfig,
  ConfigError,
  headerValue,
} from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { accessAudience, type ConsoleConfig } from './config.ts';

/** The query parameter that carries the gateway token where a browser cannot set headers. */
export const QUERY_TOKEN = 'access_token';

/** Route config of the routes that take the token in the query (tail and terminal, OPS-017). */
export interface QueryTokenConfig {
  queryToken?: boolean;
}

const GATEWAY_HEADER = 'cf-access-jwt-assertion';

const acceptsQueryToken = (req: FastifyRequest) =>
  (req.routeOptions?.config as QueryTokenConfig | undefined)?.queryToken === true;

function queryToken(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.[QUERY_TOKEN];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
}

export interface ConsoleAuthOptions {
  /** The gateway's keys instead of fetching GATEWAY_JWKS_URL (tests). */
  gatewayJwks?: AuthFromConfigOptions['gatewayJwks'];
}

/**
 * The console's only proof is the access gateway's JWT (spec 3), verified on every request against
 * the gateway's key set, for CONSOLE_ACCESS_AUD. It travels in Cf-Access-Jwt-Assertion; on the
 * routes that declare `queryToken` (tail and terminal: EventSource and WebSocket cannot set
 * headers) also as ?access_token=. Anywhere else a query token is ignored, so it admits no one
 * (OPS-018). No dev header: locally the gateway stand-in signs the same tokens.
 */
export function consoleAuthenticator(cfg: ConsoleConfig, opts: ConsoleAuthOptions = {}): Authenticator {
  const audience = accessAudience(cfg);
  if (!opts.gatewayJwks && !cfg.GATEWAY_JWKS_URL) {
    throw new ConfigError("Invalid configuration: GATEWAY_JWKS_URL is required (the access gateway's key set)");
  }
  // Only the gateway source is on (no issuer, no service token, no dev header), and with no
  // directory: the token's email is the caller, its role comes from the lists.
  const gateway = authenticatorFromConfig(
    {
      DEV_AUTH: false,
      PLATFORM_AUDIENCE: audience,
      GATEWAY_JWKS_URL: cfg.GATEWAY_JWKS_URL,
      GATEWAY_ISSUER: cfg.GATEWAY_ISSUER,
      GRANTS_CACHE_MS: 0,
    },
    { gatewayAudience: audience, gatewayJwks: opts.gatewayJwks },
  );
  return {
    async authenticate(req) {
      if (headerValue(req, GATEWAY_HEADER) !== undefined) return gateway.authenticate(req);
      const token = queryToken(req);
      if (token === undefined || !acceptsQueryToken(req)) return null;
      return gateway.authenticate({ headers: { [GATEWAY_HEADER]: token } } as unknown as FastifyRequest);
    },
  };
}
