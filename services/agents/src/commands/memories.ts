import { notFound, unprocessable, uuidv7 } from '@platform/kit';
import type { MemoryTier } from '../domain/memories.ts';
import { serviceTokenRefused, viaServiceToken } from '../domain/records.ts';
import type { ConsolidateInput, Memory, MemoryInput } from '../schemas/memories.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import {
  deleteMemories,
  deleteMemory,
  insertMemory,
  lockMemories,
  type MemoryRow,
  purgeMemories,
  setTier,
  touchMemories,
} from '../store/memories.ts';
import { actorOf } from './agents.ts';
import type { CommandCtx } from './context.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const memoryView = (r: MemoryRow): Memory => ({
  id: r.id,
  agent_id: r.agent_id,
  content: r.content,
  tier: r.tier as MemoryTier,
  source: r.source as Memory['source'],
  created_by: r.created_by,
  recall_count: r.recall_count,
  last_recalled_at: iso(r.last_recalled_at),
  merged_count: r.merged_count,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const memoryNotFound = () => notFound('Memory', 'memory_not_found');

/** The agent for a memory write by an editor; `person` also refuses shared service tokens (AGT-208). */
async function editorOf(ctx: CommandCtx, agentId: string, person: boolean) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  await agentFor(ctx.trx, caller, agentId, 'editor');
  if (person && viaServiceToken(caller)) throw serviceTokenRefused();
  return caller;
}

/**
 * POST /v1/agents/{id}/memories. The harness (a shared service token) writes the agent's own
 * memory: source agent, tier archive whatever it sends (AGT-201). A person with the editor role
 * writes source person, tier core unless they send archive (AGT-202).
 */
export async function rememberMemory(ctx: CommandCtx, agentId: string, input: MemoryInput): Promise<Memory> {
  const caller = await editorOf(ctx, agentId, false);
  const harness = viaServiceToken(caller);
  const row = await insertMemory(ctx.trx, {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agentId,
    content: input.content,
    tier: harness ? 'archive' : (input.tier ?? 'core'),
    source: harness ? 'agent' : 'person',
    created_by: actorOf(caller),
    created_at: ctx.now,
    updated_at: ctx.now,
  });
  return memoryView(row);
}

/** DELETE /v1/agents/{id}/memories: every memory of the agent (AGT-203, AGT-204). */
export async function purgeAll(ctx: CommandCtx, agentId: string) {
  await editorOf(ctx, agentId, true);
  return { agent_id: agentId, deleted: await purgeMemories(ctx.trx, agentId) };
}

/** PATCH /v1/agents/{id}/memories/{memoryId}: pin (core) or demote (archive) (AGT-205). */
export async function retier(ctx: CommandCtx, agentId: string, memoryId: string, tier: MemoryTier) {
  await editorOf(ctx, agentId, true);
  const row = await setTier(ctx.trx, agentId, memoryId, tier, ctx.now);
  if (!row) throw memoryNotFound();
  return memoryView(row);
}

/** DELETE /v1/agents/{id}/memories/{memoryId} (AGT-206). */
export async function dropMemory(ctx: CommandCtx, agentId: string, memoryId: string) {
  await editorOf(ctx, agentId, true);
  if (!(await deleteMemory(ctx.trx, agentId, memoryId))) throw memoryNotFound();
  return { agent_id: agentId, id: memoryId, deleted: true };
}

/**
 * POST /v1/agents/{id}/memories/consolidate: one memory replaces several (AGT-209). Every id of
 * merge must be the agent's (else 422 unknown_memory, nothing changed); the new memory is core
 * when any merged one was (a pin survives its consolidation), else archive; its recall count is
 * the sum of theirs and its source is that of the caller, as on a POST.
 */
export async function consolidate(ctx: CommandCtx, agentId: string, input: ConsolidateInput) {
  const caller = await editorOf(ctx, agentId, false);
  const merged = await lockMemories(ctx.trx, agentId, input.merge);
  if (merged.length !== input.merge.length) {
    const held = new Set(merged.map((m) => m.id));
    const missing = input.merge.find((id) => !held.has(id));
    throw unprocessable('unknown_memory', `Memory ${missing} is not one of this agent’s memories`, 'data/merge');
  }
  await deleteMemories(ctx.trx, agentId, input.merge);
  const harness = viaServiceToken(caller);
  const recalled = merged.flatMap((m) => (m.last_recalled_at ? [m.last_recalled_at.getTime()] : []));
  const row = await insertMemory(ctx.trx, {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agentId,
    content: input.content,
    tier: merged.some((m) => m.tier === 'core') ? 'core' : 'archive',
    source: harness ? 'agent' : 'person',
    created_by: actorOf(caller),
    merged_count: merged.length,
    recall_count: merged.reduce((n, m) => n + m.recall_count, 0),
    last_recalled_at: recalled.length ? new Date(Math.max(...recalled)) : null,
    created_at: ctx.now,
    updated_at: ctx.now,
  });
  return { memory: memoryView(row), replaced: input.merge };
}

/** POST /v1/agents/{id}/memories/touch: recall marks (AGT-210); ids the agent no longer holds are skipped. */
export async function touch(ctx: CommandCtx, agentId: string, ids: string[]) {
  await editorOf(ctx, agentId, false);
  const touched = await touchMemories(ctx.trx, agentId, ids, ctx.now);
  return { agent_id: agentId, touched: touched.length, ids: touched };
}
