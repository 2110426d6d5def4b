import { fileURLToPath } from 'node:url';
import { readMigrations } from '@platform/kit';

export const MIGRATIONS = readMigrations(fileURLToPath(new URL('../migrations', import.meta.url)));
