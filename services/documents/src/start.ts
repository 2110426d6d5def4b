import { BlobStorage, runtimeFromConfig, type SharedInfrastructure, serve, startRuntime } from '@platform/kit';
import { buildApp } from './app.ts';
import { type DocumentsConfig, documentsConfig } from './config.ts';
import { MIGRATIONS } from './migrations.ts';
import { OrphanReaper } from './reaper.ts';
import type { DB } from './store/db.ts';

/**
 * Starts documents: database and migrations, outbox publisher, storage from the catalog, HTTP,
 * and with storage the orphan reaper (unless DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES is 0), which
 * close stops first. Containers are not created here: the launcher does that for local Azurite
 * (ensureContainers).
 */
export async function startDocuments(
  config: DocumentsConfig = documentsConfig(),
  shared: SharedInfrastructure & { storage?: BlobStorage } = {},
) {
  const runtime = await startRuntime<DB>({
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
  const served = await serve(app, runtime, { port: config.PORT_DOCUMENTS, host: config.HOST });
  const reaper =
    storage && config.DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES > 0
      ? new OrphanReaper(runtime.database.db, storage, {
          graceHours: config.DOCUMENTS_ORPHAN_GRACE_HOURS,
          intervalMs: config.DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES * 60_000,
          onError: (e, where) => app.log.warn({ err: e, ...where }, 'orphan reaper: run failed'),
          onRun: (r) => {
            if (r.removed.length > 0)
              app.log.info({ removed: r.removed.length }, 'orphan reaper: orphan blobs removed');
          },
        })
      : undefined;
  reaper?.start();
  return {
    ...served,
    storage,
    reaper,
    async close(o?: { graceMs?: number }) {
      await reaper?.stop();
      await served.close(o);
    },
  };
}
