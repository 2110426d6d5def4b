import { fileURLToPath } from 'node:url';
import { readMigrations } from './db/migrate.ts';

/** The kit's own tables (idempotency records, outbox), applied before a service's migrations. */
export const KIT_MIGRATIONS = readMigrations(fileURLToPath(new URL('../migrations', import.meta.url)), 'kit:');
