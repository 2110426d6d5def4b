import { isoOrThrow, type PageRequest, uuidv7 } from '@platform/kit';
import type { ActivityEntry } from '../schemas/projects.ts';
import type { Db } from './db.ts';

export interface NewActivity {
  project_id: string;
  type: string;
  actor_fid: string;
  data: Record<string, unknown>;
}

/** Rows of the activity feed, in the caller's transaction; ids in the order given. */
export async function appendActivity(db: Db, rows: readonly NewActivity[], now: Date): Promise<void> {
  await db
    .insertInto('activity')
    .values(rows.map((r) => ({ id: uuidv7(now.getTime()), ...r, data: JSON.stringify(r.data), created_at: now })))
    .execute();
}

/** A page of the project's activity, newest first, and how many rows it has. */
export async function listActivity(
  db: Db,
  projectId: string,
  page: PageRequest,
): Promise<{ items: ActivityEntry[]; total: number }> {
  const rows = await db
    .selectFrom('activity')
    .select(['id', 'project_id', 'type', 'actor_fid', 'data', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const count = await db
    .selectFrom('activity')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return {
    items: rows.map((r) => ({
      ...r,
      data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
      created_at: isoOrThrow(r.created_at),
    })),
    total: Number(count.n),
  };
}
