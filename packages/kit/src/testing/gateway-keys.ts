import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface GatewayKeysOptions {
  /** GATEWAY_ISSUER of the service under test. */
  issuer: string;
  /** The service's access audience, the tokens' default. */
  audience: string;
  /** How long a token holds (default one hour). */
  ttlSeconds?: number;
}

/**
 * An access gateway's signing key pair held by a test or a bench: `jwks` for the service's
 * authenticator (its gatewayJwks option) and `token(email, aud?)` signing the assertion the
 * gateway would send as cf-access-jwt-assertion, so the production authenticator runs unchanged.
 */
export async function gatewayKeys(o: GatewayKeysOptions) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'gw1', alg: 'RS256' }] });
  const token = (email: string, aud = o.audience) => {
    const t = Math.floor(Date.now() / 1000);
    return new SignJWT({ email })
      .setProtectedHeader({ alg: 'RS256', kid: 'gw1' })
      .setIssuer(o.issuer)
      .setAudience(aud)
      .setSubject(`gw-${email}`)
      .setIssuedAt(t)
      .setExpirationTime(t + (o.ttlSeconds ?? 3600))
      .sign(privateKey);
  };
  return { jwks, token };
}
