export { buildApp, type ConstructionDeps } from './app.ts';
export { callerPolicy, constructionAuthenticator } from './auth.ts';
export { type ConstructionConfig, constructionConfig, DEFAULT_PORT } from './config.ts';
export { type Action, constructionCan } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startConstruction } from './start.ts';
