import { conflict, forbidden, notFound, unprocessable } from '@platform/kit';

/**
 * Approvals (spec 3, Registers): a review of a stage gate, a decision, a budget or a variation by
 * reviewers named by lowercased email. Each reviewer answers once, as themselves; the approval
 * settles when the last required reviewer answers: approved when every required reviewer
 * approved, rejected when any of them rejected. Optional reviewers' answers are recorded and never
 * settle it. A settled approval takes no answer.
 */
export const SUBJECT_TYPES = ['stage_gate', 'decision', 'budget', 'variation'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ResponseValue = 'approved' | 'rejected';

export const approvalNotFound = () => notFound('Approval', 'approval_not_found');

export interface ReviewerInput {
  email: string;
  required: boolean;
}

/**
 * Reviewers stored lowercased (CON-150), each once: an email named twice (in any case) is one
 * reviewer, required when any mention is. At least one must be required (422
 * required_reviewer_missing, CON-149).
 */
export function reviewerList(reviewers: readonly ReviewerInput[]): ReviewerInput[] {
  const byEmail = new Map<string, ReviewerInput>();
  for (const r of reviewers) {
    const email = r.email.trim().toLowerCase();
    const seen = byEmail.get(email);
    byEmail.set(email, { email, required: r.required || (seen?.required ?? false) });
  }
  const list = [...byEmail.values()];
  if (!list.some((r) => r.required)) {
    throw unprocessable('required_reviewer_missing', 'An approval needs at least one required reviewer', 'reviewers');
  }
  return list;
}

/** What a subject type needs: a stage gate names its stage; a decision or variation its record; a budget neither. */
export function subjectShape(input: { subject_type: SubjectType; subject_id?: string; stage?: string }) {
  const { subject_type, subject_id, stage } = input;
  if (subject_type === 'stage_gate') {
    if (!stage) throw unprocessable('validation_failed', 'A stage_gate approval names its stage', 'stage');
    if (subject_id) throw unprocessable('validation_failed', 'A stage_gate approval takes no subject_id', 'subject_id');
    return { subject_id: null, stage };
  }
  if (stage) throw unprocessable('validation_failed', 'Only a stage_gate approval names a stage', 'stage');
  if (subject_type === 'budget') {
    if (subject_id)
      throw unprocessable(
        'validation_failed',
        "A budget approval reviews the project's budget: no subject_id",
        'subject_id',
      );
    return { subject_id: null, stage: null };
  }
  if (!subject_id)
    throw unprocessable('validation_failed', `A ${subject_type} approval names its subject_id`, 'subject_id');
  return { subject_id, stage: null };
}

/** A settled approval takes no answer (409 already_decided). */
export function requirePendingApproval(a: { status: string }) {
  if (a.status !== 'pending') throw conflict('already_decided', `The approval is already ${a.status}`);
}

/** The caller's reviewer row, matched by lowercased email (CON-154, CON-155): 403 when not named. */
export function callerReviewer<R extends { email: string }>(reviewers: readonly R[], callerEmail: string | undefined) {
  const email = callerEmail?.trim().toLowerCase();
  const mine = email ? reviewers.find((r) => r.email === email) : undefined;
  if (!mine) throw forbidden('The caller is not named as a reviewer on this approval');
  return mine;
}

/** A reviewer answers once (409 already_answered). */
export function requireUnanswered(r: { response: string | null }) {
  if (r.response !== null) throw conflict('already_answered', `The reviewer already answered: ${r.response}`);
}

/**
 * Where the answers leave the approval: pending while a required reviewer has not answered;
 * then rejected when any required reviewer rejected, else approved.
 */
export function settlement(reviewers: readonly { required: boolean; response: string | null }[]): ApprovalStatus {
  const required = reviewers.filter((r) => r.required);
  if (required.some((r) => r.response === null)) return 'pending';
  return required.some((r) => r.response === 'rejected') ? 'rejected' : 'approved';
}
