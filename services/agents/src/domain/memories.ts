/** core memories go into every thoughts block; archive ones are recalled when relevant. */
export const MEMORY_TIERS = ['core', 'archive'] as const;
export type MemoryTier = (typeof MEMORY_TIERS)[number];
