export { buildApp, type VendorsDeps } from './app.ts';
export { callerPolicy, type VendorsAuthOptions, vendorsAuthenticator } from './auth.ts';
export { DEFAULT_PORT, type VendorsConfig, vendorsConfig } from './config.ts';
export { type Action, vendorsCan } from './domain/permissions.ts';
export { MIGRATIONS } from './migrations.ts';
export { startVendors } from './start.ts';
