import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import {
  adoptProcessPglite,
  type Database,
  type Db,
  dumpProcessPglite,
  type KitTables,
  openDatabase,
  openPglite,
  processPgliteOpen,
} from '../db/database.ts';
import { type Migration, migrate } from '../db/migrate.ts';
import { KIT_MIGRATIONS } from '../kit-migrations.ts';

/**
 * A migrated database for one test file: in-memory PGlite by default; with TEST_POSTGRES_URL
 * (CI sets it) a fresh schema on the real PostgreSQL, dropped by `drop()`.
 */
export async function testDatabase<DB extends KitTables = KitTables>(
  service: string,
  migrations: Migration[],
): Promise<Database<DB> & { drop(): Promise<void> }> {
  const url = process.env.TEST_POSTGRES_URL;
  const schema = url ? `${service}_t${randomBytes(4).toString('hex')}` : service;
  const all = [...KIT_MIGRATIONS, ...migrations];
  // A test file's first PGlite starts from a snapshot of this service's migrated database when
  // an earlier file left one: loading it is a fraction of a fresh start plus the migrations.
  const snapshot = url || processPgliteOpen() ? undefined : snapshotFile(service, all);
  const fromSnapshot = snapshot !== undefined && existsSync(snapshot);
  if (fromSnapshot) adoptProcessPglite(openPglite('memory://', new Blob([readFileSync(snapshot)])));
  const database = await openDatabase<DB>({ schema, url, dataDir: 'memory://', poolSize: 12 });
  await migrate(database.db, all);
  if (snapshot && !fromSnapshot) await writeSnapshot(snapshot);
  return {
    ...database,
    async drop() {
      if (url) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    },
  };
}

/** The PGlite build the snapshots are made by: a snapshot of another build is never loaded. */
function pgliteVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown';
    }
  } catch {}
  return 'unknown';
}

/** Where the snapshot of a service's database after exactly these migrations lives (TEST_PGLITE_SNAPSHOTS=0: none). */
function snapshotFile(service: string, migrations: readonly Migration[]): string | undefined {
  if (process.env.TEST_PGLITE_SNAPSHOTS === '0') return undefined;
  const key = createHash('sha256')
    .update(JSON.stringify([service, pgliteVersion(), migrations.map((m) => [m.id, m.up])]))
    .digest('hex')
    .slice(0, 24);
  return join(tmpdir(), 'platform-test-pglite', `${service}-${key}.tar`);
}

/** Writes the snapshot beside, then renames it into place, so a reader never sees half a file. */
async function writeSnapshot(file: string): Promise<void> {
  const dump = await dumpProcessPglite();
  if (!dump) return;
  mkdirSync(dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  renameSync(part, file);
}

export const usingPostgres = () => Boolean(process.env.TEST_POSTGRES_URL);

/** An outbox row as tests read it: what a command committed for publishing. */
export interface OutboxRow {
  event_type: string;
  subject: string;
  restricted: boolean;
  payload: { data: Record<string, unknown> } & Record<string, unknown>;
}

/** Rows of the service's outbox, oldest first, optionally of one event type. */
export async function outboxEvents<DB extends KitTables>(db: Db<DB>, type?: string): Promise<OutboxRow[]> {
  const r = await sql<OutboxRow>`
    SELECT event_type, subject, restricted, payload FROM outbox ORDER BY id`.execute(db);
  return r.rows
    .map((x) => ({ ...x, payload: typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload }))
    .filter((x) => !type || x.event_type === type);
}

export async function rowCount<DB extends KitTables>(db: Db<DB>, table: string): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/**
 * How many rows each table holds: a cheap "nothing was written" check. Without `tables`, every
 * table of the database's schema (the outbox and idempotency records included).
 */
export async function rowCounts<DB extends KitTables>(
  db: Db<DB>,
  tables?: readonly string[],
): Promise<Record<string, number>> {
  const names =
    tables ??
    (
      await sql<{ name: string }>`
        SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db)
    ).rows.map((t) => t.name);
  const out: Record<string, number> = {};
  for (const t of names) out[t] = await rowCount(db, t);
  return out;
}
