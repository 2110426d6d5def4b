import { agentNotFound, requireRole, roleOf } from '../domain/access.ts';
import { storedMessage } from '../domain/logs.ts';
import type { LogInput, LogLine } from '../schemas/logs.ts';
import { resolveCaller } from '../store/access.ts';
import { writeLog } from '../store/logs.ts';
import type { CommandCtx } from './context.ts';

/**
 * POST /v1/agents/{id}/logs: one line, and the agent's heartbeat (AGT-025). Needs editor (the
 * service token has it: AGT-315, AGT-317). No event: heartbeats every few seconds would flood the
 * outbox and the audit log with nothing a reader acts on.
 */
export async function postLog(ctx: CommandCtx, agentId: string, input: LogInput): Promise<LogLine> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const message = storedMessage(input.kind, input.message, input.tool);
  // The service token alone is an editor of every agent (AGT-317): no role to look up.
  const access = caller.service ? null : { fid: caller.fid };
  const written = await writeLog(ctx.trx, agentId, access, { kind: input.kind, message, at: ctx.now });
  if (!written) throw agentNotFound();
  if (access) {
    const role = written.owner_fid === null ? null : roleOf(caller, written.owner_fid, written.member_role);
    requireRole({ role, admin: caller.admin }, 'editor', 'write');
  }
  return { id: Number(written.id), kind: input.kind, message, created_at: written.created_at.toISOString() };
}
