export { SYSTEM_PRINCIPAL, systemAuthenticator } from './actor.ts';
export { buildApp, type DocumentsDeps } from './app.ts';
export { DEFAULT_MAX_UPLOAD_BYTES, DEFAULT_PORT, type DocumentsConfig, documentsConfig } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startDocuments } from './start.ts';
