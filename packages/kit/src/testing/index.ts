export * from './command-checks.ts';
export * from './database.ts';
export * from './openapi.ts';
