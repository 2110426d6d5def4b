import { Timestamp, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { Checkpoint } from './checkpoint.ts';
import { Memory } from './memories.ts';

export const RecentRun = Type.Object({
  id: Uuid,
  reason: Type.String(),
  outcome: Type.String(),
  started_at: Timestamp,
  finished_at: Timestamp,
  summary: Type.Union([Type.String(), Type.Null()]),
});

export const Thoughts = Type.Object({
  agent_id: Uuid,
  block: Type.String({ description: 'The sections below as one text, ready for the next cycle’s prompt' }),
  memory_model: Type.String({
    description:
      'The model the cycle’s memory work (consolidation, recall) runs on: memory_model, or the agent’s own model when it is auto',
  }),
  core: Type.Array(Memory, { description: 'Every pinned (core) memory, newest first (up to 50)' }),
  recent: Type.Array(Memory, { description: 'The 10 archive memories most recently recalled or written' }),
  checkpoint: Checkpoint,
  runs: Type.Array(RecentRun, { description: 'The last 5 runs, newest first' }),
});

export const WorkspaceConversationInput = Type.Object(
  {
    conversation_id: Type.String({ minLength: 1, maxLength: 200, description: 'The conversation the harness opened' }),
  },
  { additionalProperties: false },
);

export const WorkspaceConversation = Type.Object({
  agent_id: Uuid,
  workspace_conversation_id: Type.String(),
  contributes_to_knowledge: Type.Boolean({
    description: 'The agent’s setting, which the harness copies to the conversation it opened (AGT-047)',
  }),
});
