import { notFound } from '@platform/kit';
import type { Db } from './db.ts';

/** The project row a command locks before it writes: one write at a time per project. */
export async function lockProject(db: Db, id: string) {
  const row = await db
    .selectFrom('development_projects')
    .select(['id', 'status', 'stage'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Development project', 'project_not_found');
  return row;
}
