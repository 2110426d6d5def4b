import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { MEMORY_TIERS } from '../domain/memories.ts';
import { Enum } from './common.ts';

const Content = Type.String({ minLength: 1, maxLength: 20_000 });

export const MemoryInput = Type.Object(
  {
    content: Content,
    tier: Type.Optional(
      Enum(MEMORY_TIERS, 'A person’s memory: core (default) or archive. The harness’s memories are always archive'),
    ),
  },
  { additionalProperties: false },
);
export type MemoryInput = Static<typeof MemoryInput>;

export const MemoryTierInput = Type.Object(
  { tier: Enum(MEMORY_TIERS, 'core pins the memory into every thoughts block; archive demotes it') },
  { additionalProperties: false },
);

export const ConsolidateInput = Type.Object(
  {
    merge: Type.Array(Uuid, {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'The memories the new one replaces (all of this agent)',
    }),
    content: Content,
  },
  { additionalProperties: false },
);
export type ConsolidateInput = Static<typeof ConsolidateInput>;

export const TouchInput = Type.Object(
  { ids: Type.Array(Uuid, { minItems: 1, maxItems: 200, uniqueItems: true }) },
  { additionalProperties: false },
);

export const Memory = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  content: Type.String(),
  tier: Enum(MEMORY_TIERS),
  source: Enum(['agent', 'person'] as const, 'agent: the harness wrote it; person: someone with the editor role'),
  created_by: Type.String({ description: 'A FID, or agent:<id> / service:<name> for the harness' }),
  recall_count: Type.Integer(),
  last_recalled_at: Type.Union([Timestamp, Type.Null()]),
  merged_count: Type.Integer({ description: 'How many memories a consolidation merged into this one' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Memory = Static<typeof Memory>;

export const MemoryParams = Type.Object({ id: Uuid, memoryId: Uuid });

export const MemoryQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Words the content contains (each, any case)' }),
    ),
    tier: Type.Optional(Enum(MEMORY_TIERS)),
    'pagination[page]': Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
    'pagination[pageSize]': Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type MemoryQuery = Static<typeof MemoryQuery>;

export const Purged = Type.Object({ agent_id: Uuid, deleted: Type.Integer() });
export const Touched = Type.Object({ agent_id: Uuid, touched: Type.Integer(), ids: Type.Array(Uuid) });
export const Consolidated = Type.Object({ memory: Memory, replaced: Type.Array(Uuid) });
