export * from './command-checks.ts';
export * from './database.ts';
export * from './measure.ts';
export * from './openapi.ts';
