import {
  ConfigError,
  commonConfig,
  EMAIL_RE,
  int,
  loadConfig,
  optionalStr,
  port,
  type Reader,
  url,
} from '@platform/kit';

export const DEFAULT_PORT = 4102;

/** A comma-separated list of emails, lower-case; empty when unset. A malformed one stops start-up. */
const emailList = (): Reader<string[]> => (env, name) => {
  const raw = env[name] ?? '';
  const emails = raw
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  const bad = emails.find((e) => !EMAIL_RE.test(e));
  if (bad !== undefined) {
    throw new ConfigError(`Invalid configuration: ${name} must be comma-separated emails (got ${JSON.stringify(bad)})`);
  }
  return [...new Set(emails)];
};

/**
 * Vendors' configuration. Callers prove themselves as the spec's caller table says: access-gateway
 * tokens for the internal application (VENDORS_ACCESS_AUD) or the vendor portal
 * (VENDORS_PORTAL_ACCESS_AUD), the vendors service token, or locally the dev header (DEV_AUTH=1).
 * IDENTITY_URL + SERVICE_TOKEN are where people are looked up (the platform's own token, not the
 * vendors one). Fails fast naming a bad variable.
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
    GATEWAY_JWKS_URL: url(['http:', 'https:']),
    GATEWAY_ISSUER: optionalStr(),
    IDENTITY_URL: url(['http:', 'https:']),
    SERVICE_TOKEN: optionalStr(),
    GRANTS_CACHE_MS: int(30_000, 0, 3_600_000),
  });

export type VendorsConfig = ReturnType<typeof vendorsConfig>;
