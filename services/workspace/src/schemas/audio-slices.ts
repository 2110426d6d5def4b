import { type Static, Type } from '@sinclair/typebox';
import { Uuid } from './common.ts';

/** POST /v1/meetings/{evidenceId}/audio-slices?index=&start_ms= */
export const AudioSliceQuery = Type.Object({
  index: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: 'The slice number, from 0, one a minute; a resent index is answered from what was stored',
  }),
  start_ms: Type.Integer({
    minimum: 0,
    maximum: 2_147_483_647,
    description: "Where the slice starts in the recording, in milliseconds (added to its lines' offsets)",
  }),
});

/** Documents the raw body (no type: the route's parser hands over the bytes, not a string to validate). */
export const AudioSliceBody = Type.Unsafe<unknown>({
  description: 'About one minute of raw audio (application/octet-stream or audio/*), at most 16 MiB',
});

export const SliceLine = Type.Object({
  seq: Type.Integer({ minimum: 1, description: 'The line number in the meeting' }),
  speaker: Type.String({
    description: '"Speaker 1", "Speaker 2", ... from the fast provider with speaker numbers; "Speaker" otherwise',
  }),
  text: Type.String(),
  start_ms: Type.Integer({ minimum: 0, description: 'From the start of the recording: start_ms plus the offset' }),
});

export const SliceAnswer = Type.Object({
  evidence_id: Uuid,
  index: Type.Integer({ minimum: 0 }),
  start_ms: Type.Integer({ minimum: 0 }),
  lines: Type.Array(SliceLine, { description: 'The live lines this slice appended (none for silence)' }),
});
export type SliceAnswer = Static<typeof SliceAnswer>;
