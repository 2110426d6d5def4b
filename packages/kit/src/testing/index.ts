export * from './bench.ts';
export * from './command-checks.ts';
export * from './database.ts';
export * from './http-get-load.ts';
export * from './inject.ts';
export * from './measure.ts';
export * from './openapi.ts';
export * from './route-checks.ts';
