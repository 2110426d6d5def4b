import {
  type Authenticator,
  bearerToken,
  devFid,
  EMAIL_RE,
  type PrincipalDirectory,
  tokenVerifier,
  unauthorized,
} from '@platform/kit';
import { decodeJwt, type JWTVerifyGetKey } from 'jose';

/** The audience of every broker credential token (services/broker/src/tokens.ts, TOKEN_AUDIENCE). */
export const BROKER_TOKEN_AUDIENCE = 'model-broker';

export interface BrokerCredentialOptions {
  /** The broker's token issuer (AGENTS_BROKER_TOKEN_ISSUER, the broker's BROKER_TOKEN_ISSUER). */
  issuer: string;
  /** The broker's published keys (AGENTS_BROKER_URL + /.well-known/jwks.json); tests pass their own. */
  jwks: JWTVerifyGetKey;
  /** Where the person behind the credential's email is looked up (identity, locally the dev principals). */
  directory: PrincipalDirectory;
  now?: () => number;
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
 * A person's broker credential token (AGT-312): `Authorization: Bearer` with a JWT the model broker
 * signed for one of its personal credentials. Only a token claiming the broker's issuer is taken
 * here, and then verified completely (signature against the broker's keys, issuer, audience,
 * expiry); any other bearer token is left to identity's source. A personal credential acts as
 * its owner: the person the email names in the directory, else the FID the platform derives from
 * the email (as the broker does). A service credential names no person: 401.
 */
export function brokerCredentialAuthenticator(o: BrokerCredentialOptions): Authenticator {
  const verify = tokenVerifier({
    jwks: o.jwks,
    issuer: o.issuer,
    audience: BROKER_TOKEN_AUDIENCE,
    typ: 'JWT',
    audienceMessage: 'token audience is not the model broker',
    now: o.now,
  });
  return {
    async authenticate(req) {
      const token = bearerToken(req);
      if (token === undefined || claimedIssuer(token) !== o.issuer) return null;
      const claims = await verify(token);
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      const clientId = typeof claims.client_id === 'string' ? claims.client_id : '';
      if (!EMAIL_RE.test(email) || !clientId) throw unauthorized('malformed token');
      if (claims.credential_kind === 'service') {
        throw unauthorized('A broker service credential names no person: sign in as one, or use the service token');
      }
      const owner = typeof claims.owner_email === 'string' ? claims.owner_email : email;
      const known = await o.directory.byEmail(email);
      return {
        ...(known ?? { id: devFid(email), kind: 'person' as const, grants: [] }),
        email,
        via: 'credential',
        credential: { client_id: clientId, kind: 'personal', owner_email: owner },
      };
    },
  };
}
