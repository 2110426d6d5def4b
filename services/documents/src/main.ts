import { runMain } from '@platform/kit';
import { documentsConfig } from './config.ts';
import { startDocuments } from './start.ts';

await runMain('documents', async () => {
  const started = await startDocuments(documentsConfig());
  if (!started.storage) console.warn('documents: no storage configured; SAS, registration and reads answer 503');
  return started;
});
