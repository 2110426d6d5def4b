import { uuidv7 } from '@platform/kit';
import type { EvidenceDocuments } from '../clients/documents.ts';
import { evidenceReference } from '../domain/importers.ts';
import type { Db } from '../store/db.ts';
import { type ImportedRow, importedVersion, upsertImported } from '../store/importers.ts';

/**
 * How every connector stores what it imports (WS-534): the content goes to the documents service
 * (a write URL, the bytes, a registration carrying the reference `imported_evidence` /
 * `<source>:<id>@<version>`), and the workspace keeps one row per item with the document's id —
 * never the content. A pass killed anywhere resumes without a duplicate: before writing, the item's
 * row is read (same version: nothing to do) and the documents service is asked for a document
 * already holding this reference (killed after registering, before the row: that document is
 * used), and the registration's Idempotency-Key is the reference itself.
 */

export interface ImportDeps {
  db: Db;
  documents: EvidenceDocuments;
  clock: () => Date;
}

export type ImportOutcome = 'stored' | 'unchanged' | 'failed';

export interface ImportItem extends Omit<ImportedRow, 'document_id'> {
  /** The content, read only when the item is new or changed. */
  content: () => Promise<
    { ok: true; filename: string; content_type: string; bytes: Buffer } | { ok: false; message: string }
  >;
}

/** Whether this version of the item is stored already (the caller then skips reading it). */
export async function alreadyImported(db: Db, source: ImportedRow['source'], externalId: string, version: string) {
  return (await importedVersion(db, source, externalId))?.version === version;
}

export async function storeImported(d: ImportDeps, item: ImportItem): Promise<ImportOutcome> {
  if (await alreadyImported(d.db, item.source, item.external_id, item.version)) return 'unchanged';
  const ref = evidenceReference(item.source, item.external_id, item.version);
  let found = await d.documents.findByReference(ref);
  if (!found.ok) return 'failed';
  let documentId = found.data?.id;
  if (documentId === undefined) {
    const content = await item.content();
    if (!content.ok) return 'failed';
    const written = await d.documents.writeEvidence(
      { filename: content.filename, content_type: content.content_type, bytes: content.bytes, ref },
      `import:${ref.ref_id}`,
    );
    if (written.ok) documentId = written.data.id;
    else if (written.status === 409) {
      // Registered by an earlier attempt under the same key: that document holds this item.
      found = await d.documents.findByReference(ref);
      documentId = found.ok ? found.data?.id : undefined;
    }
    if (documentId === undefined) return 'failed';
  }
  const { content: _content, ...row } = item;
  await upsertImported(d.db, { ...row, document_id: documentId }, uuidv7(), d.clock());
  return 'stored';
}

/** What one pass did: counts by outcome and the items dropped by a rule, with the rule. */
export interface PassReport {
  stored: number;
  unchanged: number;
  failed: number;
  dropped: { id: string; reason: 'privacy_topic' | 'block_list' | 'draft' | 'outside_window' | 'too_large' }[];
}

export const emptyReport = (): PassReport => ({ stored: 0, unchanged: 0, failed: 0, dropped: [] });

export function count(report: PassReport, outcome: ImportOutcome) {
  report[outcome] += 1;
}
