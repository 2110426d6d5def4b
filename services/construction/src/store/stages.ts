import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import type { Stage as StageName } from '../domain/health.ts';
import { isGated, stageStatus } from '../domain/stages.ts';
import type { Award, PlanMilestone, Stage } from '../schemas/stages.ts';
import type { Db } from './db.ts';

const STAGE_COLUMNS = [
  'stage',
  'seq',
  'planned_start',
  'planned_finish',
  'forecast_start',
  'forecast_finish',
  'actual_start',
  'actual_finish',
] as const;

/** The seven stages in order, with their status as of the project's stage and status. */
export async function listStages(db: Db, project: { id: string; stage: string; status: string }): Promise<Stage[]> {
  const rows = await db
    .selectFrom('project_stages')
    .select(STAGE_COLUMNS)
    .where('project_id', '=', project.id)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    ...r,
    stage: r.stage as StageName,
    status: stageStatus(r.stage as StageName, project.stage as StageName, project.status),
    gated: isGated(r.stage as StageName),
  }));
}

export type StageDates = Partial<
  Record<'planned_start' | 'planned_finish' | 'forecast_start' | 'forecast_finish', string | null>
>;

export async function findStage(db: Db, projectId: string, stage: string) {
  return db
    .selectFrom('project_stages')
    .select(STAGE_COLUMNS)
    .where('project_id', '=', projectId)
    .where('stage', '=', stage)
    .executeTakeFirst();
}

export async function setStagePlan(db: Db, projectId: string, stage: string, dates: StageDates): Promise<void> {
  await db
    .updateTable('project_stages')
    .set(dates)
    .where('project_id', '=', projectId)
    .where('stage', '=', stage)
    .execute();
}

/** The advance's actual dates: the stage left finishes `day`, the next starts `day`. */
export async function recordAdvance(db: Db, projectId: string, from: string, to: string, day: string): Promise<void> {
  await db
    .updateTable('project_stages')
    .set({ actual_finish: day })
    .where('project_id', '=', projectId)
    .where('stage', '=', from)
    .execute();
  await db
    .updateTable('project_stages')
    .set({ actual_start: day })
    .where('project_id', '=', projectId)
    .where('stage', '=', to)
    .execute();
}

export async function finishStage(db: Db, projectId: string, stage: string, day: string): Promise<void> {
  await db
    .updateTable('project_stages')
    .set({ actual_finish: day })
    .where('project_id', '=', projectId)
    .where('stage', '=', stage)
    .execute();
}

/** Whether the project holds an approved stage_gate approval for `stage`. */
export async function hasApprovedGate(db: Db, projectId: string, stage: string): Promise<boolean> {
  const row = await db
    .selectFrom('approvals')
    .select('id')
    .where('project_id', '=', projectId)
    .where('subject_type', '=', 'stage_gate')
    .where('stage', '=', stage)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewAward {
  project_id: string;
  contract_sum_minor: number;
  completion_date: string;
  vendor_id: string | null;
  awarded_on: string;
  baseline_id: string;
  created_by: string;
}

/** The award and its baseline (kind award, seq 1: the project's first). */
export async function insertAward(db: Db, a: NewAward, now: Date): Promise<void> {
  await db
    .insertInto('baselines')
    .values({
      id: a.baseline_id,
      project_id: a.project_id,
      seq: 1,
      kind: 'award',
      amount_minor: a.contract_sum_minor,
      finish_date: a.completion_date,
      created_by: a.created_by,
      created_at: now,
    })
    .execute();
  await db
    .insertInto('project_awards')
    .values({ ...a, created_at: now })
    .execute();
}

export async function findAward(db: Db, projectId: string): Promise<Award | null> {
  const row = await db.selectFrom('project_awards').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return null;
  return {
    ...row,
    contract_sum_minor: Number(row.contract_sum_minor),
    created_at: isoOrThrow(row.created_at),
  };
}

const MILESTONE_COLUMNS = ['id', 'name', 'driving_project_id', 'planned_date', 'forecast_date', 'actual_date'] as const;

/** The project's milestones, soonest due (forecast, else planned) first; `openOnly` leaves complete ones out. */
export async function listPlanMilestones(
  db: Db,
  projectId: string,
  opts: { openOnly?: boolean; limit?: number } = {},
): Promise<PlanMilestone[]> {
  let q = db.selectFrom('milestones').select(MILESTONE_COLUMNS).where('project_id', '=', projectId);
  if (opts.openOnly) q = q.where('actual_date', 'is', null);
  q = q.orderBy(sql`COALESCE(forecast_date, planned_date)`, (ob) => ob.asc().nullsLast()).orderBy('id');
  if (opts.limit) q = q.limit(opts.limit);
  return q.execute();
}

export async function listOverviewPackages(db: Db, projectId: string) {
  const rows = await db
    .selectFrom('packages')
    .select(['id', 'name', 'measure', 'weight', 'progress'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((p) => ({ ...p, progress: Number(p.progress) }));
}

export async function latestUpdate(db: Db, projectId: string) {
  const row = await db
    .selectFrom('weekly_updates')
    .select(['id', 'week_of', 'summary', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, created_at: isoOrThrow(row.created_at) } : null;
}
