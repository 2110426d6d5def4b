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

/** A task's position, when the task is on this project. */
export async function rankOf(db: Db, projectId: string, id: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select('rank')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? Number(row.rank) : undefined;
}

/** The rank of the task just below `rank` (archived included), the moving task left out; null at the bottom. */
export async function nextRank(db: Db, projectId: string, rank: number, except: string): Promise<number | null> {
  const r = await sql<{ rank: string | null }>`
    SELECT min(rank) AS rank FROM tasks
    WHERE project_id = ${projectId} AND rank > ${rank} AND id <> ${except}`.execute(db);
  const v = r.rows[0]?.rank;
  return v == null ? null : Number(v);
}

/** The rank of the task just above `rank` (archived included), the moving task left out; null at the top. */
export async function previousRank(db: Db, projectId: string, rank: number, except: string): Promise<number | null> {
  const r = await sql<{ rank: string | null }>`
    SELECT max(rank) AS rank FROM tasks
    WHERE project_id = ${projectId} AND rank < ${rank} AND id <> ${except}`.execute(db);
  const v = r.rows[0]?.rank;
  return v == null ? null : Number(v);
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
