import { uuidv7 } from '@platform/kit';
import { STARTING_VIEWS } from '../domain/starting-views.ts';
import type { Workflow } from '../domain/workflows.ts';
import type { Db } from './db.ts';

/** A new project's starting views, created by system, in tab order. They publish no events. */
export async function insertStartingViews(trx: Db, projectId: string, workflow: Workflow, now: Date) {
  const rows = STARTING_VIEWS[workflow].map((v, i) => ({
    id: uuidv7(now.getTime()),
    project_id: projectId,
    name: v.name,
    name_key: v.name.toLowerCase(),
    layout: v.layout,
    group_by: v.group_by,
    sort: v.sort,
    sort_desc: v.sort_desc,
    filters: JSON.stringify(v.filters),
    position: i + 1,
    seed_key: v.seed_key,
    created_by: 'system',
    version: 1,
    created_at: now,
    updated_at: now,
  }));
  if (rows.length > 0) await trx.insertInto('saved_views').values(rows).execute();
}
