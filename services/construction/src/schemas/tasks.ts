import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { LINK_TYPES, TASK_PAGE, TASK_STATUSES } from '../domain/tasks.ts';

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422 validation_failed). */
const StringEnum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** YYYY-MM-DD, years 1000-9999. */
const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/** Free text on one line: no leading or trailing blanks, no control characters. */
const TEXT_PATTERN =
  '^[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*[^\\s\\x00-\\x1f\\x7f-\\x9f])?$';
const Text = (maxLength: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: TEXT_PATTERN,
    description: `${description ? `${description}. ` : ''}One line: no leading or trailing blanks, no control characters`,
  });
/** Longer text that may hold line breaks: 1 to `maxLength` characters, not blank. */
const Prose = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

const Fid = Text(200, 'A principal id (FID)');
const Percent = Type.Integer({ minimum: 0, maximum: 100, description: 'Whole percent, 0 to 100' });
const Share = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'The share of the task counted toward the project, percent',
});

export const TaskStatusName = StringEnum(TASK_STATUSES);
export const LinkTypeName = StringEnum(LINK_TYPES);

export const TaskParams = Type.Object({ id: Uuid });
export const TaskLinkParams = Type.Object({ id: Uuid, projectId: Uuid });
export const TaskDocumentParams = Type.Object({ id: Uuid, documentId: Uuid });

export const LinkInput = Type.Object(
  {
    project_id: Uuid,
    relationship_type: Type.Optional(
      StringEnum(LINK_TYPES, "affects by default; primary is the task's own project only (409 primary_link)"),
    ),
    share: Type.Optional(Nullable(Share)),
  },
  { additionalProperties: false },
);
export type LinkInput = Static<typeof LinkInput>;

export const TaskInput = Type.Object(
  {
    project_id: Uuid,
    title: Text(200),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    owner_fid: Type.Optional(Nullable(Fid)),
    package_id: Type.Optional(Nullable(Uuid)),
    vendor_id: Type.Optional(Nullable(Uuid)),
    planned_start: Type.Optional(Nullable(DateString)),
    planned_finish: Type.Optional(Nullable(DateString)),
    links: Type.Optional(Type.Array(LinkInput, { maxItems: 50, description: 'Other projects the task counts toward' })),
  },
  { additionalProperties: false },
);
export type TaskInput = Static<typeof TaskInput>;

export const TaskPatch = Type.Object(
  {
    title: Type.Optional(Text(200)),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    owner_fid: Type.Optional(Nullable(Fid)),
    package_id: Type.Optional(Nullable(Uuid)),
    vendor_id: Type.Optional(Nullable(Uuid)),
    planned_start: Type.Optional(Nullable(DateString)),
    planned_finish: Type.Optional(Nullable(DateString)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type TaskPatch = Static<typeof TaskPatch>;

export const ProgressInput = Type.Object(
  {
    status: Type.Optional(TaskStatusName),
    percent_complete: Type.Optional(Percent),
    forecast_finish: Type.Optional(Nullable(DateString)),
    blocked_reason: Type.Optional(Nullable(Text(500))),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProgressInput = Static<typeof ProgressInput>;

export const DependencyInput = Type.Object({ depends_on_task_id: Uuid }, { additionalProperties: false });
export type DependencyInput = Static<typeof DependencyInput>;

export const TaskDocumentInput = Type.Object(
  { revision_id: Type.Optional(Nullable(Uuid)) },
  { additionalProperties: false },
);
export type TaskDocumentInput = Static<typeof TaskDocumentInput>;

export const NoteInput = Type.Object({ body: Prose(10000) }, { additionalProperties: false });
export type NoteInput = Static<typeof NoteInput>;

export const TaskListQuery = Type.Object(
  {
    project_id: Type.Optional(Uuid),
    owner_fid: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    status: Type.Optional(TaskStatusName),
    vendor_id: Type.Optional(Uuid),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Part of the title, ignoring case' }),
    ),
    ...pageQuery(TASK_PAGE),
  },
  { additionalProperties: false },
);

export const Task = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  description: Type.String(),
  owner_fid: Nullable(Type.String()),
  package_id: Nullable(Uuid),
  vendor_id: Nullable(Uuid),
  status: TaskStatusName,
  percent_complete: Type.Integer(),
  planned_start: Nullable(Type.String({ format: 'date' })),
  planned_finish: Nullable(Type.String({ format: 'date' })),
  forecast_finish: Nullable(Type.String({ format: 'date' })),
  blocked_reason: Nullable(Type.String()),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Task = Static<typeof Task>;

export const TaskLink = Type.Object({
  project_id: Uuid,
  relationship_type: LinkTypeName,
  share: Nullable(Type.Integer()),
  created_at: Timestamp,
});
export type TaskLink = Static<typeof TaskLink>;

const TaskRef = Type.Object({
  id: Uuid,
  title: Type.String(),
  project_id: Uuid,
  status: TaskStatusName,
  percent_complete: Type.Integer(),
});

export const TaskNote = Type.Object({
  id: Uuid,
  body: Type.String(),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type TaskNote = Static<typeof TaskNote>;

export const TaskDocument = Type.Object({
  document_id: Uuid,
  code: Type.String(),
  title: Type.String(),
  revision_id: Nullable(Uuid),
  current: Type.Boolean({
    description: 'The named revision is published, or (none named) the document has a published revision',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TaskDetail = Type.Composite([
  Task,
  Type.Object({
    links: Type.Array(TaskLink),
    prerequisites: Type.Array(TaskRef, { description: 'Tasks this task waits for' }),
    dependents: Type.Array(TaskRef, { description: 'Tasks waiting for this task' }),
    notes: Type.Array(TaskNote),
    documents: Type.Array(TaskDocument, { description: 'Required documents' }),
  }),
]);
export type TaskDetail = Static<typeof TaskDetail>;
