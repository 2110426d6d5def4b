export { type AccountingDeps, buildApp } from './app.ts';
export { accountingConfig, DEFAULT_PORT } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startAccounting } from './start.ts';
