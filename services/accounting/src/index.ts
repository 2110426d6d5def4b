export { type AccountingDeps, buildApp } from './app.ts';
export { accountingConfig, DEFAULT_PORT } from './config.ts';
export { MIGRATIONS } from './migrations.ts';
export { startAccounting } from './start.ts';
