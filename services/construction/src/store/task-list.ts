import type { PageRequest } from '@platform/kit';
import type { TaskStatus } from '../domain/tasks.ts';
import type { Db } from './db.ts';
import { TASK_COLUMNS, toTaskRecord } from './tasks.ts';

export interface TaskListFilter {
  /** Tasks linked to this project in any way (its own and those counting toward it). */
  project_id?: string;
  owner_fid?: string;
  status?: TaskStatus;
  vendor_id?: string;
  /** Part of the title, ignoring case. */
  search?: string;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Tasks matching every filter given, oldest first, one page and the total. */
export async function listTasks(db: Db, f: TaskListFilter, page: PageRequest) {
  let q = db.selectFrom('tasks as t');
  if (f.project_id !== undefined) {
    const projectId = f.project_id;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('task_links as l')
          .select('l.task_id')
          .whereRef('l.task_id', '=', 't.id')
          .where('l.project_id', '=', projectId),
      ),
    );
  }
  if (f.owner_fid !== undefined) q = q.where('t.owner_fid', '=', f.owner_fid);
  if (f.status !== undefined) q = q.where('t.status', '=', f.status);
  if (f.vendor_id !== undefined) q = q.where('t.vendor_id', '=', f.vendor_id);
  if (f.search !== undefined) q = q.where('t.title', 'ilike', likePattern(f.search));
  const [rows, count] = await Promise.all([
    q
      .select(TASK_COLUMNS.map((c) => `t.${c}` as const))
      .orderBy('t.created_at')
      .orderBy('t.id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTaskRecord), total: Number(count.n) };
}
