import { conflict, notFound, unprocessable } from '@platform/kit';

/**
 * Tasks (spec 3, Tasks): pure rules. A task has a primary project (its own, relationship_type
 * primary) and may count toward others (affects by default, shared, deliverable_for) with a share
 * in percent. Statuses: not_started, in_progress, blocked, done; any status may follow any other
 * (the spec states no transitions). Done means 100 percent and needs every prerequisite done and
 * every required document current.
 */

export const TASK_STATUSES = ['not_started', 'in_progress', 'blocked', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const LINK_TYPES = ['primary', 'affects', 'shared', 'deliverable_for'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const DEFAULT_LINK_TYPE: LinkType = 'affects';

export const TASK_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

export interface TaskRecord {
  id: string;
  project_id: string;
  title: string;
  description: string;
  owner_fid: string | null;
  package_id: string | null;
  vendor_id: string | null;
  status: TaskStatus;
  percent_complete: number;
  planned_start: string | null;
  planned_finish: string | null;
  forecast_finish: string | null;
  blocked_reason: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export const taskNotFound = () => notFound('Task', 'task_not_found');
export const linkNotFound = () => notFound('Link', 'link_not_found');
export const documentNotFound = () => notFound('Document', 'document_not_found');
export const revisionNotFound = () => notFound('Document revision', 'revision_not_found');
export const packageNotFound = () => notFound('Package', 'package_not_found');

export const primaryLinkConflict = (what: string) => conflict('primary_link', what);

/** A package named on a task belongs to the task's primary project (422 package_of_another_project). */
export function requirePackageOfProject(pkg: { project_id: string }, projectId: string) {
  if (pkg.project_id !== projectId) {
    throw unprocessable('package_of_another_project', 'The package belongs to another project', 'body/data/package_id');
  }
}

/** planned_start on or before planned_finish (422 validation_failed). */
export function requirePlannedOrder(start: string | null, finish: string | null) {
  if (start !== null && finish !== null && start > finish) {
    throw unprocessable('validation_failed', 'planned_start is after planned_finish', 'body/data/planned_start');
  }
}

export interface LinkInput {
  project_id: string;
  relationship_type?: LinkType;
  share?: number | null;
}

/**
 * The links a new task gets: the primary link to its own project first, then one per other
 * project named (affects by default). Naming the own project again or a link of type primary is
 * 409 primary_link; naming one other project twice is 422 validation_failed.
 */
export function planLinks(projectId: string, links: readonly LinkInput[]) {
  const planned: { project_id: string; relationship_type: LinkType; share: number | null }[] = [
    { project_id: projectId, relationship_type: 'primary', share: null },
  ];
  for (const l of links) {
    const type = l.relationship_type ?? DEFAULT_LINK_TYPE;
    if (type === 'primary' || l.project_id === projectId) {
      throw primaryLinkConflict('The task already has its primary link to its own project');
    }
    if (planned.some((p) => p.project_id === l.project_id)) {
      throw unprocessable('validation_failed', 'A project is named twice in links', 'body/data/links');
    }
    planned.push({ project_id: l.project_id, relationship_type: type, share: l.share ?? null });
  }
  return planned;
}

export interface ProgressInput {
  status?: TaskStatus;
  percent_complete?: number;
  forecast_finish?: string | null;
  blocked_reason?: string | null;
}

export interface ProgressChange {
  status: TaskStatus;
  percent_complete: number;
  forecast_finish: string | null;
  blocked_reason: string | null;
}

/**
 * The task after a progress report. Done sets 100 percent (another percentage sent with done is
 * 422); a blocked reason is kept only while blocked: sending one for a task that will not be
 * blocked is 422, and leaving blocked clears it. `becomesDone` says the done checks must run.
 */
export function planProgress(
  current: TaskRecord,
  input: ProgressInput,
): { next: ProgressChange; becomesDone: boolean } {
  const status = input.status ?? current.status;
  if (status === 'done' && input.percent_complete !== undefined && input.percent_complete !== 100) {
    throw unprocessable('validation_failed', 'A done task is 100 percent complete', 'body/data/percent_complete');
  }
  if (status !== 'blocked' && input.blocked_reason != null) {
    throw unprocessable('validation_failed', 'blocked_reason goes with status blocked', 'body/data/blocked_reason');
  }
  if (current.status === 'done' && input.status === undefined && input.percent_complete !== undefined) {
    if (input.percent_complete !== 100) {
      throw unprocessable(
        'validation_failed',
        'A done task is 100 percent complete: move it first',
        'body/data/status',
      );
    }
  }
  const percent = status === 'done' ? 100 : (input.percent_complete ?? current.percent_complete);
  const blocked_reason =
    status === 'blocked'
      ? input.blocked_reason !== undefined
        ? input.blocked_reason
        : current.status === 'blocked'
          ? current.blocked_reason
          : null
      : null;
  return {
    next: {
      status,
      percent_complete: percent,
      forecast_finish: input.forecast_finish !== undefined ? input.forecast_finish : current.forecast_finish,
      blocked_reason,
    },
    becomesDone: status === 'done' && current.status !== 'done',
  };
}

/** Refuses done while a prerequisite is unfinished (409 unfinished_prerequisite). */
export function requirePrerequisitesDone(unfinished: readonly { id: string }[]) {
  if (unfinished.length > 0) {
    throw conflict(
      'unfinished_prerequisite',
      `${unfinished.length} prerequisite task(s) are not done: ${unfinished.map((t) => t.id).join(', ')}`,
    );
  }
}

/** Refuses done while a required document has no published revision (409 documents_not_current). */
export function requireDocumentsCurrent(notCurrent: readonly { document_id: string }[]) {
  if (notCurrent.length > 0) {
    throw conflict(
      'documents_not_current',
      `${notCurrent.length} required document(s) have no published revision: ${notCurrent.map((d) => d.document_id).join(', ')}`,
    );
  }
}

/** A dependency of a task on itself, or on a task that already (transitively) waits for it, closes a cycle. */
export function requireNoCycle(taskId: string, dependsOn: string, pathBack: boolean) {
  if (taskId === dependsOn || pathBack) {
    throw conflict('dependency_cycle', 'The dependency would close a cycle');
  }
}

export const dependencyExists = () => conflict('dependency_exists', 'The task already waits for that task');

/** The task as answered (without its links and other parts). */
export function taskView(t: TaskRecord) {
  return {
    id: t.id,
    project_id: t.project_id,
    title: t.title,
    description: t.description,
    owner_fid: t.owner_fid,
    package_id: t.package_id,
    vendor_id: t.vendor_id,
    status: t.status,
    percent_complete: t.percent_complete,
    planned_start: t.planned_start,
    planned_finish: t.planned_finish,
    forecast_finish: t.forecast_finish,
    blocked_reason: t.blocked_reason,
    created_by: t.created_by,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

/** The fields of an edit that differ from the task (sent with another value). */
export function changedFields<K extends keyof TaskRecord>(
  current: TaskRecord,
  input: Partial<Record<K, unknown>>,
): K[] {
  return (Object.keys(input) as K[]).filter((k) => input[k] !== undefined && input[k] !== current[k]);
}
