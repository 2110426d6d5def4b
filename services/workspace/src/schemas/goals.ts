import { pageQuery } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CHECKIN_STATES } from '../domain/checkin-schedule.ts';
import {
  CHECKIN_PAGE,
  CHECKIN_STATUSES,
  CLOSING_NOTE_MAX,
  DESCRIPTION_MAX,
  GOAL_STATUSES,
  NOTE_MAX,
  OPEN_GOAL_STATUSES,
  TITLE_MAX,
} from '../domain/goals.ts';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';

export const GoalParams = Type.Object({ id: Uuid, goalId: Uuid });

export const GoalStatusName = Type.Union(
  GOAL_STATUSES.map((s) => Type.Literal(s)),
  { description: 'on_track, at_risk, off_track (open); achieved, missed, dropped (closed; need a closing note)' },
);
export const OpenGoalStatusName = Type.Union(OPEN_GOAL_STATUSES.map((s) => Type.Literal(s)));
export const CheckinStatusName = Type.Union(
  CHECKIN_STATUSES.map((s) => Type.Literal(s)),
  { description: 'on_track, at_risk or off_track' },
);
export const CheckinStateName = Type.Union(CHECKIN_STATES.map((s) => Type.Literal(s)));

/** Empty clears: an empty string or null means none. */
const orEmpty = <T extends TSchema>(s: T) => Type.Union([Type.Null(), Type.Literal(''), s]);

/** A goal as every read shows it, with its read-time check-in fields (computed, never stored). */
export const Goal = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  description: Type.String(),
  lead: PrincipalId,
  target_date: Type.Union([Type.Null(), DateString], { description: 'null: an ongoing goal' }),
  status: GoalStatusName,
  closing_note: Type.Union([Type.Null(), Type.String()], { description: 'Set on closed goals; null on open ones' }),
  created_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
  contributors: Type.Array(PrincipalId, {
    description: 'The distinct owners (assignees) of unarchived tasks linked to the goal, sorted',
  }),
  last_checkin_at: Type.Optional(Timestamp),
  last_checkin_status: Type.Optional(CheckinStatusName),
  checkin_state: Type.Optional(
    Type.Union(
      CHECKIN_STATES.map((s) => Type.Literal(s)),
      { description: 'current, due or overdue; absent on closed goals' },
    ),
  ),
  next_checkin_on: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'A New York calendar date: the due day while due or overdue, else the next due day; absent on closed goals',
    }),
  ),
});
export type Goal = Static<typeof Goal>;

const Title = Type.String({ description: `Trimmed; 1 to ${TITLE_MAX} characters` });
const Description = Type.String({ maxLength: DESCRIPTION_MAX });

/** POST .../goals data. */
export const GoalInput = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    lead: Type.Optional(PrincipalId),
    target_date: Type.Optional(orEmpty(DateString)),
    status: Type.Optional(OpenGoalStatusName),
  },
  { additionalProperties: false },
);
export type GoalInput = Static<typeof GoalInput>;

/** PATCH .../goals/{goalId} data: only the fields sent change. */
export const GoalPatch = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    lead: Type.Optional(PrincipalId),
    target_date: Type.Optional(orEmpty(DateString)),
    status: Type.Optional(GoalStatusName),
    closing_note: Type.Optional(
      orEmpty(Type.String({ description: `Trimmed; at most ${CLOSING_NOTE_MAX} characters; only on a closed goal` })),
    ),
  },
  { additionalProperties: false },
);
export type GoalPatch = Static<typeof GoalPatch>;

export const Checkin = Type.Object({
  id: Uuid,
  goal_id: Uuid,
  project_id: Uuid,
  status_before: GoalStatusName,
  status: CheckinStatusName,
  note: Type.String(),
  author: PrincipalId,
  created_at: Timestamp,
});
export type Checkin = Static<typeof Checkin>;

export const CheckinInput = Type.Object(
  {
    status: CheckinStatusName,
    note: Type.String({ description: `Trimmed; one line; 1 to ${NOTE_MAX} characters` }),
  },
  { additionalProperties: false },
);
export type CheckinInput = Static<typeof CheckinInput>;

export const CheckinListQuery = Type.Object(pageQuery(CHECKIN_PAGE), { additionalProperties: false });
