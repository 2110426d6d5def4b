import { authConfig, commonConfig, emailList, flag, int, loadConfig, optionalStr, port, url } from '@platform/kit';

export const DEFAULT_PORT = 4105;

/**
 * Construction's configuration (spec 3, Construction). Callers are people signed in at the access
 * gateway for CONSTRUCTION_ACCESS_AUD (with GATEWAY_JWKS_URL), a person's platform access token
 * (AUTH_ISSUER), or locally the dev header (DEV_AUTH=1); CONSTRUCTION_EDITORS may change. Fails
 * fast naming a bad variable.
 */
export const constructionConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_CONSTRUCTION: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The construction application's audience at the access gateway; the gateway is off when unset. */
    CONSTRUCTION_ACCESS_AUD: optionalStr(),
    /** Who may change construction records (comma-separated emails, compared lower-case). */
    CONSTRUCTION_EDITORS: emailList(),
    /** The documents service, where attachments are stored; unset: attachment routes answer 503. */
    CONSTRUCTION_DOCUMENTS_URL: url(['http:', 'https:']),
    /** The vendors service, where firms live; unset: routes that check a firm answer 502 vendors_unavailable. */
    CONSTRUCTION_VENDORS_URL: url(['http:', 'https:']),
    /** The token vendors accepts from another platform service (its VENDORS_SERVICE_TOKEN). */
    CONSTRUCTION_VENDORS_SERVICE_TOKEN: optionalStr(),
    /** How long a call to vendors or documents may take before it counts as not answering. */
    CONSTRUCTION_UPSTREAM_TIMEOUT_MS: int(5_000, 50, 60_000),
  });

export type ConstructionConfig = ReturnType<typeof constructionConfig>;
