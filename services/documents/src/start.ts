import { join } from 'node:path';
import { BlobStorage, type Bus, type SharedPglite, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type DocumentsConfig, documentsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';

/**
 * Starts documents: database and migrations, outbox publisher, storage from the catalog, HTTP.
 * Containers are not created here: the launcher does that for local Azurite (ensureContainers).
 */
export async function startDocuments(
  config: DocumentsConfig = documentsConfig(),
  shared: { pglite?: Promise<SharedPglite>; bus?: Bus; storage?: BlobStorage } = {},
) {
  const runtime = await startRuntime({
    service: 'documents',
    migrations: MIGRATIONS,
    databaseUrl: config.DATABASE_URL,
    dataDir: join(config.PLATFORM_DATA_DIR, 'pglite'),
    pglite: shared.pglite,
    busUrl: config.BUS_URL,
    bus: shared.bus,
    outboxPollMs: config.OUTBOX_POLL_MS,
  });
  const storage = shared.storage ?? (config.STORAGE_CATALOG ? new BlobStorage(config.STORAGE_CATALOG) : undefined);
  const app = await buildApp({
    database: runtime.database,
    storage,
    maxUploadBytes: config.DOCUMENTS_MAX_UPLOAD_BYTES,
    logLevel: config.LOG_LEVEL,
  });
  await app.listen({ port: config.PORT_DOCUMENTS, host: config.HOST });
  return {
    app,
    runtime,
    storage,
    url: `http://${config.HOST}:${(app.server.address() as { port: number }).port}`,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
