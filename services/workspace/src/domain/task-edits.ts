import { AppError, unprocessable } from '@platform/kit';
import type { Task } from '../schemas/tasks.ts';
import { requireAllowedFields, requireOfferedType, resolutionValue, taskTitle } from './tasks.ts';
import { isClosedCategory, type StatusDef, type TaskType, TYPE_DESCRIPTORS, type Workflow } from './workflows.ts';

/**
 * Edits of a task (spec 2, "PATCH on a task"): a content change (title, body, type, fields,
 * links, resolution) writes a new version and needs the version that was read; a state change
 * (status, owner, target date, goal) goes to the change log and never needs a version. Status
 * changes by any route set status_changed_at and, crossing between open and closed, who resolved
 * the task and when. Pure rules; the command reads and writes.
 */

export const CONTENT_FIELDS = ['title', 'body', 'type', 'fields', 'links', 'resolution'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

/** Content fields whose change changes what the knowledge layer may cite from the task. */
const EVIDENCE_FIELDS: readonly ContentField[] = ['title', 'body', 'fields', 'resolution'];

/** A task's content: what a version holds. */
export interface Content {
  type: TaskType;
  title: string;
  body: string;
  fields: Record<string, string>;
  links: Task['links'];
  resolution: string | null;
}

export const contentOf = (t: Task): Content => ({
  type: t.type,
  title: t.title,
  body: t.body,
  fields: t.fields,
  links: t.links,
  resolution: t.resolution,
});

/** The content part of an edit, as sent (undefined: not sent). */
export interface ContentInput {
  title?: string;
  body?: string;
  type?: TaskType;
  fields?: Record<string, string>;
  links?: Task['links'];
  resolution?: string | null;
}

/** Whether an edit sends any content field (and so needs the version that was read). */
export const sendsContent = (input: ContentInput): boolean =>
  CONTENT_FIELDS.some((f) => (input as Record<string, unknown>)[f] !== undefined);

/** 409 stale_version with the task as it is now in errors[0].value. */
export function staleVersion(current: Task): AppError {
  const message = `The task is at version ${current.version}; reread it and apply the change to that version`;
  return new AppError(409, 'stale_version', message, [{ code: 'stale_version', message, value: current }]);
}

/**
 * A content change needs the version that was read: none is 422 version_required; any other
 * version than the current one (older, or one that never existed) is 409 stale_version.
 */
export function requireCurrentVersion(current: Task, version: number | undefined, field = 'data/version'): void {
  if (version === undefined) {
    throw unprocessable('version_required', 'A content change needs the version that was read (data.version)', field);
  }
  if (version !== current.version) throw staleVersion(current);
}

/**
 * The content after an edit: the title trimmed (1 to 200 characters), the type one the project
 * offers (when it changes), field values only under the keys of the (new) type. A type change
 * drops the field values the new type does not have; a whitespace-only resolution is none.
 */
export function editedContent(workflow: Workflow, before: Content, input: ContentInput): Content {
  const type =
    input.type === undefined || input.type === before.type ? before.type : requireOfferedType(workflow, input.type);
  const fields =
    input.fields === undefined ? fieldsOfType(type, before.fields) : requireAllowedFields(type, input.fields);
  return {
    type,
    title: input.title === undefined ? before.title : taskTitle(input.title),
    body: input.body ?? before.body,
    fields,
    links: input.links ?? before.links,
    resolution: input.resolution === undefined ? before.resolution : resolutionValue(input.resolution),
  };
}

/** The field values a type has (a type change drops the rest). */
export function fieldsOfType(type: TaskType, fields: Record<string, string>): Record<string, string> {
  const keys = new Set(TYPE_DESCRIPTORS[type].fields.map((f) => f.key));
  return Object.fromEntries(Object.entries(fields).filter(([k]) => keys.has(k)));
}

/** Stable comparison of JSON-like values (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** The names of the content fields that differ, in CONTENT_FIELDS order (empty: a no-op). */
export const changedContent = (before: Content, after: Content): ContentField[] =>
  CONTENT_FIELDS.filter((f) => !sameValue(before[f], after[f]));

/**
 * evidenceChanged: whether what the knowledge layer may cite from the task changed — its text
 * (title, body, type fields, resolution), or its being closed or open (a close or reopen changes
 * it without any text change). Links and the type alone do not.
 */
export const evidenceChanged = (changed: readonly string[], closesOrReopens: boolean): boolean =>
  closesOrReopens || changed.some((f) => (EVIDENCE_FIELDS as readonly string[]).includes(f));

/** What a status change writes on the task row. */
export interface StatusWrite {
  status_id: string;
  category: string;
  status_changed_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
}

/**
 * A status change by any route: status_changed_at is now; open → closed records who resolved the
 * task and when; closed → open clears both (the resolution stays); closed → closed keeps them.
 */
export function statusWrite(current: Task, to: StatusDef, actor: string, now: Date): StatusWrite {
  const wasClosed = isClosedCategory(current.status.category);
  const closed = isClosedCategory(to.category);
  const keep = wasClosed && closed;
  return {
    status_id: to.id,
    category: to.category,
    status_changed_at: now,
    resolved_at: closed ? (keep && current.resolved_at ? new Date(current.resolved_at) : now) : null,
    resolved_by: closed ? (keep && current.resolved_by ? current.resolved_by : actor) : null,
  };
}

/** Open → closed: the change publishes project.item_resolved. */
export const closes = (fromCategory: string, toCategory: string) =>
  !isClosedCategory(fromCategory) && isClosedCategory(toCategory);

/** Closed ↔ open in either direction (what evidenceChanged counts). */
export const crossesClosed = (fromCategory: string, toCategory: string) =>
  isClosedCategory(fromCategory) !== isClosedCategory(toCategory);

/**
 * A bug needs a resolution to be closed. Checked when the write would make a closed bug without
 * one: closing it, making a closed task a bug, or clearing a closed bug's resolution. A task that
 * already is a closed bug without a resolution (older data) is not refused other edits.
 */
export function bugStaysResolved(
  before: { type: string; category: string; resolution: string | null },
  after: { type: string; category: string; resolution: string | null },
): boolean {
  const bad = (t: typeof before) =>
    t.type === 'bug' && isClosedCategory(t.category) && resolutionValue(t.resolution) === null;
  return !bad(after) || bad(before);
}

export function requireBugResolution(
  before: { type: string; category: string; resolution: string | null },
  after: { type: string; category: string; resolution: string | null },
  field = 'data/resolution',
): void {
  if (!bugStaysResolved(before, after)) {
    throw unprocessable('resolution_required', 'A bug needs a resolution to close', field);
  }
}

/** A task that is archived is read-only: every write but unarchive is 409 item_archived. */
export function requireNotArchived(t: Task): void {
  if (t.archived) {
    throw new AppError(409, 'item_archived', 'The task is archived; unarchive it before changing it');
  }
}

/** The state fields of the change log, named exactly as the API names them. */
export const STATE_FIELDS = ['status_id', 'assignee', 'target_date', 'goal_id'] as const;
export type StateField = (typeof STATE_FIELDS)[number];
