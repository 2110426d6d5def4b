import { ConfigError, onShutdown } from '@platform/kit';
import { accountingConfig } from './config.ts';
import { startAccounting } from './start.ts';

try {
  const started = await startAccounting(accountingConfig());
  console.log(`accounting listening on ${started.url} (docs ${started.url}/api-docs)`);
  onShutdown(started.close);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
