import type { Documents } from './documents.ts';

/**
 * A presentation's rendered file in the documents service, through its client (documents.ts):
 * a write URL for a new private blob, the bytes PUT there (as a client of the two-step output
 * path does), then the blob registered as a document referenced by the presentation. Each step is
 * bounded in time; any failure is an answer naming the step.
 */

export type StoreAnswer = { ok: true; documentId: string } | { ok: false; detail: string };

export interface DeckFile {
  presentationId: string;
  projectId: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
  renderedBy: string;
  /** Makes a retried render of the same attempt one document. */
  idempotencyKey: string;
}

export const PUT_TIMEOUT_MS = 10_000;

export async function storeDeck(
  documents: Documents,
  file: DeckFile,
  doFetch: typeof fetch = fetch,
): Promise<StoreAnswer> {
  const url = await documents.uploadUrl(file.filename);
  if (!url.ok) return { ok: false, detail: `write URL: ${url.code}: ${url.message}` };
  try {
    const put = await doFetch(url.data.sas_url, {
      method: 'PUT',
      headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': file.contentType },
      body: file.bytes,
      signal: AbortSignal.timeout(PUT_TIMEOUT_MS),
    });
    if (!put.ok) return { ok: false, detail: `blob storage answered HTTP ${put.status}` };
  } catch (e) {
    return { ok: false, detail: `blob storage: ${(e as Error).message}` };
  }
  const doc = await documents.register(
    {
      filename: file.filename,
      storage_account: url.data.storage_account,
      container: url.data.container,
      blob_name: url.data.blob_name,
      content_type: file.contentType,
      references: [{ ref_type: 'project', ref_id: file.projectId, ref_category: 'presentation', is_external: false }],
      metadata: [
        { meta_name: 'presentation_id', meta_value: file.presentationId },
        { meta_name: 'rendered_by', meta_value: file.renderedBy },
      ],
    },
    file.idempotencyKey,
  );
  if (!doc.ok) return { ok: false, detail: `register: ${doc.code}: ${doc.message}` };
  return { ok: true, documentId: doc.data.id };
}
