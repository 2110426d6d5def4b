import { isoOrThrow, type PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import type { Milestone } from '../schemas/plan-items.ts';
import type { Db } from './db.ts';

const COLUMNS = [
  'id',
  'project_id',
  'name',
  'driving_project_id',
  'planned_date',
  'forecast_date',
  'actual_date',
  'created_by',
  'created_at',
  'updated_at',
] as const;

type MilestoneRow = {
  id: string;
  project_id: string;
  name: string;
  driving_project_id: string | null;
  planned_date: string | null;
  forecast_date: string | null;
  actual_date: string | null;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
};

const toMilestone = (r: MilestoneRow): Milestone => ({
  ...r,
  complete: r.actual_date !== null,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export async function insertMilestone(
  trx: Db,
  m: {
    id: string;
    project_id: string;
    name: string;
    driving_project_id: string | null;
    planned_date: string | null;
    forecast_date: string | null;
  },
  by: string,
  now: Date,
): Promise<Milestone> {
  const row = await trx
    .insertInto('milestones')
    .values({ ...m, created_by: by, created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toMilestone(row);
}

/** Which project a milestone is on (before its project is locked). */
export async function milestoneProject(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('milestones').select('project_id').where('id', '=', id).executeTakeFirst();
  return row?.project_id;
}

/** The milestone, locked until the command's transaction ends. */
export async function lockMilestone(trx: Db, id: string): Promise<Milestone | undefined> {
  const row = await trx.selectFrom('milestones').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toMilestone(row) : undefined;
}

export async function setMilestone(
  trx: Db,
  id: string,
  change: { actual_date?: string; forecast_date?: string },
  now: Date,
): Promise<Milestone> {
  const row = await trx
    .updateTable('milestones')
    .set({ ...change, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toMilestone(row);
}

/** The project's milestones by when they fall (actual, else forecast, else planned; undated last). */
export async function listMilestones(db: Db, projectId: string, page: PageRequest) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('milestones')
      .select(COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy(sql`COALESCE(actual_date, forecast_date, planned_date)`, (ob) => ob.asc().nullsLast())
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('milestones')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toMilestone), total: Number(count.n) };
}
