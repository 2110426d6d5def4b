import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../db/database.ts';
import { type Migration, migrate } from '../db/migrate.ts';
import { KIT_MIGRATIONS } from '../kit-migrations.ts';

/**
 * A migrated database for one test file: in-memory PGlite by default; with TEST_POSTGRES_URL
 * (CI sets it) a fresh schema on the real PostgreSQL, dropped by `drop()`.
 */
export async function testDatabase(
  service: string,
  migrations: Migration[],
): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env.TEST_POSTGRES_URL;
  const schema = url ? `${service}_t${randomBytes(4).toString('hex')}` : service;
  const database = await openDatabase({ schema, url, dataDir: 'memory://', poolSize: 12 });
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
