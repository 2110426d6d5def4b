import type { WorkspaceEvent } from '../events.ts';
import type { Task } from '../schemas/tasks.ts';
import { isClosedCategory } from './workflows.ts';

/**
 * The project.item_* events (spec 2, Events). Payloads carry ids and short values, never a
 * title, body or other text, so they stay on the core topics.
 */

type Actor = { actor: string };

const base = (t: Task, actor: string) => ({ projectId: t.project_id, itemId: t.id, actor });

export const itemCreated = (t: Task, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_created',
  data: { ...base(t, actor), type: t.type, category: t.status.category, origin: t.origin, statusId: t.status_id },
});

/** A content edit: the new version and the names of the changed fields. */
export const itemUpdated = (
  t: Task,
  changedFields: string[],
  evidenceChanged: boolean,
  { actor }: Actor,
): WorkspaceEvent => ({
  type: 'project.item_updated',
  data: { ...base(t, actor), version: t.version, changedFields, evidenceChanged },
});

export const itemStatusChanged = (
  before: Task,
  after: Task,
  evidenceChanged: boolean,
  { actor }: Actor,
): WorkspaceEvent => ({
  type: 'project.item_status_changed',
  data: {
    ...base(after, actor),
    fromStatusId: before.status_id,
    toStatusId: after.status_id,
    fromCategory: before.status.category,
    toCategory: after.status.category,
    evidenceChanged,
  },
});

/** Moved from open to completed or canceled by any route, or added in a closed status. */
export const itemResolved = (t: Task, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_resolved',
  data: { ...base(t, actor), statusId: t.status_id, category: t.status.category },
});

export const itemAssigned = (t: Task, previous: string | null, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_assigned',
  data: { ...base(t, actor), assignee: t.assignee, previousAssignee: previous },
});

export const itemArchived = (t: Task, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_archived',
  data: base(t, actor),
});

export const itemUnarchived = (t: Task, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_unarchived',
  data: base(t, actor),
});

export const itemRestored = (t: Task, fromVersion: number, { actor }: Actor): WorkspaceEvent => ({
  type: 'project.item_restored',
  data: { ...base(t, actor), version: t.version, fromVersion },
});

/** Whether a status change resolves the task: open before, closed after. */
export const resolves = (before: Task, after: Task) =>
  !isClosedCategory(before.status.category) && isClosedCategory(after.status.category);
