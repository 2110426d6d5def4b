export { buildApp, type WorkspaceDeps } from './app.ts';
export { DEFAULT_PORT, workspaceConfig } from './config.ts';
export { MIGRATIONS } from './migrations.ts';
export { startWorkspace } from './start.ts';
