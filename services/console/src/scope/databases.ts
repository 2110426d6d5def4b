import { AppError, type SharedPglite } from '@platform/kit';
import pg from 'pg';
import type { ResolvedScope } from '../registry/registry.ts';

/** One statement's answer: its columns and rows (arrays: two columns may share a name). */
export interface StatementResult {
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[][];
}

/**
 * One connection held for a unit of work: the console's own statements and the SQL browser's
 * transaction run on it, then it goes back. Every statement goes through the extended protocol
 * (pg with queryMode 'extended', PGlite's query()), which refuses more than one statement.
 */
export interface Session {
  run(text: string, params?: unknown[]): Promise<StatementResult>;
}

/** A subscription's database as the console reaches it: a PostgreSQL pool, or the embedded PGlite. */
export interface ScopeDatabase {
  kind: 'pglite' | 'postgres';
  /** Holds a connection for `work`, then releases it (a failed one is discarded). */
  session<T>(work: (s: Session) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const databaseNotConfigured = (scope: ResolvedScope) =>
  new AppError(
    501,
    'database_not_configured',
    `${scope.key} has no database configured (${scope.vars?.database.url ?? 'no scopes entry'} is unset)`,
  );

export const scopeUnavailable = (scope: ResolvedScope, e: unknown) =>
  new AppError(503, 'scope_unavailable', `${scope.key}'s database does not answer: ${(e as Error).message}`);

/** Connection errors (as opposed to a statement the database refused). */
export const isConnectionError = (e: unknown): boolean => {
  const code = (e as { code?: string }).code;
  return (
    (typeof code === 'string' && (code.startsWith('08') || /^E[A-Z]+$/.test(code) || code === '57P01')) ||
    /ECONNREFUSED|ENOTFOUND|timeout exceeded when trying to connect|Connection terminated/i.test(
      (e as Error).message ?? '',
    )
  );
};

function postgresDatabase(url: string): ScopeDatabase {
  // pg's own parsers: int8 and numeric stay exact strings, json is parsed, times are Dates.
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    async session(work) {
      const client = await pool.connect();
      let broken = false;
      try {
        return await work({
          run: async (text, params = []) => {
            try {
              const r = await client.query({ text, values: params, rowMode: 'array', queryMode: 'extended' } as never);
              const res = r as unknown as { fields: StatementResult['fields']; rows: unknown[][] };
              return { fields: res.fields ?? [], rows: res.rows ?? [] };
            } catch (e) {
              if (isConnectionError(e)) broken = true;
              throw e;
            }
          },
        });
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

/** The embedded platform's PGlite: one connection shared with the services, taken in turn. */
function pgliteDatabase(handle: Promise<SharedPglite>): ScopeDatabase {
  return {
    kind: 'pglite',
    async session(work) {
      const shared = await handle;
      const release = await shared.acquire('public');
      try {
        return await work({
          run: async (text, params = []) => {
            const r = await shared.pg.query<unknown[]>(text, params, { rowMode: 'array' });
            return { fields: r.fields ?? [], rows: (r.rows ?? []) as unknown[][] };
          },
        });
      } finally {
        release();
      }
    },
    // The launcher owns the PGlite.
    close: async () => {},
  };
}

/**
 * The subscriptions' databases, opened on first use and kept: the one the console inspects and
 * republishes with (its database variable), and the SQL browser's (its own variable when the
 * scopes name one: a role holding only pg_read_all_data).
 */
export class ScopeDatabases {
  private readonly open = new Map<string, ScopeDatabase>();

  /** The subscription's database; 501 database_not_configured when its variable is unset. */
  of(scope: ResolvedScope): ScopeDatabase {
    return this.get(`${scope.key}#main`, scope, scope.databaseUrl);
  }

  /** The SQL browser's database: the read-only role's URL when the scopes name one, else the same. */
  browser(scope: ResolvedScope): ScopeDatabase {
    return scope.browserUrl
      ? this.get(`${scope.key}#browser`, scope, scope.browserUrl)
      : this.get(`${scope.key}#main`, scope, scope.databaseUrl);
  }

  private get(key: string, scope: ResolvedScope, url: string | undefined): ScopeDatabase {
    let db = this.open.get(key);
    if (db) return db;
    if (url) db = postgresDatabase(url);
    else if (scope.pglite) db = pgliteDatabase(scope.pglite);
    else throw databaseNotConfigured(scope);
    this.open.set(key, db);
    return db;
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map((d) => d.close()));
  }
}
