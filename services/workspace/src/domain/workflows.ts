/**
 * Task types and statuses of the two workflows (spec 2, "Task (item)"). A workflow decides which
 * types and statuses a project offers; the six status categories are fixed.
 */

export const WORKFLOWS = ['product_development', 'general'] as const;
export type Workflow = (typeof WORKFLOWS)[number];

export const CATEGORIES = ['backlog', 'unstarted', 'started', 'review', 'completed', 'canceled'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Completed and canceled are closed; the other four are open. */
export const isClosedCategory = (c: Category | string) => c === 'completed' || c === 'canceled';

export const TASK_TYPES = ['task', 'bug', 'feature', 'chore', 'question', 'note'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** The legacy kind of each type: older clients send and read kind (question, task or note). */
export type LegacyKind = 'question' | 'task' | 'note';
export const LEGACY_KIND: Record<TaskType, LegacyKind> = {
  task: 'task',
  bug: 'task',
  feature: 'task',
  chore: 'task',
  question: 'question',
  note: 'note',
};

export interface TypeField {
  key: string;
  label: string;
  placeholder: string;
  required: false;
}

export interface TypeDescriptor {
  type: TaskType;
  kind: LegacyKind;
  name: string;
  title_hint: string;
  body_label: string;
  body_hint: string;
  /** Only what the body cannot hold; today the answer to a question. All optional. */
  fields: TypeField[];
}

export const TYPE_DESCRIPTORS: Record<TaskType, TypeDescriptor> = {
  task: {
    type: 'task',
    kind: 'task',
    name: 'Task',
    title_hint: 'What needs doing',
    body_label: 'Details',
    body_hint: 'Context, acceptance, links',
    fields: [],
  },
  bug: {
    type: 'bug',
    kind: 'task',
    name: 'Bug',
    title_hint: 'What is broken',
    body_label: 'Steps to reproduce',
    body_hint: 'What you did, what you expected, what happened',
    fields: [],
  },
  feature: {
    type: 'feature',
    kind: 'task',
    name: 'Feature',
    title_hint: 'What it lets someone do',
    body_label: 'Description',
    body_hint: 'Who needs it and why',
    fields: [],
  },
  chore: {
    type: 'chore',
    kind: 'task',
    name: 'Chore',
    title_hint: 'Upkeep to do',
    body_label: 'Details',
    body_hint: 'What and where',
    fields: [],
  },
  question: {
    type: 'question',
    kind: 'question',
    name: 'Question',
    title_hint: 'The question',
    body_label: 'Context',
    body_hint: 'Why it matters and what is known',
    fields: [{ key: 'answer', label: 'Answer', placeholder: 'The answer, once known', required: false }],
  },
  note: {
    type: 'note',
    kind: 'note',
    name: 'Note',
    title_hint: 'What to remember',
    body_label: 'Note',
    body_hint: 'The note itself',
    fields: [],
  },
};

export interface StatusDef {
  id: string;
  name: string;
  category: Category;
  /** One line. */
  description: string;
}

const S = (id: string, name: string, category: Category, description: string): StatusDef => ({
  id,
  name,
  category,
  description,
});

const TRIAGE = S('triage', 'Triage', 'backlog', 'New and not yet looked at');
const BACKLOG = S('backlog', 'Backlog', 'backlog', 'Accepted, not planned yet');
const TO_DO = S('todo', 'Todo', 'unstarted', 'Planned, not started');
const IN_PROGRESS = S('in_progress', 'In progress', 'started', 'Being worked on');
const IN_REVIEW = S('in_review', 'In review', 'review', 'Done and waiting for review');
const WAITING = S('waiting', 'Waiting', 'started', 'Started and waiting on someone else');
const DONE = S('done', 'Done', 'completed', 'Finished');

export interface WorkflowDef {
  workflow: Workflow;
  /** Offered types in picker order. */
  types: readonly TaskType[];
  /** Offered statuses in picker order. Neither workflow has a canceled status: dropped work is archived. */
  statuses: readonly StatusDef[];
}

export const WORKFLOW_DEFS: Record<Workflow, WorkflowDef> = {
  product_development: {
    workflow: 'product_development',
    types: ['task', 'bug', 'feature', 'chore', 'question', 'note'],
    statuses: [TRIAGE, BACKLOG, TO_DO, IN_PROGRESS, IN_REVIEW, DONE],
  },
  general: {
    workflow: 'general',
    types: ['task', 'question', 'note'],
    statuses: [TO_DO, IN_PROGRESS, WAITING, DONE],
  },
};

/** Every status of every workflow by id (ids mean the same status in each workflow offering it). */
export const ALL_STATUSES: ReadonlyMap<string, StatusDef> = new Map(
  Object.values(WORKFLOW_DEFS).flatMap((w) => w.statuses.map((s) => [s.id, s] as const)),
);

export const offersType = (w: Workflow, type: string): type is TaskType =>
  (WORKFLOW_DEFS[w].types as readonly string[]).includes(type);

export const offeredStatus = (w: Workflow, statusId: string): StatusDef | undefined =>
  WORKFLOW_DEFS[w].statuses.find((s) => s.id === statusId);

/** A new task's status: the default backlog status (Triage), else the default unstarted status (Todo). */
export function defaultStatus(w: Workflow): StatusDef {
  const statuses = WORKFLOW_DEFS[w].statuses;
  return (statuses.find((s) => s.category === 'backlog') ??
    statuses.find((s) => s.category === 'unstarted')) as StatusDef;
}

/** The status a legacy resolve, or a closing move without a named status, goes to: the workflow's Done. */
export const doneStatus = (w: Workflow): StatusDef =>
  WORKFLOW_DEFS[w].statuses.find((s) => s.category === 'completed') as StatusDef;

/** Legacy kind → the project's first offered type of that kind. */
export const typeForKind = (w: Workflow, kind: LegacyKind): TaskType | undefined =>
  WORKFLOW_DEFS[w].types.find((t) => LEGACY_KIND[t] === kind);

/** The status object of task reads. A status no workflow knows still reads (lenient reads). */
export const statusView = (statusId: string, category: string) => {
  const s = ALL_STATUSES.get(statusId);
  return { id: statusId, name: s?.name ?? statusId, category: (s?.category ?? category) as Category };
};
