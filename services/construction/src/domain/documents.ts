import { conflict, notFound, unprocessable } from '@platform/kit';

/**
 * Document control's rules (spec 3, "Document control"), pure: the revisions' state table, their
 * lettering, what publishing takes, and where files may go.
 */

export const REVISION_STATES = [
  'draft',
  'internal_review',
  'reviewed',
  'pending_approval',
  'approved',
  'rejected',
  'published',
] as const;
export type RevisionState = (typeof REVISION_STATES)[number];

export const REVISION_ACTIONS = ['prepared', 'reviewed', 'submitted_for_approval', 'approved', 'rejected'] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

/**
 * The state table: each action from the states that take it, and where it leads. A rejected
 * revision may be prepared again (back into internal review); approved waits for publishing;
 * published is final. Anything else is 409 invalid_transition.
 */
export const REVISION_MOVES: Record<RevisionAction, { from: readonly RevisionState[]; to: RevisionState }> = {
  prepared: { from: ['draft', 'rejected'], to: 'internal_review' },
  reviewed: { from: ['internal_review'], to: 'reviewed' },
  submitted_for_approval: { from: ['reviewed'], to: 'pending_approval' },
  approved: { from: ['pending_approval'], to: 'approved' },
  rejected: { from: ['pending_approval'], to: 'rejected' },
};

/** The state an action leads to from `state`, or 409 invalid_transition. */
export function nextRevisionState(state: string, action: RevisionAction): RevisionState {
  const move = REVISION_MOVES[action];
  if (!move.from.includes(state as RevisionState)) {
    throw conflict('invalid_transition', `A revision in ${state} does not take ${action}`);
  }
  return move.to;
}

/** Files go only on a draft or internal-review revision (409 revision_locked). */
export const FILE_STATES: readonly RevisionState[] = ['draft', 'internal_review'];
export function requireRevisionOpenForFiles(state: string) {
  if (!FILE_STATES.includes(state as RevisionState)) {
    throw conflict('revision_locked', `Files go only on a draft or internal-review revision; this one is ${state}`);
  }
}

/** A, B, ..., Z, AA, AB, ...: the n-th letter sequence (n from 0). */
export function letterAt(n: number): string {
  let s = '';
  let i = n;
  do {
    s = String.fromCharCode(65 + (i % 26)) + s;
    i = Math.floor(i / 26) - 1;
  } while (i >= 0);
  return s;
}

/**
 * The letter of a new internal revision: the current published number followed by the next
 * letter among revisions started on that number (after published 2: 2A, 2B, ...; before any
 * publication: A, B, ...). Letters are unique per document.
 */
export function nextLetter(publishedNumber: number | null, startedOnThatNumber: number): string {
  return `${publishedNumber ?? ''}${letterAt(startedOnThatNumber)}`;
}

/** Publishing: only approved (409 revision_not_approved); out of date when another was published since it started. */
export function requirePublishable(
  revision: { state: string; based_on_number: number | null },
  currentNumber: number | null,
) {
  if (revision.state !== 'approved') {
    throw conflict('revision_not_approved', `Only an approved revision is published; this one is ${revision.state}`);
  }
  if ((revision.based_on_number ?? null) !== (currentNumber ?? null)) {
    throw conflict(
      'revision_out_of_date',
      `Revision ${currentNumber} was published since this revision started on ${revision.based_on_number ?? 'none'}`,
    );
  }
}

/** The project a variation drafted at publication is for: the document's one project link (else 422). */
export function variationProject(projectIds: readonly string[]): string {
  if (projectIds.length !== 1) {
    throw unprocessable(
      'validation_failed',
      projectIds.length === 0
        ? 'Drafting a variation takes a document linked to a project; this one has no project link'
        : 'Drafting a variation takes a document linked to one project; this one is linked to several',
      'data/draft_variation',
    );
  }
  return projectIds[0];
}

export const documentNotFound = () => notFound('Document', 'document_not_found');
export const revisionNotFound = () => notFound('Document revision', 'revision_not_found');
export const linkNotFound = () => notFound('Link', 'link_not_found');
export const attachmentNotFound = () => notFound('Attachment', 'attachment_not_found');

export const LINK_TARGETS = ['project', 'stage', 'task', 'milestone', 'firm'] as const;
export type LinkTarget = (typeof LINK_TARGETS)[number];
export const ATTACHMENT_RECORDS = ['task', 'document_revision'] as const;
export type AttachmentRecord = (typeof ATTACHMENT_RECORDS)[number];

export const DOCUMENT_PAGE = { pageSize: 50, maxPageSize: 200 };
