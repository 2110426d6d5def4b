import { readFileSync } from 'node:fs';
import {
  authConfig,
  ConfigError,
  commonConfig,
  flag,
  int,
  loadConfig,
  optionalStr,
  port,
  str,
  url,
} from '@platform/kit';
import { BUILT_IN_CATALOG, type Catalog } from './domain/catalog.ts';

export const DEFAULT_PORT = 4106;

/** The broker's configuration; fails fast naming a bad variable. */
export const brokerConfig = (env: Record<string, string | undefined> = process.env) => ({
  ...loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_BROKER: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The broker's application audience at the access gateway (staff sessions); off when unset. */
    BROKER_ACCESS_AUD: optionalStr(),
    /** A JSON catalog replacing the built-in one (providers, models, prices, speech). */
    BROKER_CATALOG_FILE: optionalStr(),
    /**
     * The private key (PKCS#8 PEM, EC P-256) that signs credential tokens. Unset: the token
     * routes answer 503 (token signing not configured).
     */
    BROKER_SIGNING_KEY: optionalStr(),
    /** The `iss` of credential tokens. */
    BROKER_TOKEN_ISSUER: str('urn:platform:model-broker'),
    /** The workspace's address for saved conversations; saving is skipped when unset. */
    WORKSPACE_URL: url(['http:', 'https:']),
    /** How long a replica trusts its cached budget figures before re-reading them. */
    BROKER_BUDGET_CACHE_MS: int(2_000, 0, 600_000),
    /**
     * On PostgreSQL, usage writes wait for the WAL flush (a row then survives a crash of the
     * database server too, at one flush per write added to each reply's end). Off: a committed
     * row survives the broker; a server crash may lose the last moments of rows.
     */
    BROKER_USAGE_SYNC_COMMIT: flag(false),
    /**
     * The usage journal (PLATFORM_DATA_DIR/broker-usage-journal, one per broker process): a
     * relayed reply's end waits for its call's line there (microseconds) instead of the commit of
     * its usage row, and a broker restarted on the folder commits what it journaled. Off: the
     * end waits for the commit.
     */
    BROKER_USAGE_JOURNAL: flag(true),
    /** Upstream call limits: connecting and waiting for the first byte of the reply. */
    BROKER_UPSTREAM_CONNECT_MS: int(10_000, 100, 600_000),
    BROKER_UPSTREAM_HEADERS_MS: int(300_000, 100, 3_600_000),
    /** anthropic-version sent upstream when the caller sends none. */
    ANTHROPIC_VERSION: str('2023-06-01'),
  }),
  /** Every other variable the catalog's providers name (their base URLs and keys). */
  env,
});

export type BrokerConfig = ReturnType<typeof brokerConfig>;

/** A provider as configured: where it is and its key (undefined: unavailable, 503 on relay). */
export interface ProviderEndpoint {
  id: string;
  baseUrl: string;
  apiKey?: string;
}

/** The catalog in force: BROKER_CATALOG_FILE when set, else the built-in one. */
export function loadCatalog(cfg: Pick<BrokerConfig, 'BROKER_CATALOG_FILE'>): Catalog {
  if (!cfg.BROKER_CATALOG_FILE) return BUILT_IN_CATALOG;
  try {
    return JSON.parse(readFileSync(cfg.BROKER_CATALOG_FILE, 'utf8')) as Catalog;
  } catch (e) {
    throw new ConfigError(
      `Invalid configuration: BROKER_CATALOG_FILE cannot be read as JSON (${(e as Error).message})`,
    );
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** Each catalog provider's base URL (its *_BASE_URL variable, else the catalog's) and key. */
export function providerEndpoints(catalog: Catalog, env: Record<string, string | undefined>): ProviderEndpoint[] {
  return catalog.providers.map((p) => {
    const base = (p.base_url_env && env[p.base_url_env]) || p.base_url;
    try {
      new URL(base);
    } catch {
      throw new ConfigError(
        `Invalid configuration: ${p.base_url_env ?? `provider ${p.id}`} must be a URL (got ${JSON.stringify(base)})`,
      );
    }
    return { id: p.id, baseUrl: trimSlash(base), apiKey: env[p.key_env] || undefined };
  });
}
