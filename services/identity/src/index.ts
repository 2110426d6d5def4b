export { buildApp, type IdentityDeps } from './app.ts';
export { ClientRegistrationError } from './clients/definition.ts';
export { loadClientDefinitions } from './clients/load.ts';
export { toClientMetadata } from './clients/metadata.ts';
export { DEFAULT_PORT, identityConfig } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { newKeyMaterial } from './oauth/keys.ts';
export { startIdentity } from './start.ts';
