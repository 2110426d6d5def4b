export { type BrokerDeps, buildApp } from './app.ts';
export { brokerConfig, DEFAULT_PORT } from './config.ts';
export { MIGRATIONS } from './migrations.ts';
export { startBroker } from './start.ts';
