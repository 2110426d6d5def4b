import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Database, type Db, type KitTables, openDatabase } from '../db/database.ts';
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
  const database = await openDatabase<DB>({ schema, url, dataDir: 'memory://', poolSize: 12 });
  await migrate(database.db, [...KIT_MIGRATIONS, ...migrations]);
  return {
    ...database,
    async drop() {
      if (url) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    },
  };
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

/** How many rows each table holds: a cheap "nothing was written" check. */
export async function rowCounts<DB extends KitTables>(
  db: Db<DB>,
  tables: readonly string[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await rowCount(db, t);
  return out;
}
