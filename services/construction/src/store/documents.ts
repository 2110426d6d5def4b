import type { PageRequest } from '@platform/kit';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { DB, Db } from './db.ts';

/** SQL of document control: the register, revisions, trail, links and impacts. */

const DOCUMENT_COLUMNS = [
  'd.id',
  'd.code',
  'd.title',
  'd.doc_type',
  'd.discipline',
  'd.owner_fid',
  'd.created_by',
  'd.created_at',
  'd.updated_at',
] as const;

/** The latest published number of a document, as a column. */
const currentNumber = sql<number | null>`(SELECT max(r.number) FROM document_revisions r WHERE r.document_id = d.id)`;

export interface DocumentFilter {
  doc_type?: string;
  discipline?: string;
  owner_fid?: string;
  project_id?: string;
  published?: boolean;
  search?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered<O>(q: SelectQueryBuilder<DB & { d: DB['documents'] }, 'd', O>, f: DocumentFilter) {
  let r = q;
  if (f.doc_type !== undefined) r = r.where('d.doc_type', '=', f.doc_type);
  if (f.discipline !== undefined) r = r.where('d.discipline', '=', f.discipline);
  if (f.owner_fid !== undefined) r = r.where('d.owner_fid', '=', f.owner_fid);
  if (f.project_id !== undefined) {
    const project = f.project_id;
    r = r.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('document_links as l')
          .select('l.id')
          .whereRef('l.document_id', '=', 'd.id')
          .where('l.project_id', '=', project),
      ),
    );
  }
  if (f.published !== undefined) {
    const has = sql<boolean>`EXISTS (SELECT 1 FROM document_revisions r WHERE r.document_id = d.id AND r.number IS NOT NULL)`;
    r = r.where(f.published ? has : sql<boolean>`NOT ${has}`);
  }
  if (f.search !== undefined && f.search.trim() !== '') {
    const like = `%${escapeLike(f.search.trim())}%`;
    r = r.where((eb) => eb.or([eb('d.code', 'ilike', like), eb('d.title', 'ilike', like)]));
  }
  return r;
}

export async function listDocuments(db: Db, f: DocumentFilter, page: PageRequest) {
  const base = filtered(db.selectFrom('documents as d'), f);
  const [items, count] = await Promise.all([
    base
      .select([...DOCUMENT_COLUMNS, currentNumber.as('current_number')])
      .orderBy('d.code')
      .orderBy('d.id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export type DocumentRow = Awaited<ReturnType<typeof findDocument>> & {};

export async function findDocument(db: Db, id: string, opts: { lock?: boolean } = {}) {
  let q = db
    .selectFrom('documents as d')
    .select([...DOCUMENT_COLUMNS, currentNumber.as('current_number')])
    .where('d.id', '=', id);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Locks the document row: revisions are lettered and published one at a time per document. */
export async function lockDocument(db: Db, id: string) {
  return db.selectFrom('documents').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function codeHolder(db: Db, code: string) {
  return db.selectFrom('documents').select('id').where(sql`lower(code)`, '=', code.toLowerCase()).executeTakeFirst();
}

export async function insertDocument(
  db: Db,
  row: { id: string; code: string; title: string; doc_type: string; discipline: string; owner_fid: string | null },
  actor: string,
  now: Date,
) {
  await db
    .insertInto('documents')
    .values({ ...row, created_by: actor, created_at: now, updated_at: now })
    .execute();
}

export async function updateDocument(
  db: Db,
  id: string,
  changes: { code?: string; title?: string; doc_type?: string; discipline?: string; owner_fid?: string | null },
  now: Date,
) {
  await db
    .updateTable('documents')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

const REVISION_COLUMNS = [
  'id',
  'document_id',
  'letter',
  'number',
  'state',
  'based_on_number',
  'created_by',
  'created_at',
  'updated_at',
  'published_at',
] as const;

export async function listRevisions(db: Db, documentId: string) {
  return db
    .selectFrom('document_revisions')
    .select(REVISION_COLUMNS)
    .where('document_id', '=', documentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findRevision(db: Db, id: string, opts: { lock?: boolean } = {}) {
  let q = db.selectFrom('document_revisions').select(REVISION_COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}
export type RevisionRow = NonNullable<Awaited<ReturnType<typeof findRevision>>>;

/** How many revisions were started on this published number (null: before the first publication). */
export async function countStartedOn(db: Db, documentId: string, number: number | null) {
  const r = await db
    .selectFrom('document_revisions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('document_id', '=', documentId)
    .where('based_on_number', number === null ? 'is' : '=', number)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertRevision(
  db: Db,
  row: { id: string; document_id: string; letter: string; state: string; based_on_number: number | null },
  actor: string,
  now: Date,
) {
  return db
    .insertInto('document_revisions')
    .values({ ...row, created_by: actor, created_at: now, updated_at: now })
    .returning(REVISION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function setRevisionState(
  db: Db,
  id: string,
  change: { state: string; number?: number; published_at?: Date },
  now: Date,
) {
  return db
    .updateTable('document_revisions')
    .set({ ...change, updated_at: now })
    .where('id', '=', id)
    .returning(REVISION_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The latest published number (max), read after the document row is locked. */
export async function publishedNumber(db: Db, documentId: string) {
  const r = await db
    .selectFrom('document_revisions')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return r?.n ?? null;
}

export async function addTrail(
  db: Db,
  row: {
    id: string;
    document_id: string;
    revision_id?: string | null;
    action: string;
    from_state?: string | null;
    to_state?: string | null;
    note?: string | null;
  },
  actor: string,
  now: Date,
) {
  await db
    .insertInto('document_trail')
    .values({ revision_id: null, from_state: null, to_state: null, note: null, ...row, actor_fid: actor, at: now })
    .execute();
}

export async function listTrail(db: Db, documentId: string) {
  return db
    .selectFrom('document_trail')
    .select(['id', 'revision_id', 'action', 'from_state', 'to_state', 'note', 'actor_fid', 'at'])
    .where('document_id', '=', documentId)
    .orderBy('seq')
    .execute();
}

const LINK_COLUMNS = [
  'id',
  'document_id',
  'target_type',
  'target_id',
  'stage',
  'project_id',
  'created_by',
  'created_at',
] as const;

export async function listLinks(db: Db, documentId: string) {
  return db
    .selectFrom('document_links')
    .select(LINK_COLUMNS)
    .where('document_id', '=', documentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findLink(
  db: Db,
  documentId: string,
  target: { target_type: string; target_id: string; stage: string | null },
) {
  return db
    .selectFrom('document_links')
    .select(LINK_COLUMNS)
    .where('document_id', '=', documentId)
    .where('target_type', '=', target.target_type)
    .where('target_id', '=', target.target_id)
    .where(sql`coalesce(stage, '')`, '=', target.stage ?? '')
    .executeTakeFirst();
}

export async function findLinkById(db: Db, documentId: string, linkId: string) {
  return db
    .selectFrom('document_links')
    .select(LINK_COLUMNS)
    .where('document_id', '=', documentId)
    .where('id', '=', linkId)
    .executeTakeFirst();
}

export async function insertLink(
  db: Db,
  row: {
    id: string;
    document_id: string;
    target_type: string;
    target_id: string;
    stage: string | null;
    project_id: string | null;
  },
  actor: string,
  now: Date,
) {
  return db
    .insertInto('document_links')
    .values({ ...row, created_by: actor, created_at: now })
    .returning(LINK_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deleteLink(db: Db, linkId: string) {
  await db.deleteFrom('document_links').where('id', '=', linkId).execute();
}

/** The projects a document is linked to directly (project links): a drafted variation's project. */
export async function linkedProjects(db: Db, documentId: string) {
  const rows = await db
    .selectFrom('document_links')
    .select('project_id')
    .distinct()
    .where('document_id', '=', documentId)
    .where('target_type', '=', 'project')
    .execute();
  return rows.map((r) => r.project_id).filter((p): p is string => p !== null);
}

const IMPACT_COLUMNS = [
  'id',
  'revision_id',
  'number',
  'summary',
  'cost_minor',
  'days',
  'variation_id',
  'recorded_by',
  'created_at',
] as const;

export async function insertImpact(
  db: Db,
  row: {
    id: string;
    document_id: string;
    revision_id: string;
    number: number;
    summary: string;
    cost_minor: number | null;
    days: number | null;
    variation_id: string | null;
  },
  actor: string,
  now: Date,
) {
  return db
    .insertInto('document_impacts')
    .values({ ...row, recorded_by: actor, created_at: now })
    .returning(IMPACT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function listImpacts(db: Db, documentId: string) {
  return db
    .selectFrom('document_impacts')
    .select(IMPACT_COLUMNS)
    .where('document_id', '=', documentId)
    .orderBy('number')
    .execute();
}

/** Whether the project has its award baseline (a variation needs it). */
export async function hasAwardBaseline(db: Db, projectId: string) {
  const r = await db
    .selectFrom('baselines')
    .select('id')
    .where('project_id', '=', projectId)
    .where('kind', '=', 'award')
    .executeTakeFirst();
  return r !== undefined;
}

export async function insertVariation(
  db: Db,
  row: {
    id: string;
    project_id: string;
    title: string;
    description: string;
    cost_change_minor: number | null;
    days: number | null;
    source_revision_id: string;
  },
  actor: string,
  now: Date,
) {
  await db
    .insertInto('variations')
    .values({ ...row, status: 'drafted', created_by: actor, created_at: now, updated_at: now })
    .execute();
}

/** The project of a milestone, or undefined. */
export async function milestoneProject(db: Db, id: string) {
  const r = await db.selectFrom('milestones').select('project_id').where('id', '=', id).executeTakeFirst();
  return r?.project_id;
}

/** The primary project of a task, or undefined (tasks are the tasks area's table). */
export async function taskProject(db: Db, id: string) {
  const r = await sql<{ project_id: string }>`SELECT project_id FROM tasks WHERE id = ${id}`.execute(db);
  return r.rows[0]?.project_id;
}

/** Whether a project exists (reads; writes lock it through projectForWrite). */
export async function projectExists(db: Db, id: string) {
  const r = await db.selectFrom('development_projects').select('id').where('id', '=', id).executeTakeFirst();
  return r !== undefined;
}
