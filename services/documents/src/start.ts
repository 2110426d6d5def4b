import { BlobStorage, runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type DocumentsConfig, documentsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';

/**
 * Starts documents: database and migrations, outbox publisher, storage from the catalog, HTTP.
 * Containers are not created here: the launcher does that for local Azurite (ensureContainers).
 */
export async function startDocuments(
  config: DocumentsConfig = documentsConfig(),
  shared: SharedInfrastructure & { storage?: BlobStorage } = {},
) {
  const runtime = await startRuntime({
    service: 'documents',
    migrations: MIGRATIONS,
    ...runtimeFromConfig(config, shared),
  });
  const storage = shared.storage ?? (config.STORAGE_CATALOG ? new BlobStorage(config.STORAGE_CATALOG) : undefined);
  const app = await buildApp({
    database: runtime.database,
    storage,
    maxUploadBytes: config.DOCUMENTS_MAX_UPLOAD_BYTES,
    logLevel: config.LOG_LEVEL,
  });
  return { ...(await serve(app, runtime, { port: config.PORT_DOCUMENTS, host: config.HOST })), storage };
}
