export { type AgentsDeps, buildApp } from './app.ts';
export { agentsAuthenticator, callerPolicy } from './auth.ts';
export { type AgentsConfig, agentsConfig, DEFAULT_PORT } from './config.ts';
export { type Action, agentsCan } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startAgents } from './start.ts';
