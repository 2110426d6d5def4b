import { ConfigError, onShutdown } from '@platform/kit';
import { ClientRegistrationError } from './clients/definition.ts';
import { identityConfig } from './config.ts';
import { startIdentity } from './start.ts';

try {
  const started = await startIdentity(identityConfig());
  console.log(`identity listening on ${started.url} (issuer ${started.issuer}, docs ${started.url}/api-docs)`);
  onShutdown(started.close);
} catch (e) {
  if (e instanceof ConfigError || e instanceof ClientRegistrationError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
