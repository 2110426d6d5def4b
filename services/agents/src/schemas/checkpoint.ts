import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';

export const CheckpointInput = Type.Object(
  {
    scan_id: Type.String({ minLength: 1, maxLength: 200, description: 'The scan the position belongs to' }),
    position: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'How far the scan got' }),
    version: Type.Integer({ minimum: 0, description: 'The current version as last read (0 before any write)' }),
  },
  { additionalProperties: false },
);
export type CheckpointInput = Static<typeof CheckpointInput>;

export const Checkpoint = Type.Object({
  agent_id: Uuid,
  scan_id: Type.Union([Type.String(), Type.Null()], { description: 'null before any write' }),
  position: Type.Union([Type.Integer(), Type.Null()]),
  version: Type.Integer({ description: 'How many writes the checkpoint has had: 0 before any' }),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});
export type Checkpoint = Static<typeof Checkpoint>;
