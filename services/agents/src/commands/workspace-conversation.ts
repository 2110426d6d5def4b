import { agentFor, resolveCaller } from '../store/access.ts';
import { setWorkspaceConversation } from '../store/thoughts.ts';
import type { CommandCtx } from './context.ts';

/**
 * POST /v1/agents/{id}/workspace-conversation: the conversation the harness opened (AGT-049,
 * AGT-220). A later one replaces it (a restarted harness opens another). The answer carries the
 * agent's contributes_to_knowledge, which the harness copies to that conversation (AGT-047).
 */
export async function recordWorkspaceConversation(ctx: CommandCtx, agentId: string, conversationId: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  await agentFor(ctx.trx, caller, agentId, 'editor', { lock: true });
  const row = await setWorkspaceConversation(ctx.trx, agentId, conversationId);
  return {
    agent_id: row.id,
    workspace_conversation_id: conversationId,
    contributes_to_knowledge: row.contributes_to_knowledge,
  };
}
