import { AppError, conflict, forbidden, notFound, unprocessable } from '@platform/kit';
import { nyDate } from './checkin-schedule.ts';
import { trimmedText } from './text.ts';

/**
 * Handoff rules (spec 2, Handoff; States and transitions, Handoff): a package a sender offers to
 * one receiver, its states and who moves it, revisions and receipts, and the computed overdue flag.
 */

export const HANDOFF_STATUSES = ['draft', 'offered', 'changes_requested', 'accepted', 'cancelled'] as const;
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

/** Overdue is computed only while the handoff waits on someone: offered or changes requested. */
export const OVERDUE_STATUSES: readonly HandoffStatus[] = ['offered', 'changes_requested'];
/** Before acceptance: what the sender may still cancel. */
export const CANCELLABLE_STATUSES: readonly HandoffStatus[] = ['draft', 'offered', 'changes_requested'];
/** What the sender may offer: a draft, or a package the receiver asked changes on (offered again as it is). */
export const OFFERABLE_STATUSES: readonly HandoffStatus[] = ['draft', 'changes_requested'];

export const HANDOFF_ACTIONS = ['offer', 'accept', 'request_changes', 'cancel'] as const;
export type HandoffAction = (typeof HANDOFF_ACTIONS)[number];

export const HANDOFF_LIMITS = {
  title: 200,
  nextStep: 4_000,
  statement: 500,
  statements: 20,
  link: 2_000,
  links: 20,
  missing: 4_000,
};
/** Handoff lists: page mode, 50 by default, at most 200 (more is 422). */
export const HANDOFF_PAGE = { pageSize: 50, maxPageSize: 200 };

/** The content of one revision: what the receiver accepts. */
export interface HandoffPackage {
  receiver: string;
  title: string;
  next_step: string;
  must_stay_true: string[];
  evidence_links: string[];
  verify_by: string | null;
  due_on: string;
  case_id: string | null;
}
export const PACKAGE_FIELDS = [
  'receiver',
  'title',
  'next_step',
  'must_stay_true',
  'evidence_links',
  'verify_by',
  'due_on',
  'case_id',
] as const satisfies readonly (keyof HandoffPackage)[];

export interface HandoffRecord extends HandoffPackage {
  id: string;
  project_id: string;
  sender: string;
  status: HandoffStatus;
  revision: number;
  offered_at: Date | null;
  accepted_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const handoffNotFound = () => notFound('Handoff', 'handoff_not_found');

/** Overdue: offered or changes requested, and the due date is before today in New York. */
export const isOverdue = (h: Pick<HandoffRecord, 'status' | 'due_on'>, now: Date): boolean =>
  OVERDUE_STATUSES.includes(h.status) && h.due_on < nyDate(now);

const text = (raw: string, max: number, what: string, field: string) =>
  trimmedText(raw, { max, code: 'invalid_handoff_text', what, field });

/** The package's texts as stored: trimmed, each within its limit (422 invalid_handoff_text naming the field). */
export function handoffTexts(input: {
  title?: string;
  next_step?: string;
  must_stay_true?: string[];
  evidence_links?: string[];
}): Partial<Pick<HandoffPackage, 'title' | 'next_step' | 'must_stay_true' | 'evidence_links'>> {
  const out: Partial<HandoffPackage> = {};
  if (input.title !== undefined) out.title = text(input.title, HANDOFF_LIMITS.title, 'The title', 'data/title');
  if (input.next_step !== undefined)
    out.next_step = text(input.next_step, HANDOFF_LIMITS.nextStep, 'The next step', 'data/next_step');
  if (input.must_stay_true !== undefined)
    out.must_stay_true = input.must_stay_true.map((s, i) =>
      text(s, HANDOFF_LIMITS.statement, 'Each statement of what must stay true', `data/must_stay_true/${i}`),
    );
  if (input.evidence_links !== undefined) out.evidence_links = input.evidence_links.map((l) => l.trim());
  return out;
}

/** What the receiver says is missing: trimmed, 1 to 4,000 characters (422 validation_failed when absent). */
export function missingText(raw: string | undefined): string {
  if (raw === undefined) throw unprocessable('validation_failed', 'request_changes needs data.missing', 'data/missing');
  return text(raw, HANDOFF_LIMITS.missing, 'What is missing', 'data/missing');
}

/** accept and request_changes name the revision read (422 validation_failed when absent). */
export function requiredRevision(raw: number | undefined, action: string): number {
  if (raw === undefined) throw unprocessable('validation_failed', `${action} needs data.revision`, 'data/revision');
  return raw;
}

/** The receiver must be a project member other than the sender (422 receiver_not_member, receiver_is_sender). */
export function requireReceiver(receiver: string, sender: string, isMember: boolean): void {
  if (receiver === sender) {
    throw unprocessable('receiver_is_sender', 'A handoff goes to someone other than its sender', 'data/receiver');
  }
  if (!isMember) {
    throw unprocessable('receiver_not_member', 'The receiver must be a member of the project', 'data/receiver');
  }
}

/** A linked case must be a case of the same project (422 linked_case_not_found). */
export function requireLinkedCase(found: boolean): void {
  if (!found) {
    throw unprocessable('linked_case_not_found', 'case_id names no case of this project', 'data/case_id');
  }
}

/** Edits, offers: the sender alone (403 not_sender). */
export function requireSender(h: HandoffRecord, principalId: string, what: string): void {
  if (h.sender !== principalId) throw forbidden(`Only the handoff's sender may ${what}`, 'not_sender');
}

/** Acceptance and "something is missing": the named receiver alone (403 not_receiver). */
export function requireNamedReceiver(h: HandoffRecord, principalId: string, what: string): void {
  if (h.receiver !== principalId) throw forbidden(`Only the handoff's named receiver may ${what}`, 'not_receiver');
}

/** Cancelling: the sender, or a project owner tidying up (403 not_sender for anyone else). */
export function requireCanceller(h: HandoffRecord, principalId: string, isOwner: boolean): void {
  if (h.sender !== principalId && !isOwner) {
    throw forbidden("Only the handoff's sender or a project owner may cancel it", 'not_sender');
  }
}

const transitionRefused = (h: HandoffRecord, what: string) =>
  conflict('invalid_handoff_transition', `A handoff that is ${h.status.replace('_', ' ')} cannot be ${what}`);

/** Offer: from draft, or from changes requested (the package offered again as it is). */
export function requireOfferable(h: HandoffRecord): void {
  if (!OFFERABLE_STATUSES.includes(h.status)) throw transitionRefused(h, 'offered');
}

/**
 * Acceptance and changes requests name the revision the receiver read: another one is 409
 * stale_revision with the handoff as it is now in errors[0].value; then the handoff must be offered.
 */
export function requireCurrentOffer(h: HandoffRecord, revision: number, current: unknown, what: string): void {
  if (revision !== h.revision) {
    const message = `Revision ${revision} is not the current revision (${h.revision}); read the handoff again`;
    throw new AppError(409, 'stale_revision', message, [{ code: 'stale_revision', message, value: current }]);
  }
  if (h.status !== 'offered') throw transitionRefused(h, what);
}

/** Cancel: only before acceptance (409 invalid_handoff_transition once accepted or already cancelled). */
export function requireCancellable(h: HandoffRecord): void {
  if (!CANCELLABLE_STATUSES.includes(h.status)) throw transitionRefused(h, 'cancelled');
}

/** What a sender's edit does. */
export interface HandoffEditPlan {
  changes: Partial<HandoffPackage>;
  changedFields: (keyof HandoffPackage)[];
  /** A new revision (in draft) when the current one was offered; a draft changes in place. */
  newRevision: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A sender's edit: only the fields sent, and only those that differ, change. A cancelled handoff is
 * not edited (409). A draft changes in place; a handoff that was offered (offered, changes requested
 * or accepted) becomes a draft of a new revision, so an earlier receipt keeps what was accepted.
 */
export function planHandoffEdit(h: HandoffRecord, sent: Partial<HandoffPackage>): HandoffEditPlan {
  if (h.status === 'cancelled') throw transitionRefused(h, 'edited');
  const changes: Partial<HandoffPackage> = {};
  const changedFields: (keyof HandoffPackage)[] = [];
  for (const f of PACKAGE_FIELDS) {
    const v = sent[f];
    if (v === undefined || same(v, h[f])) continue;
    (changes as Record<string, unknown>)[f] = v;
    changedFields.push(f);
  }
  return { changes, changedFields, newRevision: changedFields.length > 0 && h.status !== 'draft' };
}

/** The package of the handoff's current revision (what a receipt keeps). */
export const packageOf = (h: HandoffRecord): HandoffPackage => ({
  receiver: h.receiver,
  title: h.title,
  next_step: h.next_step,
  must_stay_true: h.must_stay_true,
  evidence_links: h.evidence_links,
  verify_by: h.verify_by,
  due_on: h.due_on,
  case_id: h.case_id,
});
