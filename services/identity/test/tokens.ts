import { importJWK, type JWK, SignJWT } from 'jose';

/**
 * An access token signed with the issuer's own key, shaped like oidc-provider's (`typ: at+jwt`),
 * for cases the server would not issue on request: expired, another audience, or a load test.
 */
export async function signAccessToken(
  key: JWK,
  o: { issuer: string; audience: string; sub: string; iatOffset?: number; ttl?: number },
) {
  const now = Math.floor(Date.now() / 1000) + (o.iatOffset ?? 0);
  return new SignJWT({ client_id: 'platform-web', scope: 'openid' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(o.issuer)
    .setAudience(o.audience)
    .setSubject(o.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + (o.ttl ?? 3600))
    .sign(await importJWK(key, 'RS256'));
}
