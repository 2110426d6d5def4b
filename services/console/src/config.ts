import { ConfigError, emailList, flag, int, loadConfig, oneOf, optionalStr, port, str, url } from '@platform/kit';

export const DEFAULT_PORT = 4108;

/**
 * The console's configuration; fails fast naming a bad variable. It has no database and no
 * policy engine of its own (OPS-041): the registry names, per subscription, the variables that
 * hold each subscription's cluster, bus, database and flag server (read from `env` by name).
 */
export const consoleConfig = (env: Record<string, string | undefined> = process.env) => ({
  ...loadConfig(env, {
    HOST: str('127.0.0.1'),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    PORT_CONSOLE: port(DEFAULT_PORT),
    SHUTDOWN_GRACE_MS: int(10_000, 0, 600_000),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The environment this console serves: a tag, never a path segment (OPS-005, OPS-008). */
    ENV: oneOf(['dev', 'prod'] as const, 'dev'),
    /** The console's application audience at the access gateway (locally console-app). */
    CONSOLE_ACCESS_AUD: optionalStr(),
    /** The access gateway's published keys and issuer (the team's key set, OPS-037). */
    GATEWAY_JWKS_URL: url(['http:', 'https:']),
    GATEWAY_ISSUER: optionalStr(),
    /** Roles are configuration (spec 3): admins, then engineers; everyone else the gateway admits is a viewer. */
    DEVOPS_ADMIN_EMAILS: emailList(),
    DEVOPS_ENGINEER_EMAILS: emailList(),
    /** The scopes input (variable names per subscription) instead of the committed registry/scopes.json. */
    CONSOLE_SCOPES_FILE: optionalStr(),
    /** The catalog instead of the committed registry/catalog.json. */
    CONSOLE_CATALOG_FILE: optionalStr(),
    /** SQL browser: the most rows an answer carries, and how long a statement may run. */
    CONSOLE_SQL_ROW_CAP: int(500, 1, 10_000),
    CONSOLE_SQL_TIMEOUT_MS: int(5_000, 100, 600_000),
    /** Releases: the helm executable (run with an argument array, never a shell) and how long one run may take. */
    HELM_BIN: str('helm'),
    HELM_TIMEOUT_MS: int(120_000, 1_000, 1_800_000),
    /** Feature flags: how long one call to a subscription's flag server may take. */
    CONSOLE_FLAGS_TIMEOUT_MS: int(10_000, 100, 120_000),
    /** Log search: Datadog's keys (unset: 501 logs_not_configured), its site, and its API URL (tests). */
    DD_API_KEY: optionalStr(),
    DD_APP_KEY: optionalStr(),
    DD_SITE: str('datadoghq.com'),
    DD_API_URL: url(['http:', 'https:']),
    /** Log search: the facets file (a JSON array of {facet, label}); unset: the built-in list. */
    CONSOLE_LOG_FACETS_FILE: optionalStr(),
    /**
     * Web UI: identity's issuer where the page signs in and trades its access token for a gateway
     * token (locally the launcher's identity, the gateway stand-in); unset behind the real gateway.
     */
    CONSOLE_WEB_SIGN_IN_URL: url(['http:', 'https:']),
    /** Web UI: its public OAuth client at identity (config/clients). */
    CONSOLE_WEB_CLIENT_ID: str('console-web'),
    /** Web UI: the audience of the identity access token it trades (identity's own API). */
    PLATFORM_AUDIENCE: str('urn:platform:api'),
  }),
  /** The variables the scopes name (US_CORE_DATABASE_URL, ...), read by name when a scope resolves. */
  env,
});

export type ConsoleConfig = ReturnType<typeof consoleConfig>;

/** The gateway audience, required: the console admits no one without it. */
export function accessAudience(cfg: Pick<ConsoleConfig, 'CONSOLE_ACCESS_AUD'>): string {
  if (!cfg.CONSOLE_ACCESS_AUD) {
    throw new ConfigError(
      'Invalid configuration: CONSOLE_ACCESS_AUD is required (the gateway audience of the console)',
    );
  }
  return cfg.CONSOLE_ACCESS_AUD;
}
