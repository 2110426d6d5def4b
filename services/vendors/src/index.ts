export { buildApp, type VendorsDeps } from './app.ts';
export { callerPolicy, type VendorsAuthOptions, vendorsAuthenticator } from './auth.ts';
export { DEFAULT_PORT, type VendorsConfig, vendorsConfig } from './config.ts';
export { MIGRATIONS } from './migrations.ts';
export { startVendors } from './start.ts';
