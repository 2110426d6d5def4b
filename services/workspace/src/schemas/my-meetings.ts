import { type Static, Type } from '@sinclair/typebox';
import { DateString } from './common.ts';

export const MY_MEETINGS = { maxDays: 62, maxRows: 500 } as const;

export const MyMeetingsQuery = Type.Object(
  {
    from: DateString,
    to: DateString,
  },
  { additionalProperties: false },
);
export type MyMeetingsQuery = Static<typeof MyMeetingsQuery>;

export const MyMeeting = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  kind: Type.String({ description: 'meeting, thread or recording' }),
  source: Type.String(),
  project_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  started_at: Type.String({ format: 'date-time', description: 'When the record was opened' }),
  ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: "ended_at - started_at when it ended, else the last line's start_ms, else null",
  }),
  participants: Type.Array(Type.String()),
  person_speakers: Type.Array(Type.String(), {
    description: "Speaker names on the transcript's lines that are the caller (assigned to their id, or their email)",
  }),
  line_count: Type.Integer({ minimum: 0 }),
  decisions_count: Type.Integer({
    minimum: 0,
    description: "Decisions proposed on the meeting's project from its start to the end of its New York day",
  }),
});
export type MyMeeting = Static<typeof MyMeeting>;
