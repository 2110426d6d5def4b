import { ConfigError } from '@platform/kit';
import { accountingConfig } from './config.ts';
import { startAccounting } from './start.ts';

try {
  const { url } = await startAccounting(accountingConfig());
  console.log(`accounting listening on ${url}`);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
