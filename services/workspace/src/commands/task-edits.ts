import { unprocessable } from '@platform/kit';
import { type Gap, inOrder, rankIn } from '../domain/ranks.ts';
import {
  type Content,
  changedContent,
  closes,
  contentOf,
  crossesClosed,
  editedContent,
  evidenceChanged,
  requireBugResolution,
  requireCurrentVersion,
  requireNotArchived,
  type StateField,
  sendsContent,
  staleVersion,
  statusWrite,
} from '../domain/task-edits.ts';
import {
  itemArchived,
  itemAssigned,
  itemResolved,
  itemRestored,
  itemStatusChanged,
  itemUnarchived,
  itemUpdated,
} from '../domain/task-events.ts';
import { emptyToNull, itemNotFound, requireOfferedStatus, requireOfferedType } from '../domain/tasks.ts';
import { doneStatus, isClosedCategory, type StatusDef } from '../domain/workflows.ts';
import type { WorkspaceEvent } from '../events.ts';
import type { TaskMove, TaskPatch, TaskRestore } from '../schemas/task-edits.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db } from '../store/db.ts';
import type { ProjectRow } from '../store/projects.ts';
import { takeChangeNumber } from '../store/projects.ts';
import { insertTaskChanges, type TaskChange } from '../store/task-changes.ts';
import {
  findVersion,
  neighbours,
  renumberProject,
  type TaskUpdate,
  updateTask,
  updateTaskAtNextChange,
} from '../store/task-writes.ts';
import { findTask, insertVersion } from '../store/tasks.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';
import { checkTaskRefs, notifyAssigned } from './tasks.ts';

/**
 * Changes to an existing task (spec 2, "PATCH on a task", States and transitions "Task"): PATCH,
 * move, archive, unarchive, restore and the legacy resolve. Each starts with the project's write
 * lock (projectForWrite), refuses an archived task with 409 item_archived (unarchive aside), and
 * takes exactly one change number when it changes something — none, and no event, when it does not.
 */

/** The task, on this project (else 404 item_not_found), with the project locked for this write. */
async function taskForWrite(ctx: CommandCtx, projectId: string, itemId: string) {
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const task = await findTask(ctx.trx, project.id, itemId);
  if (!task) throw itemNotFound();
  return { project, task };
}

/** The placement a move names: the rank to take, or null when the neighbours have no room. */
interface Placement {
  rank: number | null;
}

const invalidPosition = (message: string, field: string) => unprocessable('invalid_position', message, field);

/**
 * Where a move puts the task. after_id: the task it goes after; before_id: the one it goes before.
 * Both: the midpoint of the two (when another task now sits between them, the midpoint of
 * after_id and that task, so it still lands after one and before the other). Only after_id:
 * between it and its next task; only before_id: between its previous task and it. Neither: the
 * task keeps its rank. A neighbour must be another task of the same project (422
 * invalid_position), and the two must not be in reverse order.
 */
async function placement(
  trx: Db,
  projectId: string,
  task: Task,
  afterId: string | undefined,
  beforeId: string | undefined,
): Promise<Placement | undefined> {
  if (afterId === undefined && beforeId === undefined) return undefined;
  if (afterId === task.id) throw invalidPosition('A task cannot be placed after itself', 'data/after_id');
  if (beforeId === task.id) throw invalidPosition('A task cannot be placed before itself', 'data/before_id');
  if (afterId !== undefined && afterId === beforeId) {
    throw invalidPosition('after_id and before_id name the same task', 'data/before_id');
  }
  const { after, before, belowAfter, aboveBefore } = await neighbours(trx, projectId, afterId, beforeId, task.id);
  if (afterId !== undefined && after === undefined) {
    throw invalidPosition('after_id is not a task of this project', 'data/after_id');
  }
  if (beforeId !== undefined && before === undefined) {
    throw invalidPosition('before_id is not a task of this project', 'data/before_id');
  }
  let gap: Gap;
  if (after !== undefined && before !== undefined) {
    if (!inOrder(after, before)) {
      throw invalidPosition('The after_id task is below the before_id task; swap them', 'data/before_id');
    }
    // Tasks placed between the two since the caller read them (a concurrent move into the same
    // gap got there first): the task goes right after after_id, still above before_id.
    gap = { after, before: belowAfter === null ? before : Math.min(before, belowAfter) };
  } else if (after !== undefined) {
    gap = { after, before: belowAfter };
  } else {
    gap = { after: aboveBefore, before: before as number };
  }
  return { rank: rankIn(gap) };
}

/** The state part of an edit: what the caller sent, with '' and null read as "clear". */
interface StateEdit {
  status?: StatusDef;
  assignee?: string | null;
  target_date?: string | null;
  goal_id?: string | null;
}

type EditInput = TaskPatch | TaskMove;

/**
 * PATCH and move (editors). Content (title, body, type, fields, links, resolution) needs
 * data.version: 422 version_required without it, 409 stale_version (with the task as it is now)
 * when it is not the current one; a change writes version + 1 and a version row. State (status,
 * assignee, target date, goal) never needs one and goes to the change log; status_id with
 * after_id / before_id places the task like a move. One change number for the whole write (with
 * 'renumber' when the neighbours had no room); nothing at all when nothing changes.
 */
export async function editTask(ctx: CommandCtx, projectId: string, itemId: string, input: EditInput): Promise<Task> {
  const { trx, principal, now } = ctx;
  const { project, task: before } = await taskForWrite(ctx, projectId, itemId);
  requireNotArchived(before);
  const patch = input as TaskPatch;

  // Content: the version first (a stale client learns nothing else), then the values.
  const oldContent = contentOf(before);
  let content: Content = oldContent;
  if (sendsContent(patch)) {
    requireCurrentVersion(before, patch.version);
    content = editedContent(project.workflow, oldContent, patch);
  }
  const changed = changedContent(oldContent, content);

  // State.
  const state: StateEdit = {};
  if (patch.status_id !== undefined) {
    const status = requireOfferedStatus(project.workflow, patch.status_id);
    if (status.id !== before.status_id) state.status = status;
  }
  const assignee = emptyToNull(patch.assignee);
  if (assignee !== undefined && assignee !== before.assignee) state.assignee = assignee;
  const targetDate = emptyToNull(patch.target_date);
  if (targetDate !== undefined && targetDate !== before.target_date) state.target_date = targetDate;
  const goalId = emptyToNull(patch.goal_id);
  if (goalId !== undefined && goalId !== before.goal_id) state.goal_id = goalId;
  await checkTaskRefs(trx, project.id, { assignee: state.assignee, goal_id: state.goal_id });

  const category = state.status?.category ?? before.status.category;
  requireBugResolution(
    { type: before.type, category: before.status.category, resolution: before.resolution },
    { type: content.type, category, resolution: content.resolution },
    patch.resolution === undefined && state.status ? 'data/status_id' : 'data/resolution',
  );

  let place = await placement(trx, project.id, before, patch.after_id, patch.before_id);
  const moves = place !== undefined && place.rank !== before.rank;
  const stateChanged = Object.keys(state).length > 0;
  if (changed.length === 0 && !stateChanged && !moves) return before;

  const renumber = place?.rank === null;
  // A renumbering takes the change number first (its tasks carry it); otherwise the task's
  // update takes it in the same statement.
  const renumbered = renumber ? await takeChangeNumber(trx, project.id, 'tasks', 'renumber') : undefined;
  if (renumbered !== undefined) {
    await renumberProject(trx, project.id, renumbered);
    place = await placement(trx, project.id, before, patch.after_id, patch.before_id);
    if (place?.rank == null) throw new Error('no room between neighbours after renumbering');
  }

  const u: TaskUpdate = {};
  if (changed.length > 0) {
    Object.assign(u, content);
    u.version = before.version + 1;
  }
  if (state.status) Object.assign(u, statusWrite(before, state.status, principal.id, now));
  if (state.assignee !== undefined) u.assignee = state.assignee;
  if (state.target_date !== undefined) u.target_date = state.target_date;
  if (state.goal_id !== undefined) u.goal_id = state.goal_id;
  if (place && place.rank !== null) u.rank = place.rank;
  const { task: after, seq } =
    renumbered === undefined
      ? await updateTaskAtNextChange(trx, project.id, before.id, u, now)
      : { task: await updateTask(trx, before.id, u, renumbered, now), seq: renumbered };

  if (changed.length > 0) await insertVersion(trx, { ...after }, principal.id, now);
  await insertTaskChanges(trx, stateChanges(before, after, state), principal.id, seq, now);

  const evidence = evidenceChanged(changed, crossesClosed(before.status.category, after.status.category));
  const actor = { actor: principal.id };
  const events: WorkspaceEvent[] = [];
  if (changed.length > 0) events.push(itemUpdated(after, changed, evidence, actor));
  if (state.status) {
    events.push(itemStatusChanged(before, after, evidence, actor));
    if (closes(before.status.category, after.status.category)) events.push(itemResolved(after, actor));
  }
  if (state.assignee !== undefined) events.push(itemAssigned(after, before.assignee, actor));
  if (events.length > 0) await ctx.emit(events);
  if (state.assignee !== undefined) await notifyAssigned(ctx, after);
  return after;
}

/** One change-log row per state field the write changed, named as the API names it. */
function stateChanges(before: Task, after: Task, state: StateEdit): TaskChange[] {
  const rows: TaskChange[] = [];
  const add = (field: StateField, oldValue: unknown, newValue: unknown) =>
    rows.push({ project_id: after.project_id, task_id: after.id, field, old_value: oldValue, new_value: newValue });
  if (state.status) add('status_id', before.status_id, after.status_id);
  if (state.assignee !== undefined) add('assignee', before.assignee, after.assignee);
  if (state.target_date !== undefined) add('target_date', before.target_date, after.target_date);
  if (state.goal_id !== undefined) add('goal_id', before.goal_id, after.goal_id);
  return rows;
}

/** POST .../move: status_id (default: unchanged), after_id / before_id, and a resolution that needs version. */
export const moveTask = (ctx: CommandCtx, projectId: string, itemId: string, input: TaskMove) =>
  editTask(ctx, projectId, itemId, input);

/** Archive (editors): archived with archived_at; status and status_changed_at unchanged. Archived already: 409 item_archived. */
export async function archiveTask(ctx: CommandCtx, projectId: string, itemId: string): Promise<Task> {
  const { project, task } = await taskForWrite(ctx, projectId, itemId);
  requireNotArchived(task);
  return setArchived(ctx, project, task, true);
}

/** Unarchive (editors): the task is writable again; status unchanged. Not archived: a no-op 200. */
export async function unarchiveTask(ctx: CommandCtx, projectId: string, itemId: string): Promise<Task> {
  const { project, task } = await taskForWrite(ctx, projectId, itemId);
  if (!task.archived) return task;
  return setArchived(ctx, project, task, false);
}

async function setArchived(ctx: CommandCtx, project: ProjectRow, task: Task, archived: boolean): Promise<Task> {
  const { trx, principal, now } = ctx;
  const seq = await takeChangeNumber(trx, project.id, 'tasks');
  const after = await updateTask(trx, task.id, { archived, archived_at: archived ? now : null }, seq, now);
  await insertTaskChanges(
    trx,
    [{ project_id: project.id, task_id: task.id, field: 'archived', old_value: task.archived, new_value: archived }],
    principal.id,
    seq,
    now,
  );
  const actor = { actor: principal.id };
  await ctx.emit(archived ? itemArchived(after, actor) : itemUnarchived(after, actor));
  return after;
}

/**
 * Restore (editors): a content change, so data.version must be the current version (409
 * stale_version); writes version + 1 with from_version's content (422 version_not_found when the
 * task has no such version). Status unchanged. Content equal to the current one is a no-op.
 */
export async function restoreTask(
  ctx: CommandCtx,
  projectId: string,
  itemId: string,
  input: TaskRestore,
): Promise<Task> {
  const { trx, principal, now } = ctx;
  const { project, task: before } = await taskForWrite(ctx, projectId, itemId);
  requireNotArchived(before);
  if (input.version !== before.version) throw staleVersion(before);
  const old = await findVersion(trx, before.id, input.from_version);
  if (!old) {
    throw unprocessable(
      'version_not_found',
      `The task has no version ${input.from_version} (it is at version ${before.version})`,
      'data/from_version',
    );
  }
  if (old.type !== before.type) requireOfferedType(project.workflow, old.type, 'data/from_version');
  requireBugResolution(
    { type: before.type, category: before.status.category, resolution: before.resolution },
    { type: old.type, category: before.status.category, resolution: old.resolution },
    'data/from_version',
  );
  if (changedContent(contentOf(before), old).length === 0) return before;

  const seq = await takeChangeNumber(trx, project.id, 'tasks');
  const after = await updateTask(trx, before.id, { ...old, version: before.version + 1 }, seq, now);
  await insertVersion(trx, { ...after }, principal.id, now);
  await ctx.emit(itemRestored(after, input.from_version, { actor: principal.id }));
  return after;
}

/**
 * The legacy resolve: an open task of this project moves to the workflow's Done. A task on
 * another project, or a closed one, is 404; archived is 409 item_archived; a bug with no
 * resolution is 422 resolution_required.
 */
export async function resolveTask(ctx: CommandCtx, projectId: string, itemId: string): Promise<Task> {
  const { trx, principal, now } = ctx;
  const { project, task: before } = await taskForWrite(ctx, projectId, itemId);
  requireNotArchived(before);
  if (isClosedCategory(before.status.category)) throw itemNotFound();
  const done = doneStatus(project.workflow);
  requireBugResolution(
    { type: before.type, category: before.status.category, resolution: before.resolution },
    { type: before.type, category: done.category, resolution: before.resolution },
  );
  const seq = await takeChangeNumber(trx, project.id, 'tasks');
  const after = await updateTask(trx, before.id, statusWrite(before, done, principal.id, now), seq, now);
  await insertTaskChanges(trx, stateChanges(before, after, { status: done }), principal.id, seq, now);
  const actor = { actor: principal.id };
  await ctx.emit([itemStatusChanged(before, after, evidenceChanged([], true), actor), itemResolved(after, actor)]);
  return after;
}
