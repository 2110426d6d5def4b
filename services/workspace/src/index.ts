export { buildApp, type WorkspaceDeps } from './app.ts';
export { DEFAULT_PORT, workspaceConfig } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startWorkspace } from './start.ts';
