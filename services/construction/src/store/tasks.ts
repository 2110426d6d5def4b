import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { LinkType, TaskRecord, TaskStatus } from '../domain/tasks.ts';
import type { Db, Tasks } from './db.ts';

/** Tasks, their links, dependencies, notes and required documents: the SQL of the tasks area. */

export const TASK_COLUMNS = [
  'id',
  'project_id',
  'title',
  'description',
  'owner_fid',
  'package_id',
  'vendor_id',
  'status',
  'percent_complete',
  'planned_start',
  'planned_finish',
  'forecast_finish',
  'blocked_reason',
  'created_by',
  'created_at',
  'updated_at',
] as const;

const instant = (v: unknown): Date => new Date(isoOrThrow(v as Date | string));

export const toTaskRecord = (r: Pick<Selectable<Tasks>, (typeof TASK_COLUMNS)[number]>): TaskRecord => ({
  ...r,
  // The column's CHECK holds it to the four statuses.
  status: r.status as TaskStatus,
  percent_complete: Number(r.percent_complete),
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
});

/** A task linked to a project, as the project's plan shows it. */
export interface ProjectTask {
  id: string;
  title: string;
  status: TaskStatus;
  percent_complete: number;
  planned_start: string | null;
  planned_finish: string | null;
  forecast_finish: string | null;
  relationship_type: LinkType;
}

/**
 * The tasks linked to a project (its own, relationship_type primary, and those of other projects
 * counting toward it), by planned start (undated last), then creation.
 */
export async function tasksOfProject(db: Db, projectId: string): Promise<ProjectTask[]> {
  const rows = await db
    .selectFrom('task_links as l')
    .innerJoin('tasks as t', 't.id', 'l.task_id')
    .select([
      't.id',
      't.title',
      't.status',
      't.percent_complete',
      't.planned_start',
      't.planned_finish',
      't.forecast_finish',
      'l.relationship_type',
    ])
    .where('l.project_id', '=', projectId)
    .orderBy(sql`t.planned_start ASC NULLS LAST`)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    status: r.status as TaskStatus,
    relationship_type: r.relationship_type as LinkType,
    percent_complete: Number(r.percent_complete),
  }));
}

/**
 * The task; `lock` holds its row for the command. FOR NO KEY UPDATE: the key never changes, and
 * the foreign-key checks of another command's dependency or link rows naming this task (FOR KEY
 * SHARE) must not wait for it, or two dependency inserts would deadlock on the graph lock.
 */
export async function findTask(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<TaskRecord | undefined> {
  let q = db.selectFrom('tasks').select(TASK_COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forNoKeyUpdate();
  const row = await q.executeTakeFirst();
  return row ? toTaskRecord(row) : undefined;
}

export type NewTask = Pick<
  TaskRecord,
  | 'id'
  | 'project_id'
  | 'title'
  | 'description'
  | 'owner_fid'
  | 'package_id'
  | 'vendor_id'
  | 'planned_start'
  | 'planned_finish'
  | 'created_by'
>;

export async function insertTask(trx: Db, t: NewTask, now: Date): Promise<TaskRecord> {
  const row = await trx
    .insertInto('tasks')
    .values({ ...t, created_at: now, updated_at: now })
    .returning(TASK_COLUMNS)
    .executeTakeFirstOrThrow();
  return toTaskRecord(row);
}

export type TaskChanges = Partial<
  Pick<
    TaskRecord,
    | 'title'
    | 'description'
    | 'owner_fid'
    | 'package_id'
    | 'vendor_id'
    | 'planned_start'
    | 'planned_finish'
    | 'status'
    | 'percent_complete'
    | 'forecast_finish'
    | 'blocked_reason'
  >
>;

export async function updateTask(trx: Db, id: string, changes: TaskChanges, now: Date): Promise<TaskRecord> {
  const row = await trx
    .updateTable('tasks')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning(TASK_COLUMNS)
    .executeTakeFirstOrThrow();
  return toTaskRecord(row);
}

// Links

export interface TaskLinkRow {
  project_id: string;
  relationship_type: LinkType;
  share: number | null;
  created_at: Date;
}

export async function linksOf(db: Db, taskId: string): Promise<TaskLinkRow[]> {
  const rows = await db
    .selectFrom('task_links')
    .select(['project_id', 'relationship_type', 'share', 'created_at'])
    .where('task_id', '=', taskId)
    // The primary link first, then the others as they were added.
    .orderBy(sql`relationship_type = 'primary'`, 'desc')
    .orderBy('created_at')
    .orderBy('project_id')
    .execute();
  return rows.map((r) => ({
    project_id: r.project_id,
    relationship_type: r.relationship_type as LinkType,
    share: r.share === null ? null : Number(r.share),
    created_at: instant(r.created_at),
  }));
}

export async function findLink(db: Db, taskId: string, projectId: string) {
  return db
    .selectFrom('task_links')
    .select(['project_id', 'relationship_type', 'share'])
    .where('task_id', '=', taskId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export async function insertLinks(
  trx: Db,
  taskId: string,
  links: readonly { project_id: string; relationship_type: LinkType; share: number | null }[],
  createdBy: string,
  now: Date,
): Promise<void> {
  if (links.length === 0) return;
  await trx
    .insertInto('task_links')
    .values(links.map((l) => ({ task_id: taskId, ...l, created_by: createdBy, created_at: now })))
    .execute();
}

export async function deleteLink(trx: Db, taskId: string, projectId: string): Promise<void> {
  await trx.deleteFrom('task_links').where('task_id', '=', taskId).where('project_id', '=', projectId).execute();
}

/** Which of these projects exist. */
export async function existingProjects(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('development_projects').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

// Dependencies

export interface TaskRef {
  id: string;
  title: string;
  project_id: string;
  status: TaskStatus;
  percent_complete: number;
}

const refOf = (r: { id: string; title: string; project_id: string; status: string; percent_complete: number }) => ({
  ...r,
  status: r.status as TaskStatus,
  percent_complete: Number(r.percent_complete),
});

/** The tasks this task waits for. */
export async function prerequisitesOf(db: Db, taskId: string): Promise<TaskRef[]> {
  const rows = await db
    .selectFrom('task_dependencies as d')
    .innerJoin('tasks as t', 't.id', 'd.depends_on_task_id')
    .select(['t.id', 't.title', 't.project_id', 't.status', 't.percent_complete'])
    .where('d.task_id', '=', taskId)
    .orderBy('d.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map(refOf);
}

/** The tasks waiting for this task. */
export async function dependentsOf(db: Db, taskId: string): Promise<TaskRef[]> {
  const rows = await db
    .selectFrom('task_dependencies as d')
    .innerJoin('tasks as t', 't.id', 'd.task_id')
    .select(['t.id', 't.title', 't.project_id', 't.status', 't.percent_complete'])
    .where('d.depends_on_task_id', '=', taskId)
    .orderBy('d.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map(refOf);
}

/** The prerequisites of the task that are not done. */
export async function unfinishedPrerequisites(db: Db, taskId: string): Promise<{ id: string }[]> {
  return db
    .selectFrom('task_dependencies as d')
    .innerJoin('tasks as t', 't.id', 'd.depends_on_task_id')
    .select('t.id')
    .where('d.task_id', '=', taskId)
    .where('t.status', '<>', 'done')
    .execute();
}

/**
 * Holds the dependency graph for this transaction: two dependency inserts run one after the
 * other, so two of them can never close a cycle together.
 */
export async function lockDependencyGraph(trx: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('construction.task_dependencies'))`.execute(trx);
}

export async function dependencyExists(db: Db, taskId: string, dependsOn: string): Promise<boolean> {
  const row = await db
    .selectFrom('task_dependencies')
    .select('task_id')
    .where('task_id', '=', taskId)
    .where('depends_on_task_id', '=', dependsOn)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `from` already waits, directly or through others, for `to`. */
export async function waitsFor(db: Db, from: string, to: string): Promise<boolean> {
  const r = await sql<{ found: boolean }>`
    WITH RECURSIVE reach(id) AS (
      SELECT depends_on_task_id FROM task_dependencies WHERE task_id = ${from}
      UNION
      SELECT d.depends_on_task_id FROM task_dependencies d JOIN reach ON d.task_id = reach.id
    )
    SELECT EXISTS (SELECT 1 FROM reach WHERE id = ${to}) AS found`.execute(db);
  return r.rows[0]?.found === true;
}

export async function insertDependency(
  trx: Db,
  taskId: string,
  dependsOn: string,
  createdBy: string,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('task_dependencies')
    .values({ task_id: taskId, depends_on_task_id: dependsOn, created_by: createdBy, created_at: now })
    .execute();
}

// Notes

export interface TaskNoteRow {
  id: string;
  body: string;
  created_by: string;
  created_at: Date;
}

export async function notesOf(db: Db, taskId: string): Promise<TaskNoteRow[]> {
  const rows = await db
    .selectFrom('task_notes')
    .select(['id', 'body', 'created_by', 'created_at'])
    .where('task_id', '=', taskId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, created_at: instant(r.created_at) }));
}

export async function insertNote(trx: Db, note: Omit<TaskNoteRow, 'created_at'> & { task_id: string }, now: Date) {
  const row = await trx
    .insertInto('task_notes')
    .values({ ...note, created_at: now })
    .returning(['id', 'body', 'created_by', 'created_at'])
    .executeTakeFirstOrThrow();
  return { ...row, created_at: instant(row.created_at) };
}

// Required documents

export interface TaskDocumentRow {
  document_id: string;
  code: string;
  title: string;
  revision_id: string | null;
  /** The requirement is met: the named revision is published, or (none named) some revision is. */
  current: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Whether requirement `td` is met: SQL over task_documents `td`. */
const currentSql = sql<boolean>`(CASE WHEN td.revision_id IS NULL
  THEN EXISTS (SELECT 1 FROM document_revisions r WHERE r.document_id = td.document_id AND r.state = 'published')
  ELSE EXISTS (SELECT 1 FROM document_revisions r WHERE r.id = td.revision_id AND r.state = 'published') END)`;

export async function documentsOf(db: Db, taskId: string): Promise<TaskDocumentRow[]> {
  const rows = await db
    .selectFrom('task_documents as td')
    .innerJoin('documents as doc', 'doc.id', 'td.document_id')
    .select([
      'td.document_id',
      'doc.code',
      'doc.title',
      'td.revision_id',
      currentSql.as('current'),
      'td.created_at',
      'td.updated_at',
    ])
    .where('td.task_id', '=', taskId)
    .orderBy('td.created_at')
    .orderBy('td.document_id')
    .execute();
  return rows.map((r) => ({
    ...r,
    current: r.current === true,
    created_at: instant(r.created_at),
    updated_at: instant(r.updated_at),
  }));
}

/** The required documents of the task whose requirement is not met. */
export async function documentsNotCurrent(db: Db, taskId: string): Promise<{ document_id: string }[]> {
  return db
    .selectFrom('task_documents as td')
    .select('td.document_id')
    .where('td.task_id', '=', taskId)
    .where(sql<boolean>`NOT ${currentSql}`)
    .execute();
}

export async function findDocument(db: Db, id: string) {
  return db.selectFrom('documents').select(['id', 'code', 'title']).where('id', '=', id).executeTakeFirst();
}

export async function findRevision(db: Db, id: string) {
  return db.selectFrom('document_revisions').select(['id', 'document_id']).where('id', '=', id).executeTakeFirst();
}

export async function findTaskDocument(db: Db, taskId: string, documentId: string) {
  return db
    .selectFrom('task_documents')
    .select(['document_id', 'revision_id'])
    .where('task_id', '=', taskId)
    .where('document_id', '=', documentId)
    .executeTakeFirst();
}

/** Requires the document (optionally one revision): a second PUT replaces the named revision. */
export async function upsertTaskDocument(
  trx: Db,
  row: { task_id: string; document_id: string; revision_id: string | null; created_by: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('task_documents')
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['task_id', 'document_id']).doUpdateSet({ revision_id: row.revision_id, updated_at: now }),
    )
    .execute();
}

export async function deleteTaskDocument(trx: Db, taskId: string, documentId: string): Promise<void> {
  await trx.deleteFrom('task_documents').where('task_id', '=', taskId).where('document_id', '=', documentId).execute();
}

// Packages measured by tasks

export async function findPackage(db: Db, id: string) {
  return db.selectFrom('packages').select(['id', 'project_id', 'measure']).where('id', '=', id).executeTakeFirst();
}

/**
 * A package measured by tasks keeps the mean percent_complete of its tasks (0 without tasks); a
 * package measured by report is left as it is. The caller then refreshes the project's progress.
 */
export async function refreshTaskPackage(trx: Db, packageId: string): Promise<void> {
  await sql`
    UPDATE packages p SET progress = COALESCE((
      SELECT round(avg(t.percent_complete), 2) FROM tasks t WHERE t.package_id = p.id), 0)
    WHERE p.id = ${packageId} AND p.measure = 'tasks'`.execute(trx);
}
