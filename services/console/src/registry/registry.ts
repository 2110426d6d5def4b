import { AppError, type Bus, type SharedPglite } from '@platform/kit';
import type { Catalog, CatalogLeaf } from './catalog.ts';
import type { ScopeEntry, ScopesInput, ScopeVars } from './scopes.ts';

/**
 * The embedded platform's own database and bus, which a subscription (locally us/core) uses when
 * its variables are unset: `npm start` runs the console beside the services it inspects.
 */
export interface EmbeddedInfrastructure {
  region: string;
  subscription: string;
  pglite?: Promise<SharedPglite>;
  bus?: Bus;
}

/** One subscription as a route sees it: where its parts are, each undefined when not configured. */
export interface ResolvedScope {
  region: string;
  subscription: string;
  /** "region/subscription": the key connection caches use. */
  key: string;
  /** The variable names (never values) of the scopes input; undefined for a leaf without one. */
  vars?: ScopeVars;
  kubeconfig?: string;
  databaseUrl?: string;
  /** The SQL browser's read-only role, when the scopes name its variable and it is set. */
  browserUrl?: string;
  busUrl?: string;
  /** The embedded platform's PGlite, when the database variable is unset and this is its scope. */
  pglite?: Promise<SharedPglite>;
  /** The embedded platform's in-process bus, likewise. */
  bus?: Bus;
  /** undefined: no flag-server block (501 flags_not_configured, OPS-062); url unset likewise (OPS-063). */
  flags?: { url?: string; token?: string };
  /** Provisioned: its database and bus can be reached (OPS-009). */
  ready: boolean;
}

export const scopeNotFound = (region: string, subscription: string) =>
  new AppError(404, 'scope_not_found', `No subscription ${region}/${subscription} in the catalog`);

/**
 * The catalog's region/subscription leaves joined with the scopes input and the environment: the
 * one scope resolver every /v1/environments/{region}/{subscription} route uses.
 */
export class Registry {
  private readonly scopes: Map<string, ScopeEntry>;
  constructor(
    readonly catalog: Catalog,
    scopes: ScopesInput,
    private readonly env: Record<string, string | undefined>,
    private readonly embedded?: EmbeddedInfrastructure,
  ) {
    this.scopes = new Map(scopes.subscriptions.map((s) => [`${s.region}/${s.subscription}`, s]));
  }

  /** The catalog's leaves (OPS-006), in catalog order. */
  leaves(): CatalogLeaf[] {
    return this.catalog.subscriptions;
  }

  /** Every leaf resolved, for GET /v1/environments. */
  all(): ResolvedScope[] {
    return this.leaves().map((l) => this.resolve(l.region, l.subscription));
  }

  /** One leaf; 404 scope_not_found when the catalog has none of that name. */
  resolve(region: string, subscription: string): ResolvedScope {
    const key = `${region}/${subscription}`;
    if (!this.catalog.subscriptions.some((l) => l.region === region && l.subscription === subscription)) {
      throw scopeNotFound(region, subscription);
    }
    const vars = this.scopes.get(key)?.vars;
    const value = (name: string | undefined) => (name ? this.env[name] || undefined : undefined);
    const local = this.embedded && this.embedded.region === region && this.embedded.subscription === subscription;
    const databaseUrl = value(vars?.database.url);
    const busUrl = value(vars?.bus.url);
    const pglite = !databaseUrl && local ? this.embedded?.pglite : undefined;
    const bus = !busUrl && local ? this.embedded?.bus : undefined;
    return {
      region,
      subscription,
      key,
      vars,
      kubeconfig: value(vars?.cluster.kubeconfig),
      databaseUrl,
      browserUrl: value(vars?.database.browser_url),
      busUrl,
      pglite,
      bus,
      flags: vars?.flags ? { url: value(vars.flags.url), token: value(vars.flags.token) } : undefined,
      ready: Boolean((databaseUrl || pglite) && (busUrl || bus)),
    };
  }
}
