import { uuidv7 } from '@platform/kit';
import {
  approvalNotFound,
  callerReviewer,
  requirePendingApproval,
  requireUnanswered,
  reviewerList,
  settlement,
  subjectShape,
} from '../domain/approvals.ts';
import { decisionNotFound } from '../domain/decisions.ts';
import { requirePending, variationNotFound } from '../domain/variations.ts';
import type { Approval, ApprovalInput, ResponseInput } from '../schemas/registers.ts';
import {
  approvalWithReviewers,
  findApproval,
  insertApproval,
  recordResponse,
  reviewersOf,
  settleApproval,
} from '../store/approvals.ts';
import { findDecision } from '../store/decisions.ts';
import { findVariation, updateVariation } from '../store/variations.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Approval commands (spec 3, Registers). A request names reviewers by email (stored lowercased);
 * each named editor answers once as themselves; the last required answer settles the approval
 * and, when it reviews a variation, approves or rejects the variation in the same transaction.
 */

/** The subject a decision or variation approval names must be a record of the same project (404 otherwise). */
async function checkSubject(
  ctx: CommandCtx,
  projectId: string,
  type: ApprovalInput['subject_type'],
  id: string | null,
) {
  if (id === null) return;
  if (type === 'decision') {
    const decision = await findDecision(ctx.trx, id);
    if (!decision || decision.project_id !== projectId) throw decisionNotFound();
  }
  if (type === 'variation') {
    const variation = await findVariation(ctx.trx, id, { lock: true });
    if (!variation || variation.project_id !== projectId) throw variationNotFound();
    // A variation is reviewed while it is submitted for approval (409 variation_not_pending).
    requirePending(variation);
  }
}

/** Requests review of a stage gate, a decision, a budget or a variation (CON-147..CON-150). */
export async function requestApproval(ctx: CommandCtx, input: ApprovalInput): Promise<Approval> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, input.project_id);
  const subject = subjectShape(input);
  const reviewers = reviewerList(input.reviewers);
  await checkSubject(ctx, project.id, input.subject_type, subject.subject_id);
  const approval = await insertApproval(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      subject_type: input.subject_type,
      ...subject,
      title: input.title?.trim() ?? '',
      requested_by: principal.id,
    },
    reviewers,
    now,
  );
  await ctx.emit({
    type: 'approval.requested',
    data: {
      approval_id: approval.id,
      project_id: project.id,
      subject_type: input.subject_type,
      ...subject,
      reviewers: reviewers.length,
      actor_fid: principal.id,
    },
  });
  return approval;
}

/**
 * The caller answers as their own reviewer row (matched by lowercased email; not named: 403).
 * A settled approval is 409 already_decided, a second answer 409 already_answered; an approval of
 * a variation that is no longer submitted is 409 variation_not_pending. The approval row is locked
 * FOR UPDATE, so of two last answers arriving together the second sees the first and the
 * variation moves once.
 */
export async function respondToApproval(ctx: CommandCtx, id: string, input: ResponseInput): Promise<Approval> {
  const { trx, principal, now } = ctx;
  const found = await findApproval(trx, id);
  if (!found) throw approvalNotFound();
  await projectForWrite(ctx, found.project_id);
  const approval = await findApproval(trx, id, { lock: true });
  if (!approval) throw approvalNotFound();
  const reviewers = await reviewersOf(trx, id);
  const mine = callerReviewer(reviewers, principal.email);
  requirePendingApproval(approval);
  requireUnanswered(mine);
  const variation =
    approval.subject_type === 'variation' && approval.subject_id
      ? await findVariation(trx, approval.subject_id, { lock: true })
      : undefined;
  if (variation) requirePending(variation);

  await recordResponse(
    trx,
    id,
    mine.email,
    { response: input.response, note: input.note ?? null, responded_by: principal.id },
    now,
  );
  await ctx.emit({
    type: 'approval.answered',
    data: {
      approval_id: id,
      project_id: approval.project_id,
      response: input.response,
      required: mine.required,
      actor_fid: principal.id,
    },
  });

  const status = settlement(reviewers.map((r) => (r.email === mine.email ? { ...r, response: input.response } : r)));
  if (status !== 'pending') {
    await settleApproval(trx, id, status, now);
    await ctx.emit({
      type: 'approval.settled',
      data: {
        approval_id: id,
        project_id: approval.project_id,
        subject_type: approval.subject_type,
        subject_id: approval.subject_id,
        stage: approval.stage,
        status,
      },
    });
    if (variation) {
      await updateVariation(trx, variation.id, { status }, now);
      await ctx.emit({
        type: status === 'approved' ? 'variation.approved' : 'variation.rejected',
        data: { variation_id: variation.id, project_id: variation.project_id, approval_id: id },
      });
    }
  }
  const answered = await approvalWithReviewers(trx, id);
  if (!answered) throw approvalNotFound();
  return answered;
}
