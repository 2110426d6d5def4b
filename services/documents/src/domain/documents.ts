import { AppError, type StorageAccount, unprocessable } from '@platform/kit';
import type { MetadataItem, Reference, RegistrationInput, UpdateInput } from '../schemas/documents.ts';
import { isServiceMinted } from './blob-names.ts';
import { safeFilename } from './filenames.ts';

/** Longest SAS lifetime: a longer ttl_seconds is shortened to this. */
export const MAX_SAS_TTL_SECONDS = 24 * 60 * 60;

/** The upload SAS lifetime: the account's default without ttl_seconds, never over 24 hours. */
export const uploadSasTtl = (requested: number | undefined, account: StorageAccount) =>
  Math.min(requested ?? account.sas_ttl_seconds, MAX_SAS_TTL_SECONDS);

export interface LocationInput {
  storage_account: string;
  visibility: string;
  container?: string;
}

/**
 * Where a file goes, checked against the storage catalog: a known account (422
 * unknown_storage_account), the account's visibility (422 visibility_mismatch), and one of its
 * containers (422 unknown_container); the container may be omitted only when the account has
 * exactly one (422 container_required).
 */
export function resolveLocation(
  input: LocationInput,
  lookup: (name: string) => StorageAccount | undefined,
  prefix: string,
): { account: StorageAccount; container: string } {
  const account = lookup(input.storage_account);
  if (!account) {
    throw unprocessable(
      'unknown_storage_account',
      `No storage account ${input.storage_account}`,
      `${prefix}storage_account`,
    );
  }
  if (input.visibility !== account.visibility) {
    throw unprocessable(
      'visibility_mismatch',
      `Storage account ${account.name} is ${account.visibility}, not ${input.visibility}`,
      `${prefix}visibility`,
    );
  }
  if (input.container === undefined) {
    if (account.containers.length === 1) return { account, container: account.containers[0] };
    throw unprocessable(
      'container_required',
      `Storage account ${account.name} has several containers (${account.containers.join(', ')}): name one`,
      `${prefix}container`,
    );
  }
  if (!account.containers.includes(input.container)) {
    throw unprocessable(
      'unknown_container',
      `Storage account ${account.name} has no container ${input.container}`,
      `${prefix}container`,
    );
  }
  return { account, container: input.container };
}

/** References are duplicates when ref_type, ref_id and ref_category are all equal (422 duplicate_reference). */
export function checkReferences(references: readonly Reference[], field: string): void {
  const seen = new Set<string>();
  references.forEach((r, i) => {
    const key = JSON.stringify([r.ref_type, r.ref_id, r.ref_category]);
    if (seen.has(key)) {
      throw unprocessable(
        'duplicate_reference',
        `Reference ${r.ref_type} ${r.ref_id} (${r.ref_category}) is given twice`,
        `${field}/${i}`,
      );
    }
    seen.add(key);
  });
}

/** Metadata pairs are duplicates when their meta_name is equal (422 duplicate_metadata). */
export function checkMetadata(metadata: readonly MetadataItem[], field: string): void {
  const seen = new Set<string>();
  metadata.forEach((m, i) => {
    if (seen.has(m.meta_name)) {
      throw unprocessable('duplicate_metadata', `Metadata ${m.meta_name} is given twice`, `${field}/${i}/meta_name`);
    }
    seen.add(m.meta_name);
  });
}

/** A blob larger than the maximum is refused at registration; exactly the maximum is not larger. */
export function checkUploadSize(size: number, max: number): void {
  if (size > max) {
    throw new AppError(413, 'upload_too_large', `The blob is ${size} bytes; the maximum is ${max} bytes`);
  }
}

/** A blob_name sent back to the service (renewal, registration) must be one it minted (422 blob_not_service_minted). */
export function checkMinted(blobName: string, field: string): void {
  if (!isServiceMinted(blobName)) {
    throw unprocessable(
      'blob_not_service_minted',
      'blob_name is not one this service minted ({stem}_{uuidv7}.{ext})',
      field,
    );
  }
}

/**
 * Everything about a registration that needs neither storage nor the database: a safe filename
 * with an extension, the location against the catalog, a service-minted blob name, no duplicate
 * references or metadata. Returns where the blob is.
 */
export function checkRegistration(
  input: RegistrationInput,
  lookup: (name: string) => StorageAccount | undefined,
): { account: StorageAccount; container: string } {
  safeFilename(input.filename, 'body/data/filename');
  const location = resolveLocation(input, lookup, 'body/data/');
  checkMinted(input.blob_name, 'body/data/blob_name');
  checkReferences(input.references, 'body/data/references');
  checkMetadata(input.metadata, 'body/data/metadata');
  return location;
}

/** An update's filename, references and metadata, each when given. */
export function checkUpdate(input: UpdateInput): void {
  if (input.filename !== undefined) safeFilename(input.filename, 'body/data/filename');
  if (input.references) checkReferences(input.references, 'body/data/references');
  if (input.metadata) checkMetadata(input.metadata, 'body/data/metadata');
}
