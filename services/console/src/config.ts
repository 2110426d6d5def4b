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
