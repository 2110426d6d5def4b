import { join } from 'node:path';
import { ConfigError, commonConfig, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { type Migration, migrate } from './db/migrate.ts';
import { KIT_MIGRATIONS } from './kit-migrations.ts';

/**
 * Applies a service's migrations (the kit's, then its own) to its schema in the database the
 * service would use (DATABASE_URL, or the PGlite folder under PLATFORM_DATA_DIR); returns the ids
 * it applied. Replicas and jobs may run it together: migrations take a per-schema lock.
 */
export async function migrateService(
  service: string,
  migrations: Migration[],
  env: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  const config = loadConfig(env, commonConfig());
  const database = await openDatabase({
    schema: service,
    url: config.DATABASE_URL,
    dataDir: join(config.PLATFORM_DATA_DIR, 'pglite'),
  });
  try {
    return await migrate(database.db, [...KIT_MIGRATIONS, ...migrations]);
  } finally {
    await database.close();
  }
}

/**
 * A service's migrate entry (`node services/<name>/dist/migrate.js`): apply, say what was applied,
 * exit 0, so a rollout can migrate as a job before the new version starts (then MIGRATE_ON_START=0).
 * A bad setting exits 2 with its message; a failed migration exits 1 (its transaction rolled back).
 */
export async function runMigrate(service: string, migrations: Migration[]): Promise<never> {
  try {
    const ran = await migrateService(service, migrations);
    console.log(
      ran.length === 0
        ? `${service}: schema up to date, no migration to apply`
        : `${service}: applied ${ran.length} migration(s): ${ran.join(', ')}`,
    );
    process.exit(0);
  } catch (e) {
    console.error(e instanceof ConfigError ? e.message : `${service}: migration failed: ${(e as Error).stack ?? e}`);
    process.exit(e instanceof ConfigError ? 2 : 1);
  }
}
