import { uuidv7 } from '@platform/kit';
import { checkinNote, requireCheckinAuthor, requireOpenGoal } from '../domain/goals.ts';
import { roleAtLeast } from '../domain/roles.ts';
import type { Checkin, CheckinInput } from '../schemas/goals.ts';
import { insertCheckin } from '../store/checkins.ts';
import { updateGoal } from '../store/goals.ts';
import { takeChangeNumber } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { goalOnProject } from './goals.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Posts a check-in on an active goal (the lead or a project owner; anyone else who sees the
 * project 403 not_a_member; a closed goal 422 goal_closed; an archived project 409
 * project_archived). The note is trimmed, one line, 1 to 500 characters. The goal takes the
 * check-in's status; one structure change number; project.goal_checked_in carries the ids and the
 * status, never the note, and (through the emit hook) writes the goal.checked_in activity row.
 */
export async function postCheckin(
  ctx: CommandCtx,
  projectId: string,
  goalId: string,
  input: CheckinInput,
): Promise<Checkin> {
  const { trx, principal, now } = ctx;
  const { project, role } = await projectForWrite(ctx, projectId, 'viewer');
  const goal = await goalOnProject(ctx, project.id, goalId);
  requireCheckinAuthor(roleAtLeast(role, 'owner'), goal.lead === principal.id);
  requireOpenGoal(goal.status);
  const note = checkinNote(input.note);

  const checkin = await insertCheckin(
    trx,
    {
      id: uuidv7(now.getTime()),
      goal_id: goal.id,
      project_id: project.id,
      status_before: goal.status,
      status: input.status,
      note,
      author: principal.id,
    },
    now,
  );
  if (input.status !== goal.status) await updateGoal(trx, goal.id, { status: input.status }, undefined, now);
  await takeChangeNumber(trx, project.id, 'structure');
  await ctx.emit({
    type: 'project.goal_checked_in',
    data: {
      projectId: project.id,
      goalId: goal.id,
      checkinId: checkin.id,
      status: checkin.status,
      actor: principal.id,
    },
  });
  return checkin;
}
