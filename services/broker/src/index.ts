export { type BrokerDeps, buildApp } from './app.ts';
export { brokerAuthenticator } from './auth.ts';
export { brokerConfig, DEFAULT_PORT } from './config.ts';
export { type Action, can } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startBroker } from './start.ts';
