import { commonConfig, emailList, int, loadConfig, optionalStr, port, str, url } from '@platform/kit';

export const DEFAULT_PORT = 4102;

/**
 * Vendors' configuration. Callers prove themselves as the spec's caller table says: access-gateway
 * tokens for the internal application (VENDORS_ACCESS_AUD) or the vendor portal
 * (VENDORS_PORTAL_ACCESS_AUD), the vendors service token, or locally the dev header (DEV_AUTH=1);
 * with AUTH_ISSUER, also identity's platform access token (spec 2, issue 14.2). IDENTITY_URL +
 * SERVICE_TOKEN are where people are looked up (the platform's own token, not the vendors one).
 * Fails fast naming a bad variable.
 */
export const vendorsConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    PORT_VENDORS: port(DEFAULT_PORT),
    VENDORS_ACCESS_AUD: optionalStr(),
    VENDORS_PORTAL_ACCESS_AUD: optionalStr(),
    VENDORS_EDITORS: emailList(),
    VENDORS_SERVICE_TOKEN: optionalStr(),
    VENDORS_SERVICE_TOKEN_PREVIOUS: optionalStr(),
    AUTH_ISSUER: url(['http:', 'https:']),
    PLATFORM_AUDIENCE: str('urn:platform:api'),
    /** Defaults to `${AUTH_ISSUER}/.well-known/jwks.json`. */
    AUTH_JWKS_URL: url(['http:', 'https:']),
    GATEWAY_JWKS_URL: url(['http:', 'https:']),
    GATEWAY_ISSUER: optionalStr(),
    IDENTITY_URL: url(['http:', 'https:']),
    SERVICE_TOKEN: optionalStr(),
    GRANTS_CACHE_MS: int(30_000, 0, 3_600_000),
  });

export type VendorsConfig = ReturnType<typeof vendorsConfig>;
