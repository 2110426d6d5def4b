import { UUID_RE, unprocessable } from '@platform/kit';
import type { WorkspaceEvent } from '../events.ts';
import type { View } from '../schemas/views.ts';
import { trimmedText } from './text.ts';
import {
  CATEGORIES,
  type Category,
  isClosedCategory,
  offeredStatus,
  offersType,
  type TaskType,
  type Workflow,
} from './workflows.ts';

/**
 * Saved views (spec 2, "Saved view" and "Goals, check-ins and views"): the rules as plain
 * functions. A save is strict (unknown key, unusable value, a list of more than 50 values: 422;
 * repeated values dropped); a read is lenient (values no longer usable are left out).
 */

export const LAYOUTS = ['list', 'board'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const GROUP_BYS = ['status', 'goal', 'assignee', 'type', 'none'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

export const SORTS = ['position', 'target_date', 'updated', 'created', 'time_in_status'] as const;
export type Sort = (typeof SORTS)[number];

export const DEFAULT_GROUP_BY: GroupBy = 'status';
export const DEFAULT_SORT: Sort = 'position';

/** A project has at most 20 views; names are 1 to 60 characters; filter lists at most 50 values. */
export const MAX_VIEWS = 20;
export const NAME_MAX = 60;
export const FILTER_LIST_MAX = 50;

export const FILTER_KEYS = ['types', 'categories', 'status_ids', 'assignees', 'goal_ids', 'due', 'archived'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

const LIST_KEYS = ['types', 'categories', 'status_ids', 'assignees', 'goal_ids'] as const;
type ListKey = (typeof LIST_KEYS)[number];

/** A view's filters, keys in this order; a key is absent when it does not filter. */
export interface Filters {
  types?: TaskType[];
  categories?: Category[];
  status_ids?: string[];
  /** Principal ids, or none (unassigned). */
  assignees?: string[];
  /** Goal ids of the project, or none (no goal). */
  goal_ids?: string[];
  /** overdue: open tasks past their target date. */
  due?: 'overdue';
  /** true shows only archived tasks; absent shows only unarchived ones. */
  archived?: true;
}

/** What filter values are checked against: the project's workflow and the goals on it. */
export interface FilterContext {
  workflow: Workflow;
  goalIds: ReadonlySet<string>;
}

export const NONE = 'none';

const SERVICE_PRINCIPAL = /^service:[a-z0-9][a-z0-9._-]{0,99}$/;

/** A principal id as stored on tasks: a person's FID (a UUID, lower case) or service:<name>. */
const principalId = (v: string): string | undefined => {
  if (UUID_RE.test(v)) return v.toLowerCase();
  return SERVICE_PRINCIPAL.test(v) ? v : undefined;
};

/**
 * One value of a list key made canonical, or undefined when this project cannot use it. The
 * same test serves strict saves (undefined → 422) and lenient reads (undefined → left out).
 */
function usable(key: ListKey, value: unknown, ctx: FilterContext): string | undefined {
  if (typeof value !== 'string') return undefined;
  switch (key) {
    case 'types':
      return offersType(ctx.workflow, value) ? value : undefined;
    case 'categories':
      return (CATEGORIES as readonly string[]).includes(value) ? value : undefined;
    case 'status_ids':
      return offeredStatus(ctx.workflow, value) ? value : undefined;
    case 'assignees':
      return value === NONE ? NONE : principalId(value);
    case 'goal_ids': {
      if (value === NONE) return NONE;
      const id = value.toLowerCase();
      return ctx.goalIds.has(id) ? id : undefined;
    }
  }
}

const WHY_NOT: Record<ListKey, string> = {
  types: 'is not a task type this project offers',
  categories: 'is not one of the six status categories',
  status_ids: 'is not a status this project offers',
  assignees: "is not a principal id or none (never me: send the person's id)",
  goal_ids: 'is not a goal on this project or none',
};

const refuse = (field: string, message: string) =>
  unprocessable('invalid_filter', `${field} ${message}`, `data/filters${field ? `/${field}` : ''}`);

/**
 * A save's filters, strictly: an unknown key, an unusable value or a list of more than 50
 * values is 422 invalid_filter naming the field; repeated values are dropped (first kept); an
 * empty list filters nothing and is not stored.
 */
export function saveFilters(input: unknown, ctx: FilterContext): Filters {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw refuse('', 'must be an object');
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw refuse(key, 'is not a filter key');
  }
  const out: Filters = {};
  for (const key of LIST_KEYS) {
    const values = raw[key];
    if (values === undefined) continue;
    if (!Array.isArray(values)) throw refuse(key, 'must be a list');
    if (values.length > FILTER_LIST_MAX) throw refuse(key, `holds more than ${FILTER_LIST_MAX} values`);
    const kept: string[] = [];
    for (const [i, v] of values.entries()) {
      const ok = usable(key, v, ctx);
      if (ok === undefined) throw refuse(`${key}/${i}`, `(${JSON.stringify(v)}) ${WHY_NOT[key]}`);
      if (!kept.includes(ok)) kept.push(ok);
    }
    if (kept.length > 0) (out as Record<string, string[]>)[key] = kept;
  }
  if (raw.due !== undefined) {
    if (raw.due !== 'overdue') throw refuse('due', 'can only be overdue');
    out.due = 'overdue';
  }
  if (raw.archived !== undefined) {
    if (raw.archived !== true) throw refuse('archived', 'can only be true (absent shows unarchived tasks only)');
    out.archived = true;
  }
  return out;
}

/**
 * Stored filters as a read shows them, leniently: unknown keys and values this project can no
 * longer use (a deleted goal, a status or type the workflow does not offer) are left out, and a
 * list left with no usable value is left out altogether. Never throws.
 */
export function readFilters(stored: unknown, ctx: FilterContext): Filters {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const raw = stored as Record<string, unknown>;
  const out: Filters = {};
  for (const key of LIST_KEYS) {
    const values = raw[key];
    if (!Array.isArray(values)) continue;
    const kept: string[] = [];
    for (const v of values) {
      const ok = usable(key, v, ctx);
      if (ok !== undefined && !kept.includes(ok)) kept.push(ok);
    }
    if (kept.length > 0) (out as Record<string, string[]>)[key] = kept;
  }
  if (raw.due === 'overdue') out.due = 'overdue';
  if (raw.archived === true) out.archived = true;
  return out;
}

/** A stored view as every read shows it: filters made lenient; seed_key absent on user-added views. */
export interface StoredView {
  id: string;
  project_id: string;
  name: string;
  layout: Layout;
  group_by: GroupBy;
  sort: Sort;
  sort_desc: boolean;
  filters: unknown;
  position: number;
  seed_key: string | null;
  created_by: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export function toView(row: StoredView, ctx: FilterContext): View {
  const { seed_key, filters, ...rest } = row;
  return { ...rest, filters: readFilters(filters, ctx), ...(seed_key !== null ? { seed_key } : {}) };
}

/** Two filter sets are the same when every key holds the same values in the same order. */
export const sameFilters = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What a view's filters look at on a task. */
export interface MatchableTask {
  type: string;
  status_id: string;
  /** The status category (kept with the task). */
  category: string;
  assignee: string | null;
  goal_id: string | null;
  /** YYYY-MM-DD or null. */
  target_date: string | null;
  archived: boolean;
}

/**
 * Whether a task shows in a view with these (read) filters. Keys combine with AND, values of
 * one key with OR. due overdue: open (not completed or canceled) with a target date before
 * `today` (YYYY-MM-DD; a task due today is not overdue). archived true: only archived tasks;
 * absent: only unarchived tasks.
 */
export function viewMatches(task: MatchableTask, filters: Filters, today: string): boolean {
  if (filters.archived === true ? !task.archived : task.archived) return false;
  if (filters.types && !filters.types.includes(task.type as TaskType)) return false;
  if (filters.categories && !filters.categories.includes(task.category as Category)) return false;
  if (filters.status_ids && !filters.status_ids.includes(task.status_id)) return false;
  if (filters.assignees && !filters.assignees.includes(task.assignee ?? NONE)) return false;
  if (filters.goal_ids && !filters.goal_ids.includes(task.goal_id ?? NONE)) return false;
  if (filters.due === 'overdue' && !isOverdue(task, today)) return false;
  return true;
}

/** Open and past its target date (strictly before today). */
export const isOverdue = (task: Pick<MatchableTask, 'category' | 'target_date'>, today: string) =>
  !isClosedCategory(task.category) && task.target_date !== null && task.target_date < today;

/**
 * How a view groups its tasks: boards ignore group_by (their columns are always the project's
 * statuses), while the stored group_by still reads as saved, so a board switched back to a list
 * groups as before. Lists group by their group_by.
 */
export const grouping = (view: { layout: Layout; group_by: GroupBy }): GroupBy =>
  view.layout === 'board' ? 'status' : view.group_by;

/** A view name: trimmed, 1 to 60 characters (422 invalid_view_name). */
export const viewName = (raw: string): string =>
  trimmedText(raw, { max: NAME_MAX, code: 'invalid_view_name', what: 'A view name', field: 'data/name' });

/** Names are unique ignoring case: the key the unique index holds. */
export const nameKey = (name: string) => name.toLowerCase();

export const viewNameTaken = () =>
  unprocessable('view_name_taken', 'Another view of this project has this name (ignoring case)', 'data/name');

export const tooManyViews = () => unprocessable('too_many_views', `A project has at most ${MAX_VIEWS} views`, 'data');

/**
 * Checks a reorder: view_ids must name every view of the project exactly once. Returns the
 * problem (422 invalid_view_order) or undefined.
 */
export function orderProblem(current: readonly string[], sent: readonly string[]) {
  const known = new Set(current);
  const seen = new Set<string>();
  for (const [i, id] of sent.entries()) {
    const field = `data/view_ids/${i}`;
    if (!known.has(id)) return unprocessable('invalid_view_order', `${id} is not a view of this project`, field);
    if (seen.has(id)) return unprocessable('invalid_view_order', `${id} is named more than once`, field);
    seen.add(id);
  }
  const missing = current.find((id) => !seen.has(id));
  if (missing)
    return unprocessable('invalid_view_order', `view_ids must name every view; ${missing} is missing`, 'data/view_ids');
  return undefined;
}

/** The view events: ids only; names and filters stay off the bus. */
export const viewCreated = (projectId: string, viewId: string, actor: string): WorkspaceEvent => ({
  type: 'project.view_created',
  data: { projectId, viewId, actor },
});

export const viewUpdated = (projectId: string, viewId: string, actor: string): WorkspaceEvent => ({
  type: 'project.view_updated',
  data: { projectId, viewId, actor },
});

export const viewDeleted = (projectId: string, viewId: string, actor: string): WorkspaceEvent => ({
  type: 'project.view_deleted',
  data: { projectId, viewId, actor },
});

export const viewsReordered = (projectId: string, viewIds: string[], actor: string): WorkspaceEvent => ({
  type: 'project.views_reordered',
  data: { projectId, viewIds, actor },
});
