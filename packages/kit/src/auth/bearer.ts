import type { FastifyRequest } from 'fastify';
import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { type AppError, unauthorized, unavailable } from '../errors.ts';
import { UUID_RE } from '../ids.ts';
import { type Authenticator, headerValue } from './authenticate.ts';
import type { PrincipalDirectory } from './directory.ts';
import type { Principal } from './principal.ts';

/** The signature algorithms the platform's issuers use; `none` and HMAC never verify. */
export const TOKEN_ALGORITHMS = ['RS256', 'ES256', 'EdDSA', 'PS256'];

/** A client_id (SIGN-032), the `sub` of a service's token. */
const CLIENT_ID_RE = /^[a-z0-9-]+$/;

export interface TokenVerifierOptions {
  /** jose's key getter: createRemoteJWKSet in production, createLocalJWKSet in tests. */
  jwks: JWTVerifyGetKey;
  /** Compared exactly (SIGN-003); unchecked when absent. */
  issuer?: string;
  /** One audience, or several of which the token must name one. */
  audience: string | readonly string[];
  /** The required `typ` header, e.g. `at+jwt` (which an ID token does not carry). */
  typ?: string;
  clockToleranceSec?: number;
  /** Verified tokens remembered; the oldest are dropped beyond this. */
  maxTokens?: number;
  /** 401 message for a token whose audience is not ours. */
  audienceMessage?: string;
  now?: () => number;
}

const JWKS_UNREACHABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JOSE_GENERIC', 'ERR_JWKS_INVALID']);

/** Why a token was refused, as a 401 that never repeats the token (SIGN-065). */
function refusal(e: unknown, audienceMessage: string): AppError {
  if (!(e instanceof errors.JOSEError) || JWKS_UNREACHABLE.has(e.code)) {
    // The token may be fine: the platform could not fetch the keys to check it.
    return unavailable('auth_keys_unavailable', 'The keys that sign tokens could not be fetched');
  }
  if (e instanceof errors.JWTExpired) return unauthorized('token expired');
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.reason === 'missing') return unauthorized(`token lacks the ${e.claim} claim`);
    if (e.claim === 'aud') return unauthorized(audienceMessage);
    if (e.claim === 'iss') return unauthorized('token issuer not trusted');
    if (e.claim === 'typ') return unauthorized('an ID token is not an access token');
    if (e.claim === 'nbf' || e.claim === 'iat') return unauthorized('token not yet valid');
    return unauthorized('malformed token');
  }
  if (e instanceof errors.JWSSignatureVerificationFailed) return unauthorized('token signature invalid');
  if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys) {
    return unauthorized('token signed by an unknown key');
  }
  if (e instanceof errors.JOSEAlgNotAllowed || e instanceof errors.JOSENotSupported) {
    return unauthorized('token algorithm not allowed');
  }
  return unauthorized('malformed token');
}

/**
 * Verifies a JWT and remembers it until it expires, so that a repeat of the same token (every
 * request of a signed-in client) skips the signature check. Expiry is checked on every hit.
 */
export function tokenVerifier(o: TokenVerifierOptions): (token: string) => Promise<JWTPayload> {
  const now = o.now ?? Date.now;
  const tolerance = o.clockToleranceSec ?? 5;
  const maxTokens = o.maxTokens ?? 10_000;
  const audienceMessage = o.audienceMessage ?? 'token audience is not this platform';
  const verified = new Map<string, { payload: JWTPayload; exp: number }>();

  return async (token) => {
    const hit = verified.get(token);
    if (hit) {
      if (hit.exp > now() / 1000 - tolerance) return hit.payload;
      verified.delete(token);
      throw unauthorized('token expired');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, o.jwks, {
        issuer: o.issuer,
        audience: o.audience as string | string[],
        typ: o.typ,
        algorithms: TOKEN_ALGORITHMS,
        clockTolerance: tolerance,
        requiredClaims: ['exp'],
        currentDate: new Date(now()),
      }));
    } catch (e) {
      throw refusal(e, audienceMessage);
    }
    verified.set(token, { payload, exp: payload.exp as number });
    if (verified.size > maxTokens) verified.delete(verified.keys().next().value as string);
    return payload;
  };
}

export interface BearerOptions {
  /** The identity service's issuer, compared exactly (SIGN-003). */
  issuer: string;
  /** The platform audience (SIGN-069). */
  audience: string;
  jwks: JWTVerifyGetKey;
  directory: PrincipalDirectory;
  clockToleranceSec?: number;
  maxTokens?: number;
  now?: () => number;
}

/** `Authorization: Bearer <token>`'s token; undefined for no header or another scheme. */
export function bearerToken(req: FastifyRequest): string | undefined {
  const value = headerValue(req, 'authorization');
  const m = value?.match(/^Bearer(?:\s+(.*))?$/i);
  if (!m) return undefined;
  const token = m[1]?.trim();
  if (!token) throw unauthorized('malformed token');
  return token;
}

/**
 * Access tokens of the identity service (SIGN-060..069). The token carries no roles: a person's
 * grants come from the directory; a person it does not know is signed in with no grants. The
 * principal is marked `via: 'bearer'`: a policy may count the token as one of its applications.
 */
export function bearerAuthenticator(o: BearerOptions): Authenticator {
  const verify = tokenVerifier({
    jwks: o.jwks,
    issuer: o.issuer,
    audience: o.audience,
    typ: 'at+jwt',
    clockToleranceSec: o.clockToleranceSec,
    maxTokens: o.maxTokens,
    now: o.now,
  });
  return {
    async authenticate(req): Promise<Principal | null> {
      const token = bearerToken(req);
      if (token === undefined) return null;
      const { sub } = await verify(token);
      if (typeof sub === 'string' && UUID_RE.test(sub)) {
        return { ...((await o.directory.byId(sub)) ?? { id: sub, kind: 'person', grants: [] }), via: 'bearer' };
      }
      if (typeof sub === 'string' && CLIENT_ID_RE.test(sub)) {
        const id = `service:${sub}`;
        return { ...((await o.directory.byId(id)) ?? { id, kind: 'service', grants: [] }), via: 'bearer' };
      }
      throw unauthorized('token subject is not a principal id');
    },
  };
}
