import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { KitTables } from './kit-tables.ts';
import { PgliteDialect, SharedPglite } from './pglite-dialect.ts';
import { CommitSavingPostgresDialect } from './postgres-dialect.ts';

export type { KitTables } from './kit-tables.ts';

/**
 * A service's database: Kysely over either a `pg` pool (DATABASE_URL) or the process's shared
 * PGlite. Queries run with search_path set to the service's schema, so SQL names tables bare
 * and one database can hold several services.
 */
export type Db<DB extends KitTables = KitTables> = Kysely<DB>;

/**
 * A service's database seen through the kit's tables alone. Every service's schema holds them
 * (its generated DB extends KitTables), so the kit's own queries are typed on any service's Db.
 */
export function kitTables<DB extends KitTables>(db: Db<DB>): Db<KitTables> {
  return db as unknown as Db<KitTables>;
}

/**
 * `DB` is a service's generated database interface (`services/<svc>/src/store/db.ts`, from its
 * migrations by `npm run db:types`); it holds the kit's tables too. Without it, only the kit's.
 */
export interface Database<DB extends KitTables = KitTables> {
  db: Db<DB>;
  schema: string;
  kind: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Dates stay `YYYY-MM-DD` strings and int8 becomes a JS number (money is safe-integer minor units). */
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const pgParsers = {
  [DATE_OID]: (v: string) => v,
  [INT8_OID]: (v: string) => Number(v),
  [NUMERIC_OID]: (v: string) => Number(v),
};

let processPglite: Promise<SharedPglite> | undefined;
const pgliteByDir = new Map<string, Promise<SharedPglite>>();

/** Open (once per process and folder) a PGlite; `memory://` for an in-memory one. */
export function openPglite(dataDir: string, loadDataDir?: Blob): Promise<SharedPglite> {
  const key = dataDir;
  if (dataDir === 'memory://' || loadDataDir) {
    return open(dataDir === 'memory://' ? undefined : dataDir, loadDataDir);
  }
  let p = pgliteByDir.get(key);
  if (!p) {
    p = open(dataDir);
    pgliteByDir.set(key, p);
  }
  return p;
}

/** Whether this process's shared PGlite (the one `openDatabase` opens without `pglite`) is open. */
export const processPgliteOpen = () => processPglite !== undefined;

/**
 * Makes `pglite` this process's shared PGlite, for the next `openDatabase` without `pglite` (the
 * test databases start from a snapshot this way); false when one is open already.
 */
export function adoptProcessPglite(pglite: Promise<SharedPglite>): boolean {
  if (processPglite) return false;
  processPglite = pglite;
  return true;
}

/** A snapshot of this process's shared PGlite (its whole data folder, uncompressed), if it is open. */
export async function dumpProcessPglite(): Promise<Blob | undefined> {
  return processPglite && (await processPglite).pg.dumpDataDir('none');
}

/** Close a PGlite and forget it, so the next open of its folder starts afresh. */
export async function closePglite(handle: SharedPglite): Promise<void> {
  for (const [dir, p] of pgliteByDir) if ((await p) === handle) pgliteByDir.delete(dir);
  if (processPglite && (await processPglite) === handle) processPglite = undefined;
  handle.stopMaintenance();
  if (!handle.pg.closed) await handle.pg.close();
}

async function open(dataDir?: string, loadDataDir?: Blob): Promise<SharedPglite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const instance = new PGlite({ dataDir, loadDataDir, parsers: pgParsers });
  await instance.waitReady;
  const shared = new SharedPglite(instance);
  shared.startMaintenance();
  return shared;
}

export interface DatabaseOptions {
  schema: string;
  /** postgres://… to use a server; otherwise PGlite. */
  url?: string;
  /** PGlite folder (ignored with url); `memory://` for in-memory. */
  dataDir?: string;
  /** An already opened shared PGlite (the embedded launcher and tests pass theirs). */
  pglite?: SharedPglite;
  poolSize?: number;
}

export async function openDatabase<DB extends KitTables = KitTables>(opts: DatabaseOptions): Promise<Database<DB>> {
  const { schema } = opts;
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      options: `-c search_path=${schema},public`,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          const custom = (pgParsers as Record<number, (v: string) => unknown>)[oid];
          return custom ?? pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // A dropped server connection must not crash the process; readiness reports it.
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new CommitSavingPostgresDialect({ pool }) });
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db).catch((e) => {
      // Concurrent creators race on the catalog; the schema existing is all we need.
      if (!String(e.message).includes('already exists') && e.code !== '23505') throw e;
    });
    return {
      db,
      schema,
      kind: 'postgres',
      ping: () => ping(db),
      close: () => db.destroy(),
    };
  }
  const owned = !opts.pglite;
  if (owned && !processPglite) processPglite = openPglite(opts.dataDir ?? 'memory://');
  const handle = opts.pglite ?? (await (processPglite as Promise<SharedPglite>));
  await handle.pg.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const db = new Kysely<DB>({ dialect: new PgliteDialect(handle, schema) });
  return {
    db,
    schema,
    kind: 'pglite',
    ping: () => ping(db),
    // A PGlite this database opened itself is closed with it; a shared one belongs to its opener.
    close: async () => {
      if (owned) await closePglite(handle);
    },
  };
}

async function ping<DB extends KitTables>(db: Db<DB>): Promise<boolean> {
  try {
    await Promise.race([
      sql`select 1`.execute(db),
      new Promise((_, reject) => setTimeout(() => reject(new Error('ping timeout')), 2000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}
