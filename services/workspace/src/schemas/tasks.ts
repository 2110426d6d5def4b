import { type Static, Type } from '@sinclair/typebox';
import { CATEGORIES, TASK_TYPES } from '../domain/workflows.ts';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';

export const TaskTypeName = Type.Union(TASK_TYPES.map((t) => Type.Literal(t)));
export const CategoryName = Type.Union(CATEGORIES.map((c) => Type.Literal(c)));
export const LegacyKindName = Type.Union([Type.Literal('question'), Type.Literal('task'), Type.Literal('note')]);
export const OriginName = Type.Union([Type.Literal('human'), Type.Literal('agent'), Type.Literal('template')]);

export const StatusRef = Type.Object({ id: Type.String(), name: Type.String(), category: CategoryName });

export const Link = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    title: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** Type-specific field values (today the answer to a question), by the descriptor's key. */
export const Fields = Type.Record(Type.String({ maxLength: 60 }), Type.String({ maxLength: 20_000 }));

/** A task (item) as every read shows it: GET items, GET one, the change feed, stale_version's value. */
export const Task = Type.Object({
  id: Uuid,
  project_id: Uuid,
  type: TaskTypeName,
  kind: LegacyKindName,
  title: Type.String(),
  body: Type.String(),
  status: StatusRef,
  status_id: Type.String(),
  state: Type.Union([Type.Literal('open'), Type.Literal('resolved')], { description: 'Legacy: open or resolved' }),
  status_changed_at: Timestamp,
  rank: Type.Number({
    description: 'Position; top first; a move takes the mean of its neighbours; spaced 1024 apart after a renumbering',
  }),
  version: Type.Integer({ description: 'Content version' }),
  assignee: Type.Union([Type.Null(), PrincipalId]),
  target_date: Type.Union([Type.Null(), DateString]),
  goal_id: Type.Union([Type.Null(), Uuid]),
  origin: OriginName,
  source: Type.Union([Type.Literal('human'), Type.Literal('summarizer'), Type.Literal('template')], {
    description: 'Legacy: summarizer marks an agent-written task',
  }),
  fields: Fields,
  links: Type.Array(Link),
  resolution: Type.Union([Type.Null(), Type.String()]),
  resolved_at: Type.Union([Type.Null(), Timestamp]),
  resolved_by: Type.Union([Type.Null(), PrincipalId]),
  archived: Type.Boolean(),
  archived_at: Type.Union([Type.Null(), Timestamp]),
  created_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Task = Static<typeof Task>;
