import { type BlobStorage, conflict, notFound, unprocessable, uuidv7 } from '@platform/kit';
import { checkUploadSize } from '../domain/documents.ts';
import type { Document, RegistrationInput, UpdateInput } from '../schemas/documents.ts';
import type { Db } from '../store/db.ts';
import {
  blobRegistered,
  findDocument,
  insertDocument,
  lockDocument,
  replaceMetadata,
  replaceReferences,
  updateDocument,
} from '../store/documents.ts';
import { clearInFlight, markInFlight } from '../store/orphans.ts';
import type { CommandCtx } from './context.ts';

const alreadyRegistered = (blobName: string) =>
  conflict('blob_already_registered', `Blob ${blobName} already belongs to a document`);

/**
 * 409 when the blob already belongs to a document (renewal, registration), wherever that document
 * says it is: a minted blob_name names one upload, so it is never signed or registered again in
 * another container or account.
 */
export async function checkUnregistered(db: Db, blobName: string) {
  if (await blobRegistered(db, blobName)) throw alreadyRegistered(blobName);
}

/**
 * Marks a registration of the blob in flight (the orphan reaper keeps the blob while the mark
 * lasts) and returns the mark. Taken before storage is asked, so a reaper that deletes the blob
 * first makes this registration see no blob (422 blob_not_found), never record a missing one.
 */
export async function markRegistrationInFlight(db: Db, blobName: string, now: Date): Promise<string> {
  const id = uuidv7(now.getTime());
  await markInFlight(db, id, blobName, now);
  return id;
}

/**
 * Ends the mark, whatever the registration's outcome (its document, if any, now keeps the blob).
 * A mark that cannot be removed now stops counting after IN_FLIGHT_LIMIT_MS and the reaper drops it.
 */
export async function endRegistrationInFlight(db: Db, mark: string): Promise<void> {
  await clearInFlight(db, mark).catch(() => {});
}

/**
 * The storage side of a registration, before its transaction opens: the blob has no document
 * yet (409), the container holds it (422 blob_not_found), it is not over the maximum (413).
 * Only its properties are read. Returns its size.
 */
export async function inspectBlob(
  db: Db,
  storage: BlobStorage,
  where: { account: string; container: string; blobName: string },
  maxBytes: number,
): Promise<number> {
  await checkUnregistered(db, where.blobName);
  const blob = await storage.properties(where.account, where.container, where.blobName);
  if (!blob) {
    throw unprocessable(
      'blob_not_found',
      `Container ${where.container} of ${where.account} holds no blob ${where.blobName}`,
      'body/data/blob_name',
    );
  }
  checkUploadSize(blob.size, maxBytes);
  return blob.size;
}

/**
 * Records an uploaded blob as a document, with its size as storage reported it, and emits
 * documents.created. The blob's unique index is the guard: a blob that already has a document
 * is 409 and nothing is written.
 */
export async function registerDocument(
  { trx, principal, now, emit }: CommandCtx,
  input: RegistrationInput & { container: string },
  byteSize: number,
): Promise<Document> {
  const id = uuidv7(now.getTime());
  const inserted = await insertDocument(
    trx,
    {
      id,
      filename: input.filename,
      visibility: input.visibility,
      storage_account: input.storage_account,
      container: input.container,
      blob_name: input.blob_name,
      content_type: input.content_type,
      content_hash: input.content_hash ?? null,
      byte_size: byteSize,
    },
    principal.id,
    now,
  );
  if (!inserted) throw alreadyRegistered(input.blob_name);
  await replaceReferences(trx, id, input.references);
  await replaceMetadata(trx, id, input.metadata);
  const document = (await findDocument(trx, id)) as Document;
  await emit({
    type: 'documents.created',
    data: {
      id,
      storage_account: document.storage_account,
      container: document.container,
      references: document.references,
    },
  });
  return document;
}

/**
 * Changes a document's filename, references or metadata; references and metadata given replace
 * the whole set (an empty array clears it) and stay as they are when omitted. Emits
 * documents.updated with the document's id.
 */
export async function changeDocument({ trx, principal, now, emit }: CommandCtx, id: string, input: UpdateInput) {
  if (!(await lockDocument(trx, id))) throw notFound('Document', 'document_not_found');
  await updateDocument(trx, id, input.filename === undefined ? {} : { filename: input.filename }, principal.id, now);
  if (input.references !== undefined) await replaceReferences(trx, id, input.references);
  if (input.metadata !== undefined) await replaceMetadata(trx, id, input.metadata);
  await emit({ type: 'documents.updated', data: { id } });
  return (await findDocument(trx, id)) as Document;
}
