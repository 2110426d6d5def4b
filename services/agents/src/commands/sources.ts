import { uuidv7 } from '@platform/kit';
import { uuidsIn } from '../domain/records.ts';
import { citedRows } from '../domain/sources.ts';
import type { Action, ActionSourcesInput } from '../schemas/sources.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { insertAction } from '../store/sources.ts';
import type { CommandCtx } from './context.ts';

/**
 * POST /v1/agents/{id}/action-sources: one action and the ids it cited (AGT-221..AGT-225). The
 * message itself is not stored (bodies stay with the channel that sent them): only its UUIDs.
 */
export async function postActionSources(ctx: CommandCtx, agentId: string, input: ActionSourcesInput): Promise<Action> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  await agentFor(ctx.trx, caller, agentId, 'editor');
  const rows = citedRows(input.sources ?? [], uuidsIn(input.message), input.read_ids ?? []);
  const action = {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agentId,
    action: input.action,
    run_id: input.run_id ?? null,
    created_at: ctx.now,
  };
  await insertAction(ctx.trx, action, rows);
  return { ...action, created_at: ctx.now.toISOString(), sources: rows };
}
