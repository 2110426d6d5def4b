import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { BRIEF_FEEDBACK_KINDS, BRIEF_LIMITS, BRIEF_STATUSES } from '../domain/briefs.ts';
import { DateOnly, Enum } from './common.ts';

const Email = Type.String({ minLength: 3, maxLength: 320, description: 'A person, by email' });
const Day = Type.String({
  format: 'date',
  pattern: '^[1-9]\\d{3}-',
  description: 'YYYY-MM-DD, a calendar day (else 422)',
});

export const Brief = Type.Object({
  id: Uuid,
  recipient: Type.String({ description: 'The person the brief is for, by email (lower case)' }),
  date: DateOnly,
  text: Type.String(),
  status: Enum(BRIEF_STATUSES, 'published; draft (the job failed for the person; read with drafts=true); superseded'),
  revision: Type.Integer({ minimum: 1, description: 'Revisions of the person’s day, from 1' }),
  origin: Enum(['job', 'pasted'] as const, 'job: the morning job; pasted: POST /v1/briefs'),
  created_at: Timestamp,
});
export type Brief = Static<typeof Brief>;

export const BriefQuery = Type.Object(
  {
    date: Type.Optional(Day),
    recipient: Type.Optional(Email),
    all: Type.Optional(Type.Boolean({ description: 'true: every recipient’s brief of the day, as a list' })),
    drafts: Type.Optional(Type.Boolean({ description: 'true: drafts too (ReadAnyBrief)' })),
  },
  { additionalProperties: false },
);

export const BriefInput = Type.Object(
  {
    recipient: Email,
    date: Type.Optional(Day),
    text: Type.String({ minLength: 1, maxLength: BRIEF_LIMITS.textChars }),
  },
  { additionalProperties: false },
);

export const BriefFeedbackInput = Type.Object(
  {
    brief_id: Uuid,
    kind: Enum(BRIEF_FEEDBACK_KINDS, 'wrong_scope, immaterial, already_resolved, missing, ungrounded or useful'),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const BriefFeedback = Type.Object({
  id: Uuid,
  brief_id: Uuid,
  kind: Enum(BRIEF_FEEDBACK_KINDS),
  note: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});

export const SpeechInput = Type.Object(
  {
    data: Type.Object(
      { text: Type.String({ minLength: 1, maxLength: BRIEF_LIMITS.passageChars }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const BriefJobQuery = Type.Object(
  {
    email: Type.Optional(Email),
    date: Type.Optional(Day),
    regenerate: Type.Optional(Type.Boolean({ description: 'true writes a new revision superseding the day’s brief' })),
  },
  { additionalProperties: false },
);

export const BriefJobResult = Type.Object({
  date: DateOnly,
  written: Type.Array(Email),
  kept: Type.Array(Email, { description: 'A published brief of the day was there (without regenerate)' }),
  failed: Type.Array(
    Type.Object({ email: Email, reason: Type.String() }, { description: 'Not written: a draft was stored' }),
  ),
});
