export { type AccountingDeps, buildApp } from './app.ts';
export { accountingConfig, DEFAULT_PORT } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startAccounting } from './start.ts';
export type { DB as AccountingDB } from './store/db.ts';
