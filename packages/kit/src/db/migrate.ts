import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ConfigError } from '../config.ts';
import type { Db, KitTables } from './database.ts';

/**
 * Plain SQL migrations applied in order and recorded in `schema_migrations`. Files are
 * `NNNN_name.sql`; an optional `NNNN_name.down.sql` rolls one back (a down file may refuse,
 * by raising, while data it would destroy exists). The kit's own tables come first.
 */
export interface Migration {
  id: string;
  up: string;
  down?: string;
}

export function readMigrations(dir: string, prefix = ''): Migration[] {
  const files = readdirSync(dir).filter((f) => /^\d{4}_.+\.sql$/.test(f));
  const ups = files.filter((f) => !f.endsWith('.down.sql')).sort();
  return ups.map((f) => {
    const base = f.replace(/\.sql$/, '');
    const downFile = files.find((d) => d === `${base}.down.sql`);
    return {
      id: `${prefix}${base}`,
      up: readFileSync(join(dir, f), 'utf8'),
      down: downFile ? readFileSync(join(dir, downFile), 'utf8') : undefined,
    };
  });
}

const LOCK = 'schema_migrations';

export async function migrate<DB extends KitTables>(db: Db<DB>, migrations: Migration[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // One migrator at a time per schema, so replicas starting together do not race.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ${LOCK}, 0))`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx);
    const done = await sql<{ id: string }>`SELECT id FROM schema_migrations`.execute(trx);
    const applied = new Set(done.rows.map((r) => r.id));
    const ran: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.id)) continue;
      await sql.raw(m.up).execute(trx);
      const checksum = createHash('sha256').update(m.up).digest('hex');
      await sql`INSERT INTO schema_migrations (id, checksum) VALUES (${m.id}, ${checksum})`.execute(trx);
      ran.push(m.id);
    }
    return ran;
  });
}

/**
 * Roll back applied migrations newest first, in the order of `migrations` reversed (ids of the
 * kit and of the service do not sort together), down to (not including) `toId`.
 */
export async function rollback<DB extends KitTables>(
  db: Db<DB>,
  migrations: Migration[],
  toId: string,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ${LOCK}, 0))`.execute(trx);
    const done = await sql<{ id: string }>`SELECT id FROM schema_migrations`.execute(trx);
    const applied = new Set(done.rows.map((r) => r.id));
    if (!migrations.some((m) => m.id === toId)) throw new Error(`Unknown migration ${toId}`);
    const rolled: string[] = [];
    for (const m of [...migrations].reverse()) {
      if (m.id === toId) break;
      if (!applied.has(m.id)) continue;
      if (!m.down) throw new Error(`Migration ${m.id} has no down migration`);
      await sql.raw(m.down).execute(trx);
      await sql`DELETE FROM schema_migrations WHERE id = ${m.id}`.execute(trx);
      rolled.push(m.id);
    }
    return rolled;
  });
}

/**
 * The migrations not yet applied to the schema, in order (none: the schema is current). A schema
 * ahead of this code (ids it does not know) is not an error: an older version may run during a rollout.
 */
export async function pendingMigrations<DB extends KitTables>(db: Db<DB>, migrations: Migration[]): Promise<string[]> {
  const exists = await sql<{
    t: string | null;
  }>`SELECT to_regclass(quote_ident(current_schema()) || '.schema_migrations')::text AS t`.execute(db);
  if (!exists.rows[0]?.t) return migrations.map((m) => m.id);
  const done = await sql<{ id: string }>`SELECT id FROM schema_migrations`.execute(db);
  const applied = new Set(done.rows.map((r) => r.id));
  return migrations.filter((m) => !applied.has(m.id)).map((m) => m.id);
}

/** The schema is older than the code and the process was told not to migrate it (MIGRATE_ON_START=0). */
export class SchemaBehindError extends ConfigError {}

/**
 * A service's schema at start-up: migrated (the default), or, when `apply` is false because a
 * rollout runs the migrate entry as a job first, checked: a schema that misses any of the
 * migrations stops start-up naming them, rather than serving against tables that are not there.
 */
export async function prepareSchema<DB extends KitTables>(
  database: { db: Db<DB>; schema: string; close(): Promise<void> },
  migrations: Migration[],
  apply = true,
): Promise<void> {
  if (apply) {
    await migrate(database.db, migrations);
    return;
  }
  const pending = await pendingMigrations(database.db, migrations);
  if (pending.length === 0) return;
  await database.close();
  throw new SchemaBehindError(
    `The ${database.schema} schema misses ${pending.length} migration(s) (${pending.join(', ')}) and ` +
      'MIGRATE_ON_START=0: run the migrate entry first (node services/<name>/dist/migrate.js), or start with MIGRATE_ON_START=1',
  );
}
