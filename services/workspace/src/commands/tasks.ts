import { uuidv7 } from '@platform/kit';
import { itemAssigned, itemCreated, itemResolved } from '../domain/task-events.ts';
import {
  emptyToNull,
  newTaskType,
  requireAllowedFields,
  requireGoalOnProject,
  requireMemberAssignee,
  requireOfferedStatus,
  requireResolutionToClose,
  resolutionValue,
  taskTitle,
} from '../domain/tasks.ts';
import { defaultStatus, isClosedCategory } from '../domain/workflows.ts';
import type { WorkspaceEvent } from '../events.ts';
import type { TaskInput } from '../schemas/task-input.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db } from '../store/db.ts';
import { insertNotification } from '../store/notifications.ts';
import { insertTopTask, isGoalOnProject, isProjectMember } from '../store/tasks.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * The references a task write sets, checked against the project: the assignee must be a member
 * (422 assignee_not_member) and the goal a goal on this project (422 goal_not_found). null and
 * undefined are not checked (none / not sent). Shared by create and PATCH.
 */
export async function checkTaskRefs(
  trx: Db,
  projectId: string,
  refs: { assignee?: string | null; goal_id?: string | null },
): Promise<void> {
  if (refs.assignee != null) requireMemberAssignee(await isProjectMember(trx, projectId, refs.assignee));
  if (refs.goal_id != null) requireGoalOnProject(await isGoalOnProject(trx, projectId, refs.goal_id));
}

/** The in-app notification of a new owner, unless they made the change themselves. */
export async function notifyAssigned(ctx: CommandCtx, task: Task): Promise<void> {
  if (task.assignee === null || task.assignee === ctx.principal.id) return;
  await insertNotification(
    ctx.trx,
    {
      recipient: task.assignee,
      kind: 'item_assigned',
      project_id: task.project_id,
      subject_id: task.id,
      actor: ctx.principal.id,
    },
    ctx.now,
  );
}

/**
 * Adds a task (editors): at the top of the project, in the status sent or the default one
 * (Triage, else Todo), at version 1, with one change number. Publishes item_created, plus
 * item_resolved when it starts closed and item_assigned when it starts with an owner (who is
 * notified unless they added it).
 */
export async function createTask(ctx: CommandCtx, projectId: string, input: TaskInput): Promise<Task> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const workflow = project.workflow;

  const type = newTaskType(workflow, input);
  const title = taskTitle(input.title);
  const status =
    input.status_id === undefined ? defaultStatus(workflow) : requireOfferedStatus(workflow, input.status_id);
  const fields = requireAllowedFields(type, input.fields ?? {});
  const resolution = resolutionValue(input.resolution);
  requireResolutionToClose(type, status.category, resolution);
  const assignee = emptyToNull(input.assignee) ?? null;
  const goalId = emptyToNull(input.goal_id) ?? null;
  await checkTaskRefs(trx, project.id, { assignee, goal_id: goalId });

  const task = await insertTopTask(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      type,
      title,
      body: input.body ?? '',
      status_id: status.id,
      category: status.category,
      assignee,
      target_date: emptyToNull(input.target_date) ?? null,
      goal_id: goalId,
      origin: input.origin ?? 'human',
      fields,
      links: input.links ?? [],
      resolution,
      created_by: principal.id,
    },
    now,
  );

  const actor = { actor: principal.id };
  const events: WorkspaceEvent[] = [itemCreated(task, actor)];
  if (isClosedCategory(task.status.category)) events.push(itemResolved(task, actor));
  if (task.assignee !== null) events.push(itemAssigned(task, null, actor));
  await ctx.emit(events);
  await notifyAssigned(ctx, task);
  return task;
}
