import { uuidv7 } from '@platform/kit';
import {
  closedAtChange,
  type GoalRecord,
  goalNotFound,
  goalTitle,
  planGoalEdit,
  requireLeadMember,
  requireNoCheckins,
  requireRoomForActiveGoal,
} from '../domain/goals.ts';
import { roleAtLeast } from '../domain/roles.ts';
import type { Goal, GoalInput, GoalPatch } from '../schemas/goals.ts';
import { hasCheckins } from '../store/checkins.ts';
import {
  countActiveGoals,
  deleteGoalRow,
  findGoal,
  goalHasTasks,
  insertGoal,
  readGoals,
  unlinkGoalTasks,
  updateGoal,
} from '../store/goals.ts';
import { memberRole, takeChangeNumber } from '../store/projects.ts';
import { insertTaskChanges } from '../store/task-changes.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** Empty clears: '' and null read as none. */
const emptyToNull = <T>(v: T | '' | null | undefined): T | null | undefined => (v === '' ? null : v);

/** The goal as a read would show it at the command's instant. */
async function asRead(ctx: CommandCtx, goal: GoalRecord, weekday: number): Promise<Goal> {
  const [view] = await readGoals(ctx.trx, [goal], weekday, ctx.now);
  return view as Goal;
}

/** The goal on the project, or 404 goal_not_found (a goal on another project included). */
export async function goalOnProject(ctx: CommandCtx, projectId: string, goalId: string): Promise<GoalRecord> {
  const goal = await findGoal(ctx.trx, projectId, goalId);
  if (!goal) throw goalNotFound();
  return goal;
}

/**
 * Adds a goal (owners). The title is trimmed (1 to 200 characters); the lead (default: the
 * caller) must be a member; no target date means ongoing; the status is open (default on_track);
 * a sixth active goal is 422 too_many_active_goals. Takes one structure change number and
 * publishes project.goal_created.
 */
export async function createGoal(ctx: CommandCtx, projectId: string, input: GoalInput): Promise<Goal> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const title = goalTitle(input.title);
  const lead = input.lead ?? principal.id;
  requireLeadMember((await memberRole(trx, project.id, lead)) !== null);
  requireRoomForActiveGoal(await countActiveGoals(trx, project.id), 'data');

  const goal = await insertGoal(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      title,
      description: input.description ?? '',
      lead,
      target_date: emptyToNull(input.target_date) ?? null,
      status: input.status ?? 'on_track',
      created_by: principal.id,
    },
    now,
  );
  await takeChangeNumber(trx, project.id, 'structure');
  await ctx.emit({
    type: 'project.goal_created',
    data: { projectId: project.id, goalId: goal.id, actor: principal.id },
  });
  return asRead(ctx, goal, project.checkin_weekday);
}

/**
 * Changes a goal. Owners change anything; the lead only status and closing_note (403 for
 * anything else); anyone else 403. A closed status needs a closing note (422
 * closing_note_required); reopening clears it and counts against the five active goals. A
 * PATCH that changes nothing answers the goal without a change number or event.
 */
export async function editGoal(ctx: CommandCtx, projectId: string, goalId: string, input: GoalPatch): Promise<Goal> {
  const { trx, principal, now } = ctx;
  const { project, role } = await projectForWrite(ctx, projectId, 'viewer');
  const goal = await goalOnProject(ctx, project.id, goalId);
  const plan = planGoalEdit(
    goal,
    { ...input, target_date: emptyToNull(input.target_date) },
    { isOwner: roleAtLeast(role, 'owner'), isLead: goal.lead === principal.id },
  );
  if (plan.changedFields.length === 0) return asRead(ctx, goal, project.checkin_weekday);
  if (plan.changes.lead !== undefined)
    requireLeadMember((await memberRole(trx, project.id, plan.changes.lead)) !== null);
  if (plan.reopens) requireRoomForActiveGoal(await countActiveGoals(trx, project.id, goal.id));

  const updated = await updateGoal(
    trx,
    goal.id,
    plan.changes,
    closedAtChange(goal.status, plan.changes.status, now),
    now,
  );
  await takeChangeNumber(trx, project.id, 'structure');
  await ctx.emit({
    type: 'project.goal_updated',
    data: { projectId: project.id, goalId: goal.id, actor: principal.id, changedFields: plan.changedFields },
  });
  return asRead(ctx, updated, project.checkin_weekday);
}

/**
 * Deletes a goal (owners) that has no check-ins (else 422 goal_has_checkins: close it as
 * dropped). Its tasks are unlinked: goal_id null, a goal_id change-log row each, and the
 * delete's change number. Publishes project.goal_deleted.
 */
export async function deleteGoal(ctx: CommandCtx, projectId: string, goalId: string): Promise<null> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const goal = await goalOnProject(ctx, project.id, goalId);
  requireNoCheckins(await hasCheckins(trx, goal.id));
  const seq = (await goalHasTasks(trx, goal.id))
    ? await takeChangeNumber(trx, project.id, 'structure', 'tasks')
    : await takeChangeNumber(trx, project.id, 'structure');
  const unlinked = await unlinkGoalTasks(trx, goal.id, seq, now);
  await insertTaskChanges(
    trx,
    unlinked.map((t) => ({
      project_id: t.project_id,
      task_id: t.id,
      field: 'goal_id',
      old_value: goal.id,
      new_value: null,
    })),
    principal.id,
    seq,
    now,
  );
  await deleteGoalRow(trx, goal.id);
  await ctx.emit({
    type: 'project.goal_deleted',
    data: { projectId: project.id, goalId: goal.id, actor: principal.id },
  });
  return null;
}
