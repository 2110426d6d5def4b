import { Header, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DateOnly } from './common.ts';

const RecordId = Type.String({ minLength: 1, maxLength: 200, description: 'The transcript record reviewed' });
const SourceVersion = Type.String({ minLength: 1, maxLength: 200, description: 'The version of the record reviewed' });

export const ReviewInput = Type.Object(
  {
    record_id: RecordId,
    source_version: SourceVersion,
    sequence: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'The part of the record: 0, 1, 2…' }),
    meeting_date: DateOnly,
    summary: Type.Optional(Type.String({ maxLength: 20_000 })),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Whatever else the review found' }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewInput = Static<typeof ReviewInput>;

export const Review = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  record_id: Type.String(),
  source_version: Type.String(),
  sequence: Type.Integer(),
  meeting_date: Type.String({ format: 'date' }),
  summary: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});
export type Review = Static<typeof Review>;

export const ReviewPosted = Type.Object({
  review: Review,
  created: Type.Boolean({ description: 'false: this (agent, record, source version, sequence) was reviewed before' }),
});

export const REVIEW_PAGE_MAX = 5;

const Cursor = { minLength: 1, maxLength: 300 };
export const ReviewQuery = Type.Object(
  {
    from: Type.String({ format: 'date', description: 'First meeting date (YYYY-MM-DD)' }),
    to: Type.String({ format: 'date', description: 'Last meeting date; the window is at most 31 days' }),
    record_id: Type.Optional(RecordId),
    after: Type.Optional(Type.String({ ...Cursor, description: 'nextCursor of a page: the older page after it' })),
    before: Type.Optional(Type.String({ ...Cursor, description: 'prevCursor of a page: the newer page before it' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REVIEW_PAGE_MAX, default: REVIEW_PAGE_MAX })),
  },
  { additionalProperties: false },
);
export type ReviewQuery = Static<typeof ReviewQuery>;

export const ReviewPage = Type.Object({
  header: Header,
  payload: Type.Object({
    data: Type.Array(Review),
    meta: Type.Object({
      pagination: Type.Object({
        mode: Type.Literal('cursor'),
        limit: Type.Integer(),
        nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as after: older reviews' }),
        prevCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as before: newer reviews' }),
      }),
    }),
  }),
});

export const ProgressQuery = Type.Object(
  { record_id: RecordId, source_version: SourceVersion },
  { additionalProperties: false },
);

export const Progress = Type.Object({
  agent_id: Uuid,
  record_id: Type.String(),
  source_version: Type.String(),
  contiguous: Type.Integer({ description: 'How many sequences from 0 are reviewed without a gap' }),
  reviewed_through: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The last sequence of that run (null when 0 is not reviewed)',
  }),
  next_sequence: Type.Integer({ description: 'The first sequence not reviewed' }),
  reviewed: Type.Integer({ description: 'Every review of this record and version, gaps or not' }),
});
