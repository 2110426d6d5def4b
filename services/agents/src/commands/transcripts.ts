import { uuidv7 } from '@platform/kit';
import type { Review, ReviewInput } from '../schemas/transcripts.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { type ReviewRow, recordReview } from '../store/transcripts.ts';
import type { CommandCtx } from './context.ts';

export const reviewView = (r: ReviewRow): Review => ({
  id: r.id,
  agent_id: r.agent_id,
  record_id: r.record_id,
  source_version: r.source_version,
  sequence: r.sequence,
  meeting_date: r.meeting_date,
  summary: r.summary,
  details: (r.details ?? {}) as Record<string, unknown>,
  created_at: r.created_at.toISOString(),
});

/**
 * POST /v1/agents/{id}/transcript-reviews: idempotent on (agent, record, source version,
 * sequence) whatever the key (AGT-211): a repeat answers the stored review, unchanged.
 */
export async function postReview(ctx: CommandCtx, agentId: string, input: ReviewInput) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  await agentFor(ctx.trx, caller, agentId, 'editor');
  const { review, created } = await recordReview(ctx.trx, {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agentId,
    record_id: input.record_id,
    source_version: input.source_version,
    sequence: input.sequence,
    meeting_date: input.meeting_date,
    summary: input.summary ?? null,
    details: JSON.stringify(input.details ?? {}),
    created_at: ctx.now,
  });
  return { review: reviewView(review), created };
}
