import { readFileSync } from 'node:fs';
import {
  ConfigError,
  commonConfig,
  int,
  loadConfig,
  optionalStr,
  parseStorageCatalog,
  port,
  type StorageCatalog,
} from '@platform/kit';
import { DEFAULT_ORPHAN_GRACE_HOURS, DEFAULT_ORPHAN_REAP_INTERVAL_MINUTES } from './domain/orphans.ts';

export const DEFAULT_PORT = 4103;
/** DOCUMENTS_MAX_UPLOAD_BYTES when unset: 100 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

type Env = Record<string, string | undefined>;

/** The storage catalog from DOCUMENTS_STORAGE_CATALOG (JSON) or DOCUMENTS_STORAGE_CATALOG_FILE (a path); one at most. */
function storageCatalog(text: string | undefined, file: string | undefined, env: Env): StorageCatalog | undefined {
  if (text && file) {
    throw new ConfigError(
      'Invalid configuration: set DOCUMENTS_STORAGE_CATALOG or DOCUMENTS_STORAGE_CATALOG_FILE, not both',
    );
  }
  if (text) return parseStorageCatalog(text, { source: 'DOCUMENTS_STORAGE_CATALOG', env });
  if (!file) return undefined;
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `Invalid configuration: DOCUMENTS_STORAGE_CATALOG_FILE cannot be read (${(e as Error).message})`,
    );
  }
  return parseStorageCatalog(content, { source: `DOCUMENTS_STORAGE_CATALOG_FILE (${file})`, env });
}

/**
 * Documents' configuration: the common settings, its port, the storage catalog (none: routes
 * that need storage answer 503), the upload limit and the orphan reaper's grace and interval.
 * Authorization is not wired, so there are no authentication settings. Fails fast naming a bad
 * variable.
 */
export function documentsConfig(env: Env = process.env) {
  const c = loadConfig(env, {
    ...commonConfig(),
    PORT_DOCUMENTS: port(DEFAULT_PORT),
    DOCUMENTS_STORAGE_CATALOG: optionalStr(),
    DOCUMENTS_STORAGE_CATALOG_FILE: optionalStr(),
    DOCUMENTS_MAX_UPLOAD_BYTES: int(DEFAULT_MAX_UPLOAD_BYTES, 1),
    // Whole hours, at least one: a blob is never reaped minutes after its upload.
    DOCUMENTS_ORPHAN_GRACE_HOURS: int(DEFAULT_ORPHAN_GRACE_HOURS, 1),
    // 0 turns the reaper off (e.g. on all replicas but one; running it on several is safe too).
    DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES: int(DEFAULT_ORPHAN_REAP_INTERVAL_MINUTES, 0),
  });
  return {
    ...c,
    /** The parsed catalog; a launcher may put its own here (e.g. localStorageCatalog on Azurite). */
    STORAGE_CATALOG: storageCatalog(c.DOCUMENTS_STORAGE_CATALOG, c.DOCUMENTS_STORAGE_CATALOG_FILE, env),
  };
}

export type DocumentsConfig = ReturnType<typeof documentsConfig>;
