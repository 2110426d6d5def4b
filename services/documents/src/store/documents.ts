import { isoOrThrow } from '@platform/kit';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import { OWNER_META, PROJECT_REF_TYPE, type ReadableSelection, UPLOADER_META } from '../domain/readable.ts';
import type { Document, MetadataItem, Reference } from '../schemas/documents.ts';
import type { Db, Documents } from './db.ts';

export interface NewDocument {
  id: string;
  filename: string;
  visibility: string;
  storage_account: string;
  container: string;
  blob_name: string;
  content_type: string;
  content_hash: string | null;
  byte_size: number;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** A row of RECORD: the document's columns and its references and metadata as JSON. */
type DocumentRecord = Omit<Selectable<Documents>, 'created_by' | 'updated_by'> & { refs: unknown; meta: unknown };

const toDocument = (r: DocumentRecord): Document => ({
  id: r.id,
  filename: r.filename,
  // The table's CHECK holds it to the schema's values.
  visibility: r.visibility as Document['visibility'],
  storage_account: r.storage_account,
  container: r.container,
  blob_name: r.blob_name,
  content_type: r.content_type,
  content_hash: r.content_hash ?? null,
  byte_size: Number(r.byte_size),
  references: json<Reference[]>(r.refs),
  metadata: json<MetadataItem[]>(r.meta),
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** A document's columns with its references and metadata (in submitted order) as JSON arrays. */
const RECORD = sql`d.id, d.filename, d.visibility, d.storage_account, d.container, d.blob_name, d.content_type,
  d.content_hash, d.byte_size, d.created_at, d.updated_at,
  (SELECT coalesce(json_agg(json_build_object('ref_type', r.ref_type, 'ref_id', r.ref_id,
      'ref_category', r.ref_category, 'is_external', r.is_external) ORDER BY r.position), '[]'::json)
    FROM document_references r WHERE r.document_id = d.id) AS refs,
  (SELECT coalesce(json_agg(json_build_object('meta_name', m.meta_name, 'meta_value', m.meta_value)
      ORDER BY m.position), '[]'::json)
    FROM document_metadata m WHERE m.document_id = d.id) AS meta`;

export async function findDocument(db: Db, id: string): Promise<Document | undefined> {
  const r = await sql<DocumentRecord>`SELECT ${RECORD} FROM documents d WHERE d.id = ${id}::uuid`.execute(db);
  return r.rows[0] ? toDocument(r.rows[0]) : undefined;
}

/** Locks a document for an update; false when there is none. */
export async function lockDocument(trx: Db, id: string): Promise<boolean> {
  const r = await sql`SELECT id FROM documents WHERE id = ${id}::uuid FOR UPDATE`.execute(trx);
  return r.rows.length > 0;
}

/** Whether a document records this blob_name, in any account or container (a minted name names one upload). */
export async function blobRegistered(db: Db, blob: string): Promise<boolean> {
  const r = await sql`SELECT 1 FROM documents WHERE blob_name = ${blob}`.execute(db);
  return r.rows.length > 0;
}

/**
 * Inserts a document unless its blob already has one (the unique index decides, so two
 * concurrent registrations of one blob cannot both win); false on that conflict.
 */
export async function insertDocument(trx: Db, doc: NewDocument, by: string, now: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto('documents')
    .values({ ...doc, created_at: now, created_by: by, updated_at: now, updated_by: by })
    .onConflict((oc) => oc.column('blob_name').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateDocument(trx: Db, id: string, set: { filename?: string }, by: string, now: Date) {
  await trx
    .updateTable('documents')
    .set({ ...set, updated_at: now, updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function replaceReferences(trx: Db, id: string, references: readonly Reference[]) {
  await trx.deleteFrom('document_references').where('document_id', '=', id).execute();
  if (references.length === 0) return;
  await trx
    .insertInto('document_references')
    .values(references.map((r, position) => ({ document_id: id, position, ...r })))
    .execute();
}

export async function replaceMetadata(trx: Db, id: string, metadata: readonly MetadataItem[]) {
  await trx.deleteFrom('document_metadata').where('document_id', '=', id).execute();
  if (metadata.length === 0) return;
  await trx
    .insertInto('document_metadata')
    .values(metadata.map((m, position) => ({ document_id: id, position, ...m })))
    .execute();
}

/**
 * One page of documents matching `where`, newest first (created_at, then id, descending), with
 * the number of all matches. The page's ids are chosen first; only those rows build JSON.
 */
const pageQuery = (where: RawBuilder<unknown>, p: PageRequest) => sql<DocumentRecord & { total: number }>`
    WITH page AS (
      SELECT d.id, d.created_at, count(*) OVER () AS total FROM documents d
      WHERE ${where}
      ORDER BY d.created_at DESC, d.id DESC LIMIT ${p.pageSize} OFFSET ${(p.page - 1) * p.pageSize})
    SELECT ${RECORD}, page.total FROM page JOIN documents d ON d.id = page.id
    ORDER BY page.created_at DESC, page.id DESC`;

async function page(db: Db, where: RawBuilder<unknown>, p: PageRequest) {
  const offset = (p.page - 1) * p.pageSize;
  const r = await pageQuery(where, p).execute(db);
  let total = r.rows.length > 0 ? Number(r.rows[0].total) : 0;
  if (r.rows.length === 0 && offset > 0) {
    // Past the last page: the window count saw no rows, so count on its own.
    const c = await sql<{ n: number }>`SELECT count(*)::int AS n FROM documents d WHERE ${where}`.execute(db);
    total = c.rows[0].n;
  }
  return { items: r.rows.map(toDocument), total };
}

export interface ReferenceFilter {
  ref_type?: string;
  ref_id?: string;
  ref_category?: string;
  is_external?: boolean;
}

/** Every set filter must hold for one and the same reference. */
export function referenceCondition(f: ReferenceFilter): RawBuilder<unknown> {
  const conds: RawBuilder<unknown>[] = [];
  if (f.ref_type !== undefined) conds.push(sql`r.ref_type = ${f.ref_type}`);
  if (f.ref_id !== undefined) conds.push(sql`r.ref_id = ${f.ref_id}`);
  if (f.ref_category !== undefined) conds.push(sql`r.ref_category = ${f.ref_category}`);
  if (f.is_external !== undefined) conds.push(sql`r.is_external = ${f.is_external}`);
  if (conds.length === 0) return sql`TRUE`;
  return sql`EXISTS (SELECT 1 FROM document_references r WHERE r.document_id = d.id AND ${sql.join(conds, sql` AND `)})`;
}

export const listDocuments = (db: Db, filter: ReferenceFilter, p: PageRequest) =>
  page(db, referenceCondition(filter), p);

/** The statement behind a list page (for EXPLAIN in the benchmark). */
export const listDocumentsQuery = (filter: ReferenceFilter, p: PageRequest) => pageQuery(referenceCondition(filter), p);

/** Project files and unfiled files as the selection names them (see domain/readable.ts). */
function readableCondition(s: ReadableSelection): RawBuilder<unknown> | null {
  const projectRef = (ids?: string[]) =>
    sql`EXISTS (SELECT 1 FROM document_references r WHERE r.document_id = d.id AND r.ref_type = ${PROJECT_REF_TYPE}
      ${ids ? sql`AND r.ref_id = ANY(${ids}::text[])` : sql``})`;
  const unfiled = sql`NOT EXISTS (SELECT 1 FROM document_references r WHERE r.document_id = d.id)`;
  if (s.all) return sql`(${projectRef()} OR ${unfiled})`;
  const branches: RawBuilder<unknown>[] = [];
  if (s.projectIds.length > 0) branches.push(projectRef(s.projectIds));
  if (s.owner !== undefined) {
    branches.push(sql`(${unfiled} AND EXISTS (SELECT 1 FROM document_metadata m
      WHERE m.document_id = d.id AND m.meta_name = ${OWNER_META} AND m.meta_value = ${s.owner}))`);
  }
  if (branches.length === 0) return null;
  return sql`(${sql.join(branches, sql` OR `)})`;
}

/** `q` as a case-insensitive substring of the filename or of the uploader. */
function searchCondition(q: string): RawBuilder<unknown> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(d.filename ILIKE ${pattern} ESCAPE '\\' OR EXISTS (SELECT 1 FROM document_metadata m
    WHERE m.document_id = d.id AND m.meta_name = ${UPLOADER_META} AND m.meta_value ILIKE ${pattern} ESCAPE '\\'))`;
}

export async function readableDocuments(db: Db, s: ReadableSelection, q: string | undefined, p: PageRequest) {
  const where = readableCondition(s);
  if (!where) return { items: [], total: 0 };
  return page(db, q === undefined ? where : sql`${where} AND ${searchCondition(q)}`, p);
}

/** Distinct files of the selection: each document counts once however many projects it is in. */
export async function countUploaded(db: Db, s: ReadableSelection): Promise<number> {
  const where = readableCondition(s);
  if (!where) return 0;
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM documents d WHERE ${where}`.execute(db);
  return r.rows[0].n;
}
