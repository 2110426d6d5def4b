import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DateOnly, Enum } from './common.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Email = Type.String({ description: 'A person, by email' });

export const CoachingWeek = Type.Object({
  start: DateOnly,
  end: Type.String({ description: 'The Sunday, YYYY-MM-DD' }),
});

export const RaisedSeries = Type.Object({
  id: Type.String({ description: 'The point id feedback names' }),
  title: Type.String({ description: "The title of the series' latest meeting" }),
  meetings: Count('Meetings of the series in the four weeks'),
  minutes: Count('Their minutes together'),
  spoke_in: Count('Those the person spoke in'),
  decisions: Count('Decisions recorded from them'),
  reasons: Type.Array(
    Enum(
      ['long_and_quiet', 'no_decisions'] as const,
      'long_and_quiet: at least two hours, the person speaking in at most a quarter; no_decisions: at least three meetings, no decision',
    ),
  ),
});

export const MeetingTime = Type.Object({
  summary: Type.String({ description: 'One line about the week, counted in code' }),
  meetings: Count('Meetings of the week'),
  minutes: Count('Their minutes'),
  spoke_in: Count('Meetings of the week the person spoke in'),
  series: Type.Array(RaisedSeries, { description: 'Series of the past four weeks raised (none: not listed)' }),
});

export const CommunicationPoint = Type.Object({
  id: Type.String(),
  meeting_id: Type.String(),
  seq: Type.Integer({ description: 'The line quoted: its seq in the meeting' }),
  quote: Type.String({ description: "The person's own words at that line, verbatim" }),
  observation: Type.String(),
  suggestion: Type.String(),
});

export const AboutYouPoint = Type.Object({
  id: Type.String(),
  kind: Enum(['waiting_on_you', 'credit', 'concern', 'misunderstanding'] as const, 'At most one point of each kind'),
  meeting_id: Type.String(),
  seq: Type.Integer(),
  speaker: Type.String({ description: 'Who said the line quoted' }),
  quote: Type.String({ description: 'Their line naming the person, verbatim' }),
  suggestion: Type.String({ description: 'Names nobody' }),
});

export const CoachingReport = Type.Object({
  id: Uuid,
  week: CoachingWeek,
  created_at: Timestamp,
  meeting_time: MeetingTime,
  communication: Type.Union([Type.Object({ points: Type.Array(CommunicationPoint, { maxItems: 3 }) }), Type.Null()], {
    description: 'null unless the person is in COACH_COMMUNICATION_RECIPIENTS',
  }),
  about_you: Type.Object({ points: Type.Array(AboutYouPoint, { maxItems: 4 }) }),
  feedback: Type.Array(Type.Object({ point_id: Type.String(), useful: Type.Boolean() }), {
    description: 'What the person said about points of this report',
  }),
});
export type CoachingReport = Static<typeof CoachingReport>;

export const Coaching = Type.Object({
  enabled: Type.Boolean({ description: 'Whether coaching is on for the caller (on unless turned off)' }),
  report: Type.Union([CoachingReport, Type.Null()], { description: "The caller's latest report; null when none" }),
});
export type Coaching = Static<typeof Coaching>;

export const CoachingSettingInput = Type.Object(
  { enabled: Type.Boolean({ description: 'false deletes every stored report and feedback of the caller' }) },
  { additionalProperties: false },
);
export type CoachingSettingInput = Static<typeof CoachingSettingInput>;

export const CoachingSetting = Type.Object({ enabled: Type.Boolean() });

export const CoachingFeedbackInput = Type.Object(
  {
    report_id: Uuid,
    point_id: Type.String({ minLength: 1, maxLength: 100 }),
    useful: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CoachingFeedbackInput = Static<typeof CoachingFeedbackInput>;

export const CoachingFeedback = Type.Object({
  report_id: Uuid,
  point_id: Type.String(),
  useful: Type.Boolean(),
});
export type CoachingFeedback = Static<typeof CoachingFeedback>;

export const CoachingJobQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, description: 'Only this person' })),
    week: Type.Optional(Type.String({ description: 'Any date in the week, YYYY-MM-DD; default last week' })),
    regenerate: Type.Optional(Type.Boolean({ description: 'true writes the report again, replacing the stored one' })),
  },
  { additionalProperties: false },
);

export const CoachingJobResult = Type.Object({
  week: CoachingWeek,
  written: Type.Array(Email),
  kept: Type.Array(Email, { description: 'A report for the week was already there (without regenerate)' }),
  skipped: Type.Array(Email, { description: 'Turned coaching off' }),
  failed: Type.Array(Type.Object({ email: Email, reason: Type.String() })),
  about_you: Count('Reports written with at least one about_you point'),
  about_you_points: Count('about_you points in the reports written'),
});
