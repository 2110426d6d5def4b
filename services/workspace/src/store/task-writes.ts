import { sql } from 'kysely';
import { RANK_GAP } from '../domain/ranks.ts';
import type { Content } from '../domain/task-edits.ts';
import type { TaskType } from '../domain/workflows.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db } from './db.ts';
import { TASK_COLUMNS, toTask } from './tasks.ts';

/**
 * Writes of existing tasks (PATCH, move, archive, unarchive, restore, resolve) and the position
 * reads a move needs. Every caller holds the project's write lock, so the neighbours read here
 * stay where they are until the command commits.
 */

/** What one write sets on a task row (only the columns given change). */
export interface TaskUpdate {
  type?: TaskType;
  title?: string;
  body?: string;
  fields?: Record<string, string>;
  links?: Task['links'];
  resolution?: string | null;
  version?: number;
  status_id?: string;
  category?: string;
  status_changed_at?: Date;
  resolved_at?: Date | null;
  resolved_by?: string | null;
  assignee?: string | null;
  target_date?: string | null;
  goal_id?: string | null;
  rank?: number;
  archived?: boolean;
  archived_at?: Date | null;
}

/** Applies one write to a task: the columns given, its change number and updated_at. */
export async function updateTask(trx: Db, id: string, u: TaskUpdate, changeSeq: number, now: Date): Promise<Task> {
  const set: Record<string, unknown> = { ...u, change_seq: changeSeq, updated_at: now };
  if (u.fields !== undefined) set.fields = JSON.stringify(u.fields);
  if (u.links !== undefined) set.links = JSON.stringify(u.links);
  const row = await trx
    .updateTable('tasks')
    .set(set)
    .where('id', '=', id)
    .returning(TASK_COLUMNS)
    .executeTakeFirstOrThrow();
  return toTask(row);
}

/**
 * updateTask at the project's next change number (takeChangeNumber, kind tasks) in one statement
 * (issue 22.1: was two): the task as written and the number it took. Call under lockProject.
 */
export async function updateTaskAtNextChange(
  trx: Db,
  projectId: string,
  id: string,
  u: TaskUpdate,
  now: Date,
): Promise<{ task: Task; seq: number }> {
  const set: Record<string, unknown> = { ...u, change_seq: sql`(SELECT change_seq FROM seq)`, updated_at: now };
  if (u.fields !== undefined) set.fields = JSON.stringify(u.fields);
  if (u.links !== undefined) set.links = JSON.stringify(u.links);
  const row = await trx
    .with('seq', (db) =>
      db
        .updateTable('projects')
        .set({ change_seq: sql`change_seq + 1` })
        .where('id', '=', projectId)
        .returning('change_seq'),
    )
    .updateTable('tasks')
    .set(set)
    .where('id', '=', id)
    .returning([...TASK_COLUMNS, 'change_seq'])
    .executeTakeFirstOrThrow();
  return { task: toTask(row), seq: Number(row.change_seq) };
}

/** What a move needs to know of its neighbours (`neighbours`): each named task's rank, and the ranks around them. */
export interface Neighbours {
  /** after_id's rank; undefined when after_id is not a task of this project (or was not sent). */
  after: number | undefined;
  /** before_id's rank; undefined when before_id is not a task of this project (or was not sent). */
  before: number | undefined;
  /** The rank just below after_id's (nextRank), null at the bottom or without after_id. */
  belowAfter: number | null;
  /** The rank just above before_id's (previousRank), null at the top or without before_id. */
  aboveBefore: number | null;
}

/**
 * rankOf for after_id and before_id, nextRank below after_id and previousRank above before_id, in
 * one statement (issue 22.1: a move read its neighbours in three).
 */
export async function neighbours(
  db: Db,
  projectId: string,
  afterId: string | undefined,
  beforeId: string | undefined,
  except: string,
): Promise<Neighbours> {
  const r = await sql<{ after: string | null; before: string | null; below: string | null; above: string | null }>`
    WITH a AS (SELECT rank FROM tasks WHERE id = ${afterId ?? null} AND project_id = ${projectId}),
         b AS (SELECT rank FROM tasks WHERE id = ${beforeId ?? null} AND project_id = ${projectId})
    SELECT (SELECT rank FROM a) AS after, (SELECT rank FROM b) AS before,
      (SELECT min(t.rank) FROM tasks t, a WHERE t.project_id = ${projectId} AND t.rank > a.rank AND t.id <> ${except}) AS below,
      (SELECT max(t.rank) FROM tasks t, b WHERE t.project_id = ${projectId} AND t.rank < b.rank AND t.id <> ${except}) AS above`.execute(
    db,
  );
  const row = r.rows[0];
  const num = (v: string | null | undefined) => (v == null ? null : Number(v));
  return {
    after: num(row?.after) ?? undefined,
    before: num(row?.before) ?? undefined,
    belowAfter: num(row?.below),
    aboveBefore: num(row?.above),
  };
}

/**
 * Renumbers every task of the project (archived included) in rank order, ties by id: ranks
 * 1024, 2048, ...; each renumbered task takes the renumbering's change number. updated_at is
 * left alone: a renumbering changes no task's content or state.
 */
export async function renumberProject(trx: Db, projectId: string, changeSeq: number): Promise<number> {
  const r = await sql`
    UPDATE tasks AS t SET rank = s.n * ${RANK_GAP}, change_seq = ${changeSeq}
    FROM (
      SELECT id, row_number() OVER (ORDER BY rank, id) AS n FROM tasks WHERE project_id = ${projectId}
    ) AS s
    WHERE t.id = s.id`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/** The content of one version of a task, or undefined when the task has no such version. */
export async function findVersion(db: Db, taskId: string, version: number): Promise<Content | undefined> {
  const row = await db
    .selectFrom('task_versions')
    .select(['type', 'title', 'body', 'fields', 'links', 'resolution'])
    .where('task_id', '=', taskId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) return undefined;
  const json = <T>(v: unknown, fallback: T): T =>
    v == null ? fallback : ((typeof v === 'string' ? JSON.parse(v) : v) as T);
  return {
    type: row.type as TaskType,
    title: row.title as string,
    body: row.body as string,
    fields: json(row.fields, {}),
    links: json(row.links, []),
    resolution: (row.resolution as string | null) ?? null,
  };
}
