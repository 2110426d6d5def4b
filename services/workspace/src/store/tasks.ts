import { iso, isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { isClosedCategory, LEGACY_KIND, statusView, type TaskType } from '../domain/workflows.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db, Tasks } from './db.ts';
import { memberRole } from './projects.ts';

export const TASK_COLUMNS = [
  'id',
  'project_id',
  'type',
  'title',
  'body',
  'status_id',
  'category',
  'status_changed_at',
  'rank',
  'version',
  'assignee',
  'target_date',
  'goal_id',
  'origin',
  'fields',
  'links',
  'resolution',
  'resolved_at',
  'resolved_by',
  'archived',
  'archived_at',
  'created_by',
  'created_at',
  'updated_at',
] as const;

const SOURCE = { human: 'human', agent: 'summarizer', template: 'template' } as const;

const dateOnly = (v: unknown): string | null => {
  if (v == null) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
};

const json = <T>(v: unknown, fallback: T): T => {
  if (v == null) return fallback;
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
};

/** A task row with the columns reads select. */
export type TaskRow = Pick<Selectable<Tasks>, (typeof TASK_COLUMNS)[number]>;

/** A task row as reads show it, with the legacy kind, state and source derived from type, category and origin. */
export function toTask(r: TaskRow): Task {
  const type = r.type as TaskType;
  const origin = r.origin as Task['origin'];
  const category = r.category;
  return {
    id: r.id,
    project_id: r.project_id,
    type,
    kind: LEGACY_KIND[type] ?? 'task',
    title: r.title,
    body: r.body,
    status: statusView(r.status_id, category),
    status_id: r.status_id,
    state: isClosedCategory(category) ? 'resolved' : 'open',
    status_changed_at: isoOrThrow(r.status_changed_at),
    rank: Number(r.rank),
    version: Number(r.version),
    assignee: r.assignee ?? null,
    target_date: dateOnly(r.target_date),
    goal_id: r.goal_id ?? null,
    origin,
    source: SOURCE[origin] ?? 'human',
    fields: json(r.fields, {}),
    links: json(r.links, []),
    resolution: r.resolution ?? null,
    resolved_at: iso(r.resolved_at),
    resolved_by: r.resolved_by ?? null,
    archived: Boolean(r.archived),
    archived_at: iso(r.archived_at),
    created_by: r.created_by,
    created_at: isoOrThrow(r.created_at),
    updated_at: isoOrThrow(r.updated_at),
  };
}

export interface NewTask {
  id: string;
  project_id: string;
  type: TaskType;
  title: string;
  body: string;
  status_id: string;
  category: string;
  rank: number;
  assignee: string | null;
  target_date: string | null;
  goal_id: string | null;
  origin: Task['origin'];
  fields: Record<string, string>;
  links: Task['links'];
  resolution: string | null;
  created_by: string;
}

/** Inserts a task at version 1 with its first version row; resolved_* set when it starts closed. */
export async function insertTask(trx: Db, t: NewTask, changeSeq: number, now: Date): Promise<Task> {
  const closed = isClosedCategory(t.category);
  const row = await trx
    .insertInto('tasks')
    .values({
      ...t,
      fields: JSON.stringify(t.fields),
      links: JSON.stringify(t.links),
      status_changed_at: now,
      version: 1,
      resolved_at: closed ? now : null,
      resolved_by: closed ? t.created_by : null,
      created_at: now,
      updated_at: now,
      change_seq: changeSeq,
    })
    .returning(TASK_COLUMNS)
    .executeTakeFirstOrThrow();
  await insertVersion(trx, row, t.created_by, now);
  return toTask(row);
}

/**
 * createTask's write in one statement (issue 22.1; was four): the project's next change number,
 * the task at the top of the project (1024 above the current top, 0 in an empty project) at
 * version 1, and its first version row. Call under lockProject.
 */
export async function insertTopTask(trx: Db, t: Omit<NewTask, 'rank'>, now: Date): Promise<Task> {
  const closed = isClosedCategory(t.category);
  const r = await sql<TaskRow>`
    WITH seq AS (
      UPDATE projects SET change_seq = change_seq + 1 WHERE id = ${t.project_id} RETURNING change_seq
    ), task AS (
      INSERT INTO tasks (id, project_id, type, title, body, status_id, category, rank, assignee, target_date, goal_id,
        origin, fields, links, resolution, created_by, status_changed_at, version, resolved_at, resolved_by,
        created_at, updated_at, change_seq)
      VALUES (${t.id}, ${t.project_id}, ${t.type}, ${t.title}, ${t.body}, ${t.status_id}, ${t.category},
        (SELECT coalesce(min(rank) - 1024, 0) FROM tasks WHERE project_id = ${t.project_id}),
        ${t.assignee}, ${t.target_date}, ${t.goal_id}, ${t.origin}, ${JSON.stringify(t.fields)},
        ${JSON.stringify(t.links)}, ${t.resolution}, ${t.created_by}, ${now}, 1, ${closed ? now : null},
        ${closed ? t.created_by : null}, ${now}, ${now}, (SELECT change_seq FROM seq))
      RETURNING ${sql.join(TASK_COLUMNS.map((c) => sql.ref(c)))}
    ), version AS (
      INSERT INTO task_versions (task_id, version, type, title, body, fields, links, resolution, author, created_at)
      SELECT id, version, type, title, body, fields, links, resolution, ${t.created_by}, ${now} FROM task
    )
    SELECT * FROM task`.execute(trx);
  const row = r.rows[0];
  if (!row) throw new Error(`insertTopTask: project ${t.project_id} is gone`);
  return toTask(row);
}

/** What a version row copies from a task: a task row, or a task as the API shows it. */
export interface VersionSource {
  id: string;
  version: number;
  type: string;
  title: string;
  body: string;
  fields: unknown;
  links: unknown;
  resolution?: string | null;
}

/** Records the task's current content as a version row. */
export async function insertVersion(trx: Db, row: VersionSource, author: string, now: Date) {
  await trx
    .insertInto('task_versions')
    .values({
      task_id: row.id,
      version: row.version,
      type: row.type,
      title: row.title,
      body: row.body,
      fields: typeof row.fields === 'string' ? row.fields : JSON.stringify(row.fields ?? {}),
      links: typeof row.links === 'string' ? row.links : JSON.stringify(row.links ?? []),
      resolution: row.resolution ?? null,
      author,
      created_at: now,
    })
    .execute();
}

/** Whether the principal is a member of the project (any role): only members may own tasks. */
export const isProjectMember = async (db: Db, projectId: string, principalId: string): Promise<boolean> =>
  (await memberRole(db, projectId, principalId)) !== null;

/** Whether the goal exists on this project (a goal on another project does not count). */
export async function isGoalOnProject(db: Db, projectId: string, goalId: string): Promise<boolean> {
  const row = await db
    .selectFrom('goals')
    .select('id')
    .where('id', '=', goalId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

/** One task of the project (archived included), or undefined when it is not on that project. */
export async function findTask(db: Db, projectId: string, taskId: string): Promise<Task | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select(TASK_COLUMNS)
    .where('id', '=', taskId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? toTask(row) : undefined;
}
