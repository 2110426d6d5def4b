import { ConfigError, onShutdown } from '@platform/kit';
import { documentsConfig } from './config.ts';
import { startDocuments } from './start.ts';

try {
  const started = await startDocuments(documentsConfig());
  if (!started.storage) console.warn('documents: no storage configured; SAS, registration and reads answer 503');
  console.log(`documents listening on ${started.url} (docs ${started.url}/api-docs)`);
  onShutdown(started.close);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
