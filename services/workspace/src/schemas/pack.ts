import { type Static, Type } from '@sinclair/typebox';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';

/** What a context pack holds: the project's standing context for a person or an agent starting work on it. */
export const PackContent = Type.Object({
  project: Type.Object({
    id: Uuid,
    name: Type.String(),
    description: Type.String(),
    instructions: Type.String(),
    workflow: Type.String(),
  }),
  goals: Type.Array(
    Type.Object({
      id: Uuid,
      title: Type.String(),
      status: Type.String(),
      lead: PrincipalId,
      target_date: Type.Union([DateString, Type.Null()]),
      last_checkin_status: Type.Union([Type.String(), Type.Null()]),
      last_checkin_at: Type.Union([Timestamp, Type.Null()]),
    }),
    { description: 'Active goals, oldest first, with their latest check-in' },
  ),
  decisions: Type.Array(Type.Object({ id: Uuid, title: Type.String(), approved_at: Timestamp }), {
    description: 'The latest 20 approved decisions, newest first',
  }),
  proposed_decisions: Type.Integer({ description: 'Decisions waiting for approval' }),
  data_sources: Type.Array(
    Type.Object({ id: Uuid, name: Type.String(), kind: Type.String(), reference: Type.String() }),
    { description: 'Connected data sources (the first 50)' },
  ),
  tasks: Type.Object({
    open: Type.Integer({ description: 'Unarchived tasks in an open status' }),
    by_category: Type.Record(Type.String(), Type.Integer(), { description: 'Unarchived tasks per status category' }),
  }),
});
export type PackContent = Static<typeof PackContent>;

export const Pack = Type.Object({
  project_id: Uuid,
  stale: Type.Boolean({
    description:
      'true when the project changed after the pack was built (new activity such as a check-in, or a change number), or before the first build',
  }),
  built_at: Type.Union([Timestamp, Type.Null()], { description: 'null: never built; content is read now' }),
  position: Type.Integer({ description: 'The feed position the pack was built at' }),
  change_seq: Type.Integer({ description: 'The change number the pack was built at' }),
  summary: Type.Union([Type.String(), Type.Null()], { description: 'A short model-written overview; null when none' }),
  degraded: Type.Boolean({ description: 'true when no summary could be written (no model broker, or it failed)' }),
  content: PackContent,
});
export type Pack = Static<typeof Pack>;
