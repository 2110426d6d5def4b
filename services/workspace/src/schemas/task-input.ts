import { pageQuery } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';
import { CategoryName, Fields, LegacyKindName, Link, OriginName, TaskTypeName } from './tasks.ts';

/** Text fields of a task: the body and the resolution. */
export const TASK_TEXT_MAX = 20_000;
/** Links a task may carry. */
export const TASK_LINKS_MAX = 50;

/** Empty clears: an empty string or null means none. */
const orEmpty = <T extends TSchema>(s: T) => Type.Union([Type.Null(), Type.Literal(''), s]);

/** POST /v1/projects/{id}/items data. */
export const TaskInput = Type.Object(
  {
    type: Type.Optional(TaskTypeName),
    /** Legacy: maps to the project's first offered type of that kind; sent with type, it must agree. */
    kind: Type.Optional(LegacyKindName),
    // The length rule (1 to 200 after trimming) is checked after trimming so the message names it.
    title: Type.String({ description: 'Trimmed; 1 to 200 characters' }),
    body: Type.Optional(Type.String({ maxLength: TASK_TEXT_MAX })),
    assignee: Type.Optional(orEmpty(PrincipalId)),
    origin: Type.Optional(OriginName),
    status_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 60, description: 'An offered status; default Triage, else Todo' }),
    ),
    fields: Type.Optional(Fields),
    links: Type.Optional(Type.Array(Link, { maxItems: TASK_LINKS_MAX })),
    resolution: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: TASK_TEXT_MAX })])),
    target_date: Type.Optional(orEmpty(DateString)),
    goal_id: Type.Optional(orEmpty(Uuid)),
  },
  { additionalProperties: false },
);
export type TaskInput = Static<typeof TaskInput>;

/** Task list pages: 100 by default, 500 at most (a whole benchmark project in one read). */
export const TASK_PAGE = { pageSize: 100, maxPageSize: 500 };

/** GET /v1/projects/{id}/items query. An unknown key is 422 (a misspelled filter must not list everything). */
export const TaskListQuery = Type.Object(
  {
    ...pageQuery(TASK_PAGE),
    state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')], { description: 'Legacy' })),
    kind: Type.Optional(LegacyKindName),
    type: Type.Optional(TaskTypeName),
    category: Type.Optional(CategoryName),
    status_id: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A principal id, or none' })),
    goal_id: Type.Optional(Type.Union([Type.Literal('none'), Uuid], { description: 'A goal id, or none' })),
    archived: Type.Optional(
      Type.Union([Type.Literal('false'), Type.Literal('true'), Type.Literal('all')], {
        default: 'false',
        description: 'false (default) lists unarchived tasks, true only archived ones, all both',
      }),
    ),
    due: Type.Optional(
      Type.Literal('overdue', {
        description: 'Open tasks whose target date is before today in the New York calendar',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        [
          Type.Literal('position'),
          Type.Literal('time_in_status'),
          Type.Literal('target_date'),
          Type.Literal('updated'),
          Type.Literal('created'),
        ],
        {
          default: 'position',
          description:
            'position: top first; time_in_status: longest in its status first; target_date: earliest first, none last; ' +
            'updated, created: oldest first. Ties go top first',
        },
      ),
    ),
    sort_desc: Type.Optional(Type.Boolean({ default: false, description: 'Reverse the sort (dates: none stay last)' })),
  },
  { additionalProperties: false },
);

/** The state fields a change-log row can name. */
export const CHANGE_FIELDS = ['status_id', 'assignee', 'target_date', 'goal_id', 'archived'] as const;

/** GET /v1/projects/{id}/items/changes query. */
export const ChangeLogQuery = Type.Object(
  {
    field: Type.Optional(
      Type.Union(
        CHANGE_FIELDS.map((f) => Type.Literal(f)),
        { description: 'One kind of change' },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);

/** A change-log row: one state field of one task changed by one write. */
export const TaskChange = Type.Object({
  id: Uuid,
  item_id: Uuid,
  field: Type.String(),
  old_value: Type.Unknown({ description: 'The value before; null when there was none' }),
  new_value: Type.Unknown({ description: 'The value after; null when there is none' }),
  actor: PrincipalId,
  created_at: Timestamp,
});

/** A content version as it was written. */
export const TaskVersion = Type.Object({
  version: Type.Integer(),
  type: Type.String(),
  title: Type.String(),
  body: Type.String(),
  fields: Fields,
  links: Type.Array(Link),
  resolution: Type.Union([Type.Null(), Type.String()]),
  author: PrincipalId,
  created_at: Timestamp,
});

/** GET .../items/{itemId}/history: newest first, at most 200 of each. */
export const TaskHistory = Type.Object({
  versions: Type.Array(TaskVersion),
  changes: Type.Array(TaskChange),
});

/**
 * The data of a project.item_created event, as consumers read it. type, category and origin are
 * absent on events from before typed tasks, so a consumer must accept them missing (reads are lenient:
 * ids are plain strings here).
 */
export const ItemCreatedData = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  itemId: Type.String({ minLength: 1 }),
  actor: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.String()),
  category: Type.Optional(CategoryName),
  origin: Type.Optional(OriginName),
  statusId: Type.Optional(Type.String()),
});
