import { conflict } from '@platform/kit';
import type { Checkpoint, CheckpointInput } from '../schemas/checkpoint.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { advanceCheckpoint, type CheckpointRow, readCheckpoint } from '../store/checkpoint.ts';
import type { CommandCtx } from './context.ts';

export const checkpointView = (agentId: string, r: CheckpointRow | undefined): Checkpoint =>
  r
    ? {
        agent_id: agentId,
        scan_id: r.scan_id,
        position: Number(r.position),
        version: r.version,
        updated_at: r.updated_at.toISOString(),
      }
    : { agent_id: agentId, scan_id: null, position: null, version: 0, updated_at: null };

/**
 * POST /v1/agents/{id}/research-checkpoint. `version` must be the current one (AGT-216): an old
 * one is 409 checkpoint_stale (AGT-217); a position before the stored one within the same scan
 * is 409 checkpoint_backward (AGT-218); a new scan_id starts anywhere. The stored version is the
 * sent one + 1. Why a write missed is read after the conditional write found nothing.
 */
export async function writeCheckpoint(ctx: CommandCtx, agentId: string, input: CheckpointInput): Promise<Checkpoint> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  await agentFor(ctx.trx, caller, agentId, 'editor');
  const written = await advanceCheckpoint(ctx.trx, agentId, {
    scan_id: input.scan_id,
    position: input.position,
    expected: input.version,
    at: ctx.now,
  });
  if (written) return checkpointView(agentId, written);
  const current = await readCheckpoint(ctx.trx, agentId);
  const version = current?.version ?? 0;
  if (version !== input.version) {
    throw conflict('checkpoint_stale', `The checkpoint is at version ${version}, not ${input.version}: read it again`);
  }
  throw conflict(
    'checkpoint_backward',
    `Scan ${input.scan_id} is at position ${current?.position}: a checkpoint does not move back within a scan`,
  );
}
