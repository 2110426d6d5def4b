import { ConfigError, onShutdown } from '@platform/kit';
import { vendorsConfig } from './config.ts';
import { startVendors } from './start.ts';

try {
  const started = await startVendors(vendorsConfig());
  console.log(`vendors listening on ${started.url} (docs ${started.url}/api-docs)`);
  onShutdown(started.close);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
