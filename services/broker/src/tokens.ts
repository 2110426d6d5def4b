import {
  type Authenticator,
  devFid,
  headerValue,
  type PrincipalDirectory,
  tokenVerifier,
  unauthorized,
} from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  importPKCS8,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from 'jose';

/** Credential tokens last one hour (spec 3, Limits). */
export const TOKEN_TTL_SEC = 3600;
/** The audience of every credential token: this broker. */
export const TOKEN_AUDIENCE = 'model-broker';
const ALG = 'ES256';
type SigningKey = Awaited<ReturnType<typeof importPKCS8>>;

export type CredentialKind = 'personal' | 'service';

/** The identity a service credential acts as, with its own budget. */
export const serviceIdentityEmail = (clientId: string) => `${clientId}${SERVICE_IDENTITY_DOMAIN}`;

export const SERVICE_IDENTITY_DOMAIN = '@service.broker';

/** Whether an email is a service credential's identity (its budget defaults to the service default, issue 14.4). */
export const isServiceIdentityEmail = (email: string | undefined) =>
  email?.toLowerCase().endsWith(SERVICE_IDENTITY_DOMAIN) === true;

/** A broker identity's FID when identity does not know it: the stable id of its email (DECISIONS item 3). */
export const identityFid = devFid;

export interface CredentialTokenClaims {
  /** The caller: the owner's sign-in email for personal credentials, <client_id>@service.broker for service ones. */
  email: string;
  /** The caller's FID. */
  sub: string;
  client_id: string;
  kind: CredentialKind;
  owner_email: string;
}

/** The OAuth 2.0 token response (RFC 6749 §5.1): not enveloped. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Signs credential tokens with the broker's key and publishes its public half. */
export class TokenSigner {
  private constructor(
    private readonly key: SigningKey,
    private readonly publicJwk: JWK,
    readonly issuer: string,
  ) {}

  /** From BROKER_SIGNING_KEY (PKCS#8 PEM, EC P-256). */
  static async fromPem(pem: string, issuer: string): Promise<TokenSigner> {
    const key = await importPKCS8(pem, ALG, { extractable: true });
    const { d: _private, ...pub } = await exportJWK(key);
    const kid = await calculateJwkThumbprint(pub);
    return new TokenSigner(key, { ...pub, kid, alg: ALG, use: 'sig' }, issuer);
  }

  jwks(): JSONWebKeySet {
    return { keys: [this.publicJwk] };
  }

  /** A one-hour token carrying exactly the credential's claims. */
  async sign(c: CredentialTokenClaims, now: Date): Promise<TokenResponse> {
    const iat = Math.floor(now.getTime() / 1000);
    const access_token = await new SignJWT({
      email: c.email,
      client_id: c.client_id,
      credential_kind: c.kind,
      owner_email: c.owner_email,
    })
      .setProtectedHeader({ alg: ALG, kid: this.publicJwk.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(c.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_TTL_SEC)
      .sign(this.key);
    return { access_token, token_type: 'Bearer', expires_in: TOKEN_TTL_SEC };
  }
}

const bearer = (req: FastifyRequest): string | undefined => {
  const m = headerValue(req, 'authorization')?.match(/^Bearer(?:\s+(.*))?$/i);
  if (!m) return undefined;
  const token = m[1]?.trim();
  if (!token) throw unauthorized('malformed token');
  return token;
};

/**
 * Program calls: `Authorization: Bearer` with a credential token. The token's email is the caller.
 * A personal token acts as its owner with the owner's grants; a service token as its own identity
 * with none. The credential's state is not consulted: a token lasts until it expires (spec 3).
 */
export function credentialTokenAuthenticator(
  signer: TokenSigner | undefined,
  directory: PrincipalDirectory,
  now: () => number = Date.now,
): Authenticator {
  const verify = signer
    ? tokenVerifier({
        jwks: createLocalJWKSet(signer.jwks()),
        issuer: signer.issuer,
        audience: TOKEN_AUDIENCE,
        typ: 'JWT',
        audienceMessage: 'token audience is not this broker',
        now,
      })
    : undefined;
  return {
    async authenticate(req) {
      const token = bearer(req);
      if (token === undefined) return null;
      if (!verify) throw unauthorized('credential tokens are not accepted: token signing is not configured');
      const claims = await verify(token);
      const email = typeof claims.email === 'string' ? claims.email : '';
      const clientId = typeof claims.client_id === 'string' ? claims.client_id : '';
      const kind = claims.credential_kind === 'service' ? 'service' : 'personal';
      const owner = typeof claims.owner_email === 'string' ? claims.owner_email : email;
      if (!email || !clientId || typeof claims.sub !== 'string') throw unauthorized('malformed token');
      const credential = { client_id: clientId, kind, owner_email: owner } as const;
      if (kind === 'personal') {
        const known = await directory.byEmail(email);
        return { ...(known ?? { id: claims.sub, kind: 'person', grants: [] }), email, via: 'credential', credential };
      }
      return { id: claims.sub, kind: 'person', email, grants: [], via: 'credential', credential };
    },
  };
}
