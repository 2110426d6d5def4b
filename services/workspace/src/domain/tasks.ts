import { notFound, unprocessable } from '@platform/kit';
import { trimmedText } from './text.ts';
import {
  type Category,
  isClosedCategory,
  LEGACY_KIND,
  type LegacyKind,
  offeredStatus,
  offersType,
  type StatusDef,
  type TaskType,
  TYPE_DESCRIPTORS,
  typeForKind,
  WORKFLOW_DEFS,
  type Workflow,
} from './workflows.ts';

/**
 * Task rules shared by every write (create here; PATCH, move and resolve reuse them): title,
 * type, status, type fields, the bug's resolution, and the "empty clears" reading of references.
 * Rules that need the database (assignee is a member, goal on the project) take what the store
 * found and decide here.
 */

export const TITLE_MAX = 200;

/** Trimmed; 1 to 200 characters, else 422 invalid_title naming the limit. */
export const taskTitle = (raw: string, field = 'data/title'): string =>
  trimmedText(raw, { max: TITLE_MAX, code: 'invalid_title', what: 'The title', field });

/** A type the project's workflow offers, else 422 type_not_offered. */
export function requireOfferedType(workflow: Workflow, type: string, field = 'data/type'): TaskType {
  if (!offersType(workflow, type)) {
    throw unprocessable(
      'type_not_offered',
      `This project offers the types ${WORKFLOW_DEFS[workflow].types.join(', ')}; not ${type}`,
      field,
    );
  }
  return type;
}

/**
 * The type of a new task: type when sent (an offered one); else legacy kind → the project's first
 * offered type of that kind; else the project's first offered type. Both sent: kind must be the
 * type's kind (422 kind_mismatch otherwise).
 */
export function newTaskType(workflow: Workflow, input: { type?: string; kind?: LegacyKind }): TaskType {
  if (input.type !== undefined) {
    const type = requireOfferedType(workflow, input.type);
    if (input.kind !== undefined && LEGACY_KIND[type] !== input.kind) {
      throw unprocessable(
        'kind_mismatch',
        `kind ${input.kind} does not match type ${type} (kind ${LEGACY_KIND[type]}); send type alone`,
        'data/kind',
      );
    }
    return type;
  }
  if (input.kind !== undefined) {
    const type = typeForKind(workflow, input.kind);
    if (!type)
      throw unprocessable('type_not_offered', `This project offers no type of kind ${input.kind}`, 'data/kind');
    return type;
  }
  return WORKFLOW_DEFS[workflow].types[0] as TaskType;
}

/** A status the project's workflow offers, else 422 status_not_offered. */
export function requireOfferedStatus(workflow: Workflow, statusId: string, field = 'data/status_id'): StatusDef {
  const status = offeredStatus(workflow, statusId);
  if (!status) {
    const ids = WORKFLOW_DEFS[workflow].statuses.map((s) => s.id).join(', ');
    throw unprocessable('status_not_offered', `This project offers the statuses ${ids}; not ${statusId}`, field);
  }
  return status;
}

/** Field values only under the keys of the type's descriptor (today: a question's answer), else 422 field_not_allowed. */
export function requireAllowedFields(
  type: TaskType,
  fields: Record<string, string>,
  field = 'data/fields',
): Record<string, string> {
  const allowed = new Set(TYPE_DESCRIPTORS[type].fields.map((f) => f.key));
  for (const key of Object.keys(fields)) {
    if (!allowed.has(key)) {
      const which = allowed.size ? `only ${[...allowed].join(', ')}` : 'no fields';
      throw unprocessable('field_not_allowed', `The ${type} type has ${which}; not ${key}`, `${field}/${key}`);
    }
  }
  return fields;
}

/** A resolution with only whitespace is no resolution. */
export const resolutionValue = (v: string | null | undefined): string | null =>
  v == null || v.trim() === '' ? null : v;

/** A bug needs a resolution to be in a closed status, else 422 resolution_required. */
export function requireResolutionToClose(
  type: TaskType | string,
  category: Category | string,
  resolution: string | null,
  field = 'data/resolution',
): void {
  if (type === 'bug' && isClosedCategory(category) && resolutionValue(resolution) === null) {
    throw unprocessable('resolution_required', 'A bug needs a resolution to close', field);
  }
}

/** Empty clears: '' and null mean none; undefined means not sent. */
export const emptyToNull = <T extends string>(v: T | '' | null | undefined): T | null | undefined =>
  v === undefined ? undefined : v === '' || v === null ? null : v;

/** The assignee must be a project member (only members may own tasks), else 422 assignee_not_member. */
export function requireMemberAssignee(isMember: boolean, field = 'data/assignee'): void {
  if (!isMember) throw unprocessable('assignee_not_member', 'Only a project member may own a task', field);
}

/** The goal must be a goal on the task's project, else 422 goal_not_found. */
export function requireGoalOnProject(onProject: boolean, field = 'data/goal_id'): void {
  if (!onProject) throw unprocessable('goal_not_found', 'No goal with that id on this project', field);
}

const NEW_YORK = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today's date (YYYY-MM-DD) in the New York calendar: the day the due=overdue filter compares target dates with. */
export const newYorkDate = (now: Date): string => NEW_YORK.format(now);

/** A task that is not on the path's project (or does not exist): 404 item_not_found. */
export const itemNotFound = () => notFound('Item', 'item_not_found');
