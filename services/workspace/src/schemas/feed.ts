import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { ACTIVITY_PAGE } from '../domain/digest.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

/** One row of a project's activity feed: ids only. */
export const ActivityRow = Type.Object({
  id: Uuid,
  project_id: Uuid,
  position: Type.Integer({ description: "The row's place in the project's feed: 1, 2, 3… in commit order" }),
  kind: Type.String({ description: 'What happened, e.g. item.created, goal.checked_in, decision.approved' }),
  subject_id: Type.Union([Uuid, Type.Null()], { description: 'The task, goal, case, decision… it is about' }),
  actor: PrincipalId,
  created_at: Timestamp,
});
export type ActivityRow = Static<typeof ActivityRow>;

export const ActivityListQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only rows of this kind' })),
    ...pageQuery(ACTIVITY_PAGE),
  },
  { additionalProperties: false },
);

export const Visit = Type.Object({
  project_id: Uuid,
  principal: PrincipalId,
  visited_at: Timestamp,
  position: Type.Integer({ description: 'The feed position at the visit: the next digest counts rows after it' }),
});
export type Visit = Static<typeof Visit>;

export const Digest = Type.Object({
  project_id: Uuid,
  since: Type.Union([Timestamp, Type.Null()], {
    description: "The caller's previous visit (null before the first: the digest counts the whole feed)",
  }),
  since_position: Type.Integer({ description: 'The feed position at that visit' }),
  position: Type.Integer({ description: 'The feed position the digest was counted at (its cache key)' }),
  total: Type.Integer({ description: 'Activity rows after since_position' }),
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'Rows per kind, e.g. {"goal.checked_in": 2}' }),
  line: Type.Union([Type.String(), Type.Null()], {
    description: 'One model-written sentence about these counts, written off the read path; null until then',
  }),
  degraded: Type.Boolean({
    description: 'true when no line can be written (the model broker is not configured, or failed for these counts)',
  }),
  computed_at: Timestamp,
});
export type Digest = Static<typeof Digest>;
