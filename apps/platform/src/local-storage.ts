import { join } from 'node:path';
import { BlobStorage, localStorageCatalog, startAzurite } from '@platform/kit';

/**
 * Blob storage for embedded documents: unless a catalog is configured (DOCUMENTS_STORAGE_CATALOG
 * or DOCUMENTS_STORAGE_CATALOG_FILE), the Azurite emulator runs on 127.0.0.1:10000
 * (AZURITE_BLOB_PORT; 0 picks a free port) keeping blobs in <data>/azurite, and the local catalog
 * (accounts `local` and `local-multi`) points at it, its containers created.
 */
export async function localBlobStorage(
  env: NodeJS.ProcessEnv,
): Promise<{ env: NodeJS.ProcessEnv; close(): Promise<void> }> {
  if (env.DOCUMENTS_STORAGE_CATALOG || env.DOCUMENTS_STORAGE_CATALOG_FILE) return { env: {}, close: async () => {} };
  const dataDir = env.PLATFORM_DATA_DIR || './.data';
  const azurite = await startAzurite({
    port: env.AZURITE_BLOB_PORT === undefined || env.AZURITE_BLOB_PORT === '' ? 10000 : Number(env.AZURITE_BLOB_PORT),
    location: join(dataDir, 'azurite'),
  });
  try {
    const catalog = localStorageCatalog(azurite.blobEndpoint);
    await new BlobStorage(catalog).ensureContainers();
    return { env: { DOCUMENTS_STORAGE_CATALOG: JSON.stringify(catalog) }, close: () => azurite.close() };
  } catch (e) {
    await azurite.close();
    throw e;
  }
}
