import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@platform/kit';

/** The committed registry inputs (scopes.json, catalog.json) live beside src/. */
export const REGISTRY_DIR = join(import.meta.dirname, '..', '..', 'registry');

/**
 * Per subscription, the NAMES of the variables holding its cluster (a kubeconfig path), bus,
 * database and flag server: never their values (OPS-031). A subscription may have no flag-server
 * block (its flag routes then answer 501, OPS-062).
 */
export interface ScopeVars {
  cluster: { kubeconfig: string };
  bus: { url: string };
  /**
   * `url`: the console's own connection (outbox counts, republish). `browser_url`: the SQL
   * browser's, a role holding only pg_read_all_data (else the SQL browser uses `url`).
   */
  database: { url: string; browser_url?: string };
  flags?: { url: string; token: string };
}

export interface ScopeEntry {
  region: string;
  subscription: string;
  vars: ScopeVars;
}

export interface ScopesInput {
  subscriptions: ScopeEntry[];
}

const VAR_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Every variable name a scope holds, for the check that the input holds names and no values. */
export function variableNames(vars: ScopeVars): string[] {
  return [
    vars.cluster.kubeconfig,
    vars.bus.url,
    vars.database.url,
    ...(vars.database.browser_url !== undefined ? [vars.database.browser_url] : []),
    ...(vars.flags ? [vars.flags.url, vars.flags.token] : []),
  ];
}

/** Reads and checks the scopes input: a value where a name belongs stops start-up. */
export function loadScopes(file = join(REGISTRY_DIR, 'scopes.json')): ScopesInput {
  let input: ScopesInput;
  try {
    input = JSON.parse(readFileSync(file, 'utf8')) as ScopesInput;
  } catch (e) {
    throw new ConfigError(`Invalid configuration: the scopes file ${file} cannot be read (${(e as Error).message})`);
  }
  for (const s of input.subscriptions ?? []) {
    const bad = variableNames(s.vars).find((n) => typeof n !== 'string' || !VAR_NAME.test(n));
    if (bad !== undefined) {
      throw new ConfigError(
        `Invalid configuration: scope ${s.region}/${s.subscription} names ${JSON.stringify(bad)}, which is not a variable name`,
      );
    }
  }
  return input;
}
