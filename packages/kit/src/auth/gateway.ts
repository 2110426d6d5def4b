import type { JWTVerifyGetKey } from 'jose';
import { unauthorized } from '../errors.ts';
import { type Authenticator, headerValue } from './authenticate.ts';
import { tokenVerifier } from './bearer.ts';
import { EMAIL_RE, type PrincipalDirectory } from './directory.ts';

export interface GatewayOptions {
  /** The gateway's signing keys (its published JWKS). */
  jwks: JWTVerifyGetKey;
  /** The gateway's issuer, compared exactly when set. */
  issuer?: string;
  /**
   * The application audience the gateway stamps for this service (e.g. VENDORS_ACCESS_AUD), or
   * several when one service fronts several applications (vendors: internal app and portal). The
   * matched one is the principal's `app`.
   */
  audience: string | readonly string[];
  directory: PrincipalDirectory;
  /** Where the gateway puts its JWT. */
  header?: string;
  clockToleranceSec?: number;
  maxTokens?: number;
  now?: () => number;
}

/**
 * The access gateway in front of an internal application signs who passed it. The token's email
 * is the caller: grants are looked up by it, and it is always the principal's email.
 */
export function gatewayAuthenticator(o: GatewayOptions): Authenticator {
  const audiences: readonly string[] = typeof o.audience === 'string' ? [o.audience] : o.audience;
  const header = (o.header ?? 'cf-access-jwt-assertion').toLowerCase();
  const verify = tokenVerifier({
    jwks: o.jwks,
    issuer: o.issuer,
    audience: o.audience,
    clockToleranceSec: o.clockToleranceSec,
    maxTokens: o.maxTokens,
    audienceMessage: 'token audience is not this application',
    now: o.now,
  });
  return {
    async authenticate(req) {
      const token = headerValue(req, header)?.trim();
      if (token === undefined) return null;
      if (token === '') throw unauthorized('malformed token');
      const claims = await verify(token);
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!EMAIL_RE.test(email)) throw unauthorized('gateway token names no email');
      const aud = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      const matched = audiences.filter((a) => aud.includes(a));
      // A token is for one application: one naming two of ours would pick its own privileges.
      if (matched.length !== 1) throw unauthorized('token names more than one application of this service');
      const app = matched[0] as string;
      const known = await o.directory.byEmail(email);
      if (known) return { ...known, email, via: 'gateway', app };
      if (typeof claims.sub !== 'string' || claims.sub === '') throw unauthorized('token lacks the sub claim');
      return { id: claims.sub, kind: 'person', email, grants: [], via: 'gateway', app };
    },
  };
}
