import type { PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import { CATEGORIES, isClosedCategory, LEGACY_KIND, type LegacyKind, TASK_TYPES } from '../domain/workflows.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db } from './db.ts';
import { TASK_COLUMNS, toTask } from './tasks.ts';

export const TASK_SORTS = ['position', 'time_in_status', 'target_date', 'updated', 'created'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export interface TaskListFilter {
  state?: 'open' | 'resolved';
  kind?: LegacyKind;
  type?: string;
  category?: string;
  status_id?: string;
  /** A principal id, or null for tasks with no owner. */
  assignee?: string | null;
  /** A goal id, or null for tasks linked to no goal. */
  goal_id?: string | null;
  archived: 'false' | 'true' | 'all';
  /** Open tasks whose target date is before this date (YYYY-MM-DD). */
  overdueBefore?: string;
  sort: TaskSort;
  sortDesc: boolean;
}

const OPEN = CATEGORIES.filter((c) => !isClosedCategory(c));
const CLOSED = CATEGORIES.filter((c) => isClosedCategory(c));

/** The key of each sort but position; ties are broken by position (rank, id), so every order is total. */
const SORT_COLUMN = {
  time_in_status: 'status_changed_at',
  target_date: 'target_date',
  updated: 'updated_at',
  created: 'created_at',
} as const;

/**
 * One page of a project's tasks with the filters, and how many match. One query shape: the
 * project and the filters in the WHERE clause, position order (tasks_project_rank) by default.
 */
export async function listTasks(
  db: Db,
  projectId: string,
  f: TaskListFilter,
  page: PageRequest,
): Promise<{ items: Task[]; total: number }> {
  let q = db.selectFrom('tasks').where('project_id', '=', projectId);
  if (f.archived !== 'all') q = q.where('archived', '=', f.archived === 'true');
  if (f.state) q = q.where('category', 'in', f.state === 'open' ? OPEN : CLOSED);
  if (f.kind) {
    const kind = f.kind;
    q = q.where(
      'type',
      'in',
      TASK_TYPES.filter((t) => LEGACY_KIND[t] === kind),
    );
  }
  if (f.type) q = q.where('type', '=', f.type);
  if (f.category) q = q.where('category', '=', f.category);
  if (f.status_id) q = q.where('status_id', '=', f.status_id);
  if (f.assignee !== undefined) {
    q = f.assignee === null ? q.where('assignee', 'is', null) : q.where('assignee', '=', f.assignee);
  }
  if (f.goal_id !== undefined) {
    q = f.goal_id === null ? q.where('goal_id', 'is', null) : q.where('goal_id', '=', f.goal_id);
  }
  if (f.overdueBefore) {
    q = q.where('category', 'in', OPEN).where('target_date', '<', sql<string>`${f.overdueBefore}::date`);
  }

  const dir = f.sortDesc ? 'desc' : 'asc';
  let rows = q.select(TASK_COLUMNS);
  if (f.sort === 'position') {
    rows = rows.orderBy('rank', dir).orderBy('id', dir);
  } else {
    // Tasks without a target date come last whichever way the dates run; ties go top first.
    const column = SORT_COLUMN[f.sort];
    rows = rows
      .orderBy(sql.ref(column), sql.raw(f.sort === 'target_date' ? `${dir} nulls last` : dir))
      .orderBy('rank', 'asc')
      .orderBy('id', 'asc');
  }

  const [found, count] = await Promise.all([
    rows
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { items: found.map(toTask), total: Number(count?.n ?? 0) };
}
