import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import {
  type CheckinStatus,
  type GoalChanges,
  type GoalExtras,
  type GoalRecord,
  type GoalStatus,
  goalView,
  OPEN_GOAL_STATUSES,
} from '../domain/goals.ts';
import type { Goal } from '../schemas/goals.ts';
import type { Db, Goals } from './db.ts';

export const GOAL_COLUMNS = [
  'id',
  'project_id',
  'title',
  'description',
  'lead',
  'target_date',
  'status',
  'closing_note',
  'created_by',
  'created_at',
  'updated_at',
] as const;

const dateOnly = (v: unknown): string | null => {
  if (v == null) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
};

const instant = (v: unknown): Date => new Date(isoOrThrow(v as Date | string));

export const toGoalRecord = (r: Pick<Selectable<Goals>, (typeof GOAL_COLUMNS)[number]>): GoalRecord => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  description: r.description,
  lead: r.lead,
  target_date: dateOnly(r.target_date),
  status: r.status as GoalStatus,
  closing_note: r.closing_note ?? null,
  created_by: r.created_by,
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
});

/** The goal if it is on this project; a goal on another project reads as none. */
export async function findGoal(db: Db, projectId: string, goalId: string): Promise<GoalRecord | undefined> {
  const row = await db
    .selectFrom('goals')
    .select(GOAL_COLUMNS)
    .where('id', '=', goalId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? toGoalRecord(row) : undefined;
}

/** Every goal of the project: active ones first, then closed ones; each group oldest first. */
export async function listGoals(db: Db, projectId: string): Promise<GoalRecord[]> {
  const rows = await db
    .selectFrom('goals')
    .select(GOAL_COLUMNS)
    .where('project_id', '=', projectId)
    .orderBy(sql`CASE WHEN status IN ('on_track', 'at_risk', 'off_track') THEN 0 ELSE 1 END`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toGoalRecord);
}

/** How many of the project's goals are active (open status), leaving out `except`. */
export async function countActiveGoals(db: Db, projectId: string, except?: string): Promise<number> {
  let q = db
    .selectFrom('goals')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('project_id', '=', projectId)
    .where('status', 'in', [...OPEN_GOAL_STATUSES]);
  if (except) q = q.where('id', '<>', except);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type NewGoal = Pick<
  GoalRecord,
  'id' | 'project_id' | 'title' | 'description' | 'lead' | 'target_date' | 'status' | 'created_by'
>;

export async function insertGoal(trx: Db, g: NewGoal, now: Date): Promise<GoalRecord> {
  const row = await trx
    .insertInto('goals')
    .values({ ...g, closing_note: null, created_at: now, updated_at: now, closed_at: null })
    .returning(GOAL_COLUMNS)
    .executeTakeFirstOrThrow();
  return toGoalRecord(row);
}

/** Writes a goal's changed fields; closed_at follows the status (set when it closes, cleared when it reopens). */
export async function updateGoal(
  trx: Db,
  id: string,
  changes: GoalChanges,
  closedAt: Date | null | undefined,
  now: Date,
): Promise<GoalRecord> {
  const row = await trx
    .updateTable('goals')
    .set({ ...changes, ...(closedAt === undefined ? {} : { closed_at: closedAt }), updated_at: now })
    .where('id', '=', id)
    .returning(GOAL_COLUMNS)
    .executeTakeFirstOrThrow();
  return toGoalRecord(row);
}

export async function deleteGoalRow(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('goals').where('id', '=', id).execute();
}

/** Whether any task (archived ones included) is linked to the goal. */
export async function goalHasTasks(db: Db, goalId: string): Promise<boolean> {
  const row = await db.selectFrom('tasks').select('id').where('goal_id', '=', goalId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Unlinks every task of the goal (archived ones too: the reference must go), each taking the
 * change number `seq`. Returns the unlinked tasks' ids and projects, for their change-log rows.
 */
export async function unlinkGoalTasks(
  trx: Db,
  goalId: string,
  seq: number,
  now: Date,
): Promise<{ id: string; project_id: string }[]> {
  const rows = await trx
    .updateTable('tasks')
    .set({ goal_id: null, change_seq: seq, updated_at: now })
    .where('goal_id', '=', goalId)
    .returning(['id', 'project_id'])
    .execute();
  return rows
    .map((r) => ({ id: r.id as string, project_id: r.project_id as string }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * What reads add to each goal: the distinct assignees of its unarchived tasks (sorted) and its
 * latest check-in (created_at, then id, descending).
 */
export async function goalExtras(db: Db, goalIds: string[]): Promise<Map<string, GoalExtras>> {
  const out = new Map<string, GoalExtras>(goalIds.map((id) => [id, { contributors: [], lastCheckin: null }]));
  if (goalIds.length === 0) return out;
  const contributors = await db
    .selectFrom('tasks')
    .select(['goal_id', 'assignee'])
    .distinct()
    .where('goal_id', 'in', goalIds)
    .where('archived', '=', false)
    .where('assignee', 'is not', null)
    .orderBy('goal_id')
    .orderBy('assignee')
    .execute();
  for (const r of contributors) out.get(r.goal_id as string)?.contributors.push(r.assignee as string);
  for (const extras of out.values()) extras.contributors.sort();
  const latest = await sql<{ goal_id: string; created_at: Date | string; status: CheckinStatus }>`
    SELECT DISTINCT ON (goal_id) goal_id, created_at, status
    FROM goal_checkins
    WHERE goal_id IN (${sql.join(goalIds)})
    ORDER BY goal_id, created_at DESC, id DESC`.execute(db);
  for (const r of latest.rows) {
    const extras = out.get(r.goal_id);
    if (extras) extras.lastCheckin = { created_at: instant(r.created_at), status: r.status };
  }
  return out;
}

/** Goals as reads show them, computed at `now` with the project's check-in weekday. */
export async function readGoals(db: Db, goals: GoalRecord[], weekday: number, now: Date): Promise<Goal[]> {
  const extras = await goalExtras(
    db,
    goals.map((g) => g.id),
  );
  return goals.map((g) => goalView(g, extras.get(g.id) ?? { contributors: [], lastCheckin: null }, weekday, now));
}
