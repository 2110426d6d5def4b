import { UUID_PATTERN } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { DateString, PrincipalId, Uuid } from './common.ts';
import { TASK_LINKS_MAX, TASK_TEXT_MAX } from './task-input.ts';
import { Fields, Link, TaskTypeName } from './tasks.ts';

/** Empty clears: an empty string or null means none. */
const orEmpty = <T extends TSchema>(s: T) => Type.Union([Type.Null(), Type.Literal(''), s]);

/** {id, itemId} of the task routes. */
export const ItemEditParams = Type.Object({ id: Uuid, itemId: Uuid });

const Version = Type.Integer({ minimum: 1, description: 'The content version that was read' });
const StatusId = Type.String({ minLength: 1, maxLength: 60, description: 'A status the project offers' });
const uuid = (description: string) => Type.String({ format: 'uuid', pattern: UUID_PATTERN, description });
const Resolution = Type.Union([Type.Null(), Type.String({ maxLength: TASK_TEXT_MAX })]);

const placement = {
  after_id: Type.Optional(uuid('The task it goes after (above it in the list, the lower rank)')),
  before_id: Type.Optional(uuid('The task it goes before (below it in the list, the higher rank)')),
};

/** PATCH /v1/projects/{id}/items/{itemId} data: content fields (need version) and state fields (never do). */
export const TaskPatch = Type.Object(
  {
    version: Type.Optional(Version),
    title: Type.Optional(Type.String({ description: 'Trimmed; 1 to 200 characters' })),
    body: Type.Optional(Type.String({ maxLength: TASK_TEXT_MAX })),
    type: Type.Optional(TaskTypeName),
    fields: Type.Optional(Fields),
    links: Type.Optional(Type.Array(Link, { maxItems: TASK_LINKS_MAX })),
    resolution: Type.Optional(Resolution),
    status_id: Type.Optional(StatusId),
    ...placement,
    assignee: Type.Optional(orEmpty(PrincipalId)),
    target_date: Type.Optional(orEmpty(DateString)),
    goal_id: Type.Optional(orEmpty(Uuid)),
  },
  { additionalProperties: false },
);
export type TaskPatch = Static<typeof TaskPatch>;

/** POST .../items/{itemId}/move data. */
export const TaskMove = Type.Object(
  {
    status_id: Type.Optional(StatusId),
    ...placement,
    resolution: Type.Optional(Resolution),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type TaskMove = Static<typeof TaskMove>;

/** POST .../items/{itemId}/restore data. */
export const TaskRestore = Type.Object(
  {
    version: Version,
    from_version: Type.Integer({ minimum: 1, description: 'The older version whose content is copied' }),
  },
  { additionalProperties: false },
);
export type TaskRestore = Static<typeof TaskRestore>;

/** Archive, unarchive and the legacy resolve take no data. */
export const NoData = Type.Object({}, { additionalProperties: false });
