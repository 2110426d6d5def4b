import { importJWK, type JWK, SignJWT } from 'jose';
import { publicJwk } from './keys.ts';

export const GATEWAY_TOKEN_TTL = 3600;

/**
 * The local stand-in for the access gateway (production puts a Cloudflare-Access-style gateway in
 * front of staff apps). After sign-in it issues the same kind of JWT the gateway would: the
 * application audience, the person's email, signed with its own key set, which it publishes so
 * services verify it exactly as in production.
 */
export function gatewayIssuer(o: { issuer: string; keys: JWK[]; audiences: string[] }) {
  const signing = o.keys[0];
  if (!signing) throw new Error('gateway stand-in needs a signing key');
  const key = importJWK(signing, 'RS256');
  return {
    issuer: o.issuer,
    audiences: o.audiences,
    jwks: () => ({ keys: o.keys.map(publicJwk) }),
    async issue(person: { fid: string; email: string }, audience: string, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ email: person.email, type: 'app' })
        .setProtectedHeader({ alg: 'RS256', kid: signing.kid, typ: 'JWT' })
        .setIssuer(o.issuer)
        .setAudience([audience])
        .setSubject(person.fid)
        .setIssuedAt(iat)
        .setExpirationTime(iat + GATEWAY_TOKEN_TTL)
        .sign(await key);
      return { token, audience, expires_at: new Date((iat + GATEWAY_TOKEN_TTL) * 1000).toISOString() };
    },
  };
}

export type GatewayIssuer = ReturnType<typeof gatewayIssuer>;
