import { isoOrThrow, type PageRequest } from '@platform/kit';
import type { WeeklyUpdate } from '../schemas/plan-items.ts';
import type { Db } from './db.ts';

const COLUMNS = ['id', 'project_id', 'week_of', 'summary', 'created_by', 'created_at'] as const;

const toUpdate = (r: {
  id: string;
  project_id: string;
  week_of: string;
  summary: string;
  created_by: string;
  created_at: Date | string;
}): WeeklyUpdate => ({ ...r, created_at: isoOrThrow(r.created_at) });

export async function insertUpdate(
  trx: Db,
  u: { id: string; project_id: string; week_of: string; summary: string },
  by: string,
  now: Date,
): Promise<WeeklyUpdate> {
  const row = await trx
    .insertInto('weekly_updates')
    .values({ ...u, created_by: by, created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toUpdate(row);
}

/** The project's weekly updates, newest first (ids are time-ordered within one instant). */
export async function listUpdates(db: Db, projectId: string, page: PageRequest) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('weekly_updates')
      .select(COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('weekly_updates')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toUpdate), total: Number(count.n) };
}
