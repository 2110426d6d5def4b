import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { OutputStatus } from '../domain/outputs.ts';
import type { Output, OutputUpload } from '../schemas/outputs.ts';
import type { Db, OutputUploads, SavedOutputs } from './db.ts';

const OUTPUT_COLUMNS = [
  'id',
  'project_id',
  'conversation_id',
  'slug',
  'version',
  'sha256',
  'status',
  'title',
  'content_type',
  'size_bytes',
  'document_id',
  'filename',
  'saved_by',
  'created_at',
  'superseded_at',
] as const;

type OutputRow = Pick<Selectable<SavedOutputs>, (typeof OUTPUT_COLUMNS)[number]>;

export const toOutput = (r: OutputRow): Output => ({
  id: r.id,
  project_id: r.project_id,
  conversation_id: r.conversation_id ?? null,
  slug: r.slug,
  version: Number(r.version),
  sha256: r.sha256,
  // The column's CHECK holds it to active or superseded.
  status: r.status as OutputStatus,
  title: r.title,
  content_type: r.content_type,
  size_bytes: Number(r.size_bytes),
  document_id: r.document_id ?? null,
  filename: r.filename ?? null,
  saved_by: r.saved_by,
  created_at: isoOrThrow(r.created_at),
  superseded_at: r.superseded_at === null ? null : isoOrThrow(r.superseded_at),
});

/**
 * Serialises saves of one slug on one project until the transaction ends, whichever route they
 * come through: the next version is read and written under it, so concurrent saves of one slug
 * number 1, 2, 3… and leave exactly one active row.
 */
export async function lockSlug(trx: Db, projectId: string, slug: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`saved_outputs:${projectId}:${slug}`}, 0))`.execute(trx);
}

/** The slug's active row and its highest version (0 when it has none). */
export async function slugState(
  trx: Db,
  projectId: string,
  slug: string,
): Promise<{ active: Output | undefined; latest: number }> {
  const active = await trx
    .selectFrom('saved_outputs')
    .select(OUTPUT_COLUMNS)
    .where('project_id', '=', projectId)
    .where('slug', '=', slug)
    .where('status', '=', 'active')
    .executeTakeFirst();
  const latest = await trx
    .selectFrom('saved_outputs')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('project_id', '=', projectId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return { active: active ? toOutput(active) : undefined, latest: Number(latest?.v ?? 0) };
}

export async function supersedeOutput(trx: Db, id: string, now: Date): Promise<void> {
  await trx
    .updateTable('saved_outputs')
    .set({ status: 'superseded', superseded_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .execute();
}

export interface NewOutput {
  id: string;
  project_id: string;
  conversation_id: string | null;
  slug: string;
  version: number;
  sha256: string;
  title: string;
  content_type: string;
  size_bytes: number;
  body: string | null;
  document_id: string | null;
  filename: string | null;
  saved_by: string;
}

export async function insertOutput(trx: Db, o: NewOutput, now: Date): Promise<Output> {
  const row = await trx
    .insertInto('saved_outputs')
    .values({ ...o, status: 'active', created_at: now })
    .returning(OUTPUT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toOutput(row);
}

/** One output with its inline body (null for an uploaded one). */
export async function findOutput(db: Db, id: string): Promise<(Output & { body: string | null }) | undefined> {
  const row = await db
    .selectFrom('saved_outputs')
    .select([...OUTPUT_COLUMNS, 'body'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...toOutput(row), body: row.body ?? null } : undefined;
}

/** Another version of the same slug on the same project. */
export async function findOutputVersion(
  db: Db,
  projectId: string,
  slug: string,
  version: number,
): Promise<(Output & { body: string | null }) | undefined> {
  const row = await db
    .selectFrom('saved_outputs')
    .select([...OUTPUT_COLUMNS, 'body'])
    .where('project_id', '=', projectId)
    .where('slug', '=', slug)
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? { ...toOutput(row), body: row.body ?? null } : undefined;
}

export interface OutputFilter {
  projectId?: string;
  conversationId?: string;
  /** Absent: every status. */
  status?: OutputStatus;
  slug?: string;
}

/** A page of outputs, newest first (then the higher version), and how many match. */
export async function listOutputs(
  db: Db,
  f: OutputFilter,
  page: PageRequest,
): Promise<{ items: Output[]; total: number }> {
  let q = db.selectFrom('saved_outputs');
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.conversationId !== undefined) q = q.where('conversation_id', '=', f.conversationId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.slug !== undefined) q = q.where('slug', '=', f.slug);
  const rows = await q
    .select(OUTPUT_COLUMNS)
    .orderBy('created_at', 'desc')
    // Saves within one instant: the later version first.
    .orderBy('version', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { items: rows.map(toOutput), total: Number(total?.n ?? 0) };
}

const UPLOAD_COLUMNS = [
  'id',
  'project_id',
  'conversation_id',
  'slug',
  'title',
  'filename',
  'content_type',
  'storage_account',
  'container',
  'blob_name',
  'created_by',
  'created_at',
  'expires_at',
  'output_id',
  'finalized_at',
] as const;

export interface UploadRecord extends Omit<OutputUpload, 'created_at' | 'expires_at' | 'finalized_at'> {
  storage_account: string;
  container: string;
  created_at: Date;
  expires_at: Date;
  finalized_at: Date | null;
}

const instant = (v: unknown) => new Date(isoOrThrow(v as Date | string));

const toUpload = (r: Pick<Selectable<OutputUploads>, (typeof UPLOAD_COLUMNS)[number]>): UploadRecord => ({
  id: r.id,
  project_id: r.project_id,
  conversation_id: r.conversation_id,
  slug: r.slug,
  title: r.title,
  filename: r.filename,
  content_type: r.content_type,
  storage_account: r.storage_account,
  container: r.container,
  blob_name: r.blob_name,
  created_by: r.created_by,
  created_at: instant(r.created_at),
  expires_at: instant(r.expires_at),
  output_id: r.output_id ?? null,
  finalized_at: r.finalized_at === null ? null : instant(r.finalized_at),
});

export async function insertUpload(
  trx: Db,
  u: Omit<UploadRecord, 'output_id' | 'finalized_at' | 'created_at'>,
  now: Date,
): Promise<UploadRecord> {
  const row = await trx
    .insertInto('output_uploads')
    .values({ ...u, created_at: now })
    .returning(UPLOAD_COLUMNS)
    .executeTakeFirstOrThrow();
  return toUpload(row);
}

export async function findUpload(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<UploadRecord | undefined> {
  let q = db.selectFrom('output_uploads').select(UPLOAD_COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toUpload(row) : undefined;
}

export async function finishUpload(trx: Db, id: string, outputId: string, now: Date): Promise<void> {
  await trx
    .updateTable('output_uploads')
    .set({ output_id: outputId, finalized_at: now })
    .where('id', '=', id)
    .execute();
}
