import type { SafeFilename } from './filenames.ts';

/** The longest stem a blob name carries. */
export const MAX_BLOB_STEM = 80;

const UUID_V7 = '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
/** Exactly what mintBlobName produces. */
const MINTED_RE = new RegExp(`^([A-Za-z0-9_-]{1,${MAX_BLOB_STEM}})_(${UUID_V7})\\.([a-z0-9]{1,16})$`);

/**
 * The blob-name stem of a filename: ASCII letters, digits, `_` and `-` (accents dropped, every
 * other run of characters one `-`), at most 80 characters, `file` when nothing is left.
 */
export function blobStem(stem: string): string {
  const ascii = stem.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const cleaned = ascii
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_BLOB_STEM)
    .replace(/^[-_]+|[-_]+$/g, '');
  return cleaned || 'file';
}

/** The blob name the service chooses: `{stem}_{uuidv7}.{ext}`, the extension in lower case. */
export const mintBlobName = (file: SafeFilename, uuid: string) =>
  `${blobStem(file.stem)}_${uuid}.${file.extension.toLowerCase()}`;

/** Whether a blob name has the form the service mints (its uuid included). */
export const isServiceMinted = (blobName: string) => MINTED_RE.test(blobName);
