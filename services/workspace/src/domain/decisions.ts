import { conflict, notFound, unprocessable } from '@platform/kit';
import { trimmedText } from './text.ts';

/**
 * Decisions (spec 2, Projects and tasks: "decision title is 1 to 200 characters"): proposed by an
 * editor, approved by an owner (docs/decisions.md, workspace "Decisions and data sources").
 */
export const DECISION_STATUSES = ['proposed', 'approved', 'superseded', 'archived'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export const DECISION_TITLE_MAX = 200;
export const DECISION_DETAIL_MAX = 20_000;
/** GET .../decisions pages: 50 by default, 200 at most (more is 422). */
export const DECISION_PAGE = { pageSize: 50, maxPageSize: 200 };

export const decisionNotFound = () => notFound('Decision', 'decision_not_found');

/** Trimmed; 1 to 200 characters, else 422 invalid_title naming the limit. */
export const decisionTitle = (raw: string): string =>
  trimmedText(raw, { max: DECISION_TITLE_MAX, code: 'invalid_title', what: 'The decision title', field: 'data/title' });

/** Trimmed; at most 20,000 characters (empty is none), else 422 invalid_detail. */
export function decisionDetail(raw: string | undefined): string {
  const detail = (raw ?? '').trim();
  if (detail.length > DECISION_DETAIL_MAX) {
    throw unprocessable(
      'invalid_detail',
      `The decision detail must be at most ${DECISION_DETAIL_MAX} characters after trimming`,
      'data/detail',
    );
  }
  return detail;
}

/** Only a proposed decision is approved; approving an approved one is 409 decision_already_approved. */
export function requireProposed(status: string): void {
  requireOpen(status);
  if (status !== 'proposed') {
    throw conflict('decision_already_approved', 'The decision is already approved');
  }
}

/** A superseded or archived decision no longer changes: 409 decision_closed. */
export function requireOpen(status: string): void {
  if (status === 'superseded' || status === 'archived') {
    throw conflict('decision_closed', `The decision is ${status}: it no longer changes`);
  }
}

/** What a decision is as a fact (fact.* events' kind). */
export const FACT_KIND = 'decision';
