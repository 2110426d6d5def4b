export { buildApp, type ConsoleDeps } from './app.ts';
export { consoleAuthenticator } from './auth.ts';
export { type ConsoleConfig, consoleConfig, DEFAULT_PORT } from './config.ts';
export { startConsole } from './start.ts';
