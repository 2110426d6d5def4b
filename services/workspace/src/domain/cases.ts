import { conflict, notFound, unprocessable } from '@platform/kit';
import { trimmedText } from './text.ts';

/**
 * Case rules (spec 2, Case and its states; issue 16): one owner, evidence, a proposed correction,
 * what still needs checking, the five states and the moves between them, the reason a dismissal
 * needs and the method a verification needs, no edits once verified or dismissed, and which
 * stages of amounts a case takes in each state.
 */

export const CASE_STATUSES = ['needs_validation', 'accepted', 'in_progress', 'verified', 'dismissed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Verified and dismissed cases are not edited afterward (and make no further move). */
export const CLOSED_CASE_STATUSES: readonly CaseStatus[] = ['verified', 'dismissed'];
export const isClosedCase = (s: CaseStatus) => CLOSED_CASE_STATUSES.includes(s);

/**
 * The allowed moves (the spec leaves them open; docs/decisions.md): forward one step at a time,
 * or dismissed from any open state. Verified and dismissed are final.
 */
export const CASE_MOVES: Readonly<Record<CaseStatus, readonly CaseStatus[]>> = {
  needs_validation: ['accepted', 'dismissed'],
  accepted: ['in_progress', 'dismissed'],
  in_progress: ['verified', 'dismissed'],
  verified: [],
  dismissed: [],
};

/** What an open case is waiting for: a decision (accept or dismiss), the work, or the check. */
export type CaseNextStep = 'decision' | 'work' | 'check';
export const NEXT_STEP: Readonly<Record<CaseStatus, CaseNextStep | null>> = {
  needs_validation: 'decision',
  accepted: 'work',
  in_progress: 'check',
  verified: null,
  dismissed: null,
};
/** The states of cases that need a decision, the work or the check (GET .../cases?actionable=true). */
export const ACTIONABLE_STATUSES = CASE_STATUSES.filter((s) => NEXT_STEP[s] !== null);

export const AMOUNT_STAGES = ['identified', 'approved', 'posted', 'collected'] as const;
export type AmountStage = (typeof AMOUNT_STAGES)[number];

/**
 * The states in which a case takes an amount of each stage: Approved only once accepted, Posted
 * only once work is in progress, Collected (cash observed afterward) once in progress and after
 * verification. A dismissed case takes none; a verified one only Collected.
 */
export const STAGE_STATES: Readonly<Record<AmountStage, readonly CaseStatus[]>> = {
  identified: ['needs_validation', 'accepted', 'in_progress'],
  approved: ['accepted', 'in_progress'],
  posted: ['in_progress'],
  collected: ['in_progress', 'verified'],
};

export const TITLE_MAX = 200;
export const SUBJECT_MAX = 200;
export const TEXT_MAX = 10_000;
export const EVIDENCE_MAX = 50;
export const EVIDENCE_ENTRY_MAX = 2_000;
export const REASON_MAX = 2_000;
export const RECURRING_MONTHS_MAX = 120;
/** GET .../cases and .../amounts pages: 50 by default, 200 at most (more is 422). */
export const CASE_PAGE = { pageSize: 50, maxPageSize: 200 };

export const caseNotFound = () => notFound('Case', 'case_not_found');

const text = (raw: string, max: number, what: string, field: string) =>
  trimmedText(raw, { max, code: 'invalid_case_field', what, field });

export const caseTitle = (raw: string) => text(raw, TITLE_MAX, 'The case title', 'data/title');
export const caseSubject = (raw: string) => text(raw, SUBJECT_MAX, 'The subject', 'data/subject');
export const proposedCorrection = (raw: string) =>
  text(raw, TEXT_MAX, 'The proposed correction', 'data/proposed_correction');

/** What still needs checking: trimmed; empty means nothing left to check; at most 10,000 characters. */
export function stillToCheck(raw: string): string {
  const t = raw.trim();
  if (t.length > TEXT_MAX) {
    throw unprocessable(
      'invalid_case_field',
      `What still needs checking must be at most ${TEXT_MAX} characters after trimming (it has ${t.length})`,
      'data/still_to_check',
    );
  }
  return t;
}

/** Evidence entries: each trimmed, 1 to 2,000 characters; at most 50 (the schema holds the count). */
export const evidenceEntries = (raw: readonly string[]): string[] =>
  raw.map((e, i) => text(e, EVIDENCE_ENTRY_MAX, `Evidence entry ${i}`, `data/evidence/${i}`));

/**
 * The comparison form of a subject: trimmed, inner whitespace collapsed to one space, lower case.
 * Two cases whose subjects compare equal name the same subject.
 */
export const subjectKey = (subject: string) => subject.trim().replace(/\s+/g, ' ').toLowerCase();

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code the runtime knows (USD, EUR, ...); anything else is 422 unknown_currency. */
export function requireCurrency(code: string, field: string): string {
  if (!CURRENCIES.has(code)) {
    throw unprocessable('unknown_currency', `${code} is not an ISO 4217 currency code`, field);
  }
  return code;
}

/** The case's owner must be a member of the project (any role), else 422 case_owner_not_member. */
export function requireOwnerMember(isMember: boolean): void {
  if (!isMember)
    throw unprocessable('case_owner_not_member', 'The case owner must be a member of the project', 'data/owner');
}

/** Expected value as stored: minor units of one currency, a one-off part and a monthly recurring part. */
export interface ExpectedValue {
  currency: string;
  one_off: number;
  recurring_monthly: number;
  recurring_months: number;
}

/** The expected value as sent (parts default to 0), checked: a monthly amount needs 1 to 120 months. */
export function expectedValue(input: {
  currency: string;
  one_off?: number;
  recurring_monthly?: number;
  recurring_months?: number;
}): ExpectedValue {
  const v = {
    currency: requireCurrency(input.currency, 'data/expected_value/currency'),
    one_off: input.one_off ?? 0,
    recurring_monthly: input.recurring_monthly ?? 0,
    recurring_months: input.recurring_months ?? 0,
  };
  if (v.recurring_monthly > 0 !== v.recurring_months > 0) {
    throw unprocessable(
      'invalid_expected_value',
      'A recurring projection needs both recurring_monthly and recurring_months (1 to 120), or neither',
      'data/expected_value',
    );
  }
  if (!Number.isSafeInteger(v.recurring_monthly * v.recurring_months + v.one_off)) {
    throw unprocessable('invalid_expected_value', 'The expected value is too large', 'data/expected_value');
  }
  return v;
}

/** The recurring projection of an expected value: the monthly amount times its months. */
export const recurringProjection = (v: ExpectedValue) => v.recurring_monthly * v.recurring_months;

/** A case's stored fields, as the store hands them on. */
export interface CaseRecord {
  id: string;
  project_id: string;
  title: string;
  subject: string;
  owner: string;
  evidence: string[];
  proposed_correction: string;
  still_to_check: string;
  status: CaseStatus;
  dismissal_reason: string | null;
  verification_method: string | null;
  expected_value: ExpectedValue | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  status_changed_at: Date;
}

/** An open case's editable fields, as they would be stored. */
export type CaseChanges = Partial<
  Pick<
    CaseRecord,
    'title' | 'subject' | 'owner' | 'evidence' | 'proposed_correction' | 'still_to_check' | 'expected_value'
  >
>;

/** Verified and dismissed cases are not edited afterward: 409 case_closed. */
export function requireOpenCase(status: CaseStatus, doing = 'edited'): void {
  if (isClosedCase(status)) {
    throw conflict('case_closed', `The case is ${status}; a ${status} case is not ${doing} afterward`);
  }
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a PATCH of a case changes: only fields whose cleaned value differs from the stored one
 * (409 case_closed on a verified or dismissed case, before anything else).
 */
export function planCaseEdit(
  c: CaseRecord,
  edit: {
    title?: string;
    subject?: string;
    owner?: string;
    evidence?: readonly string[];
    proposed_correction?: string;
    still_to_check?: string;
    expected_value?: Parameters<typeof expectedValue>[0] | null;
  },
): { changes: CaseChanges; changedFields: string[] } {
  requireOpenCase(c.status);
  const wanted: CaseChanges = {};
  if (edit.title !== undefined) wanted.title = caseTitle(edit.title);
  if (edit.subject !== undefined) wanted.subject = caseSubject(edit.subject);
  if (edit.owner !== undefined) wanted.owner = edit.owner;
  if (edit.evidence !== undefined) wanted.evidence = evidenceEntries(edit.evidence);
  if (edit.proposed_correction !== undefined) wanted.proposed_correction = proposedCorrection(edit.proposed_correction);
  if (edit.still_to_check !== undefined) wanted.still_to_check = stillToCheck(edit.still_to_check);
  if (edit.expected_value !== undefined) {
    wanted.expected_value = edit.expected_value === null ? null : expectedValue(edit.expected_value);
  }
  const changes: CaseChanges = {};
  for (const [key, value] of Object.entries(wanted) as [keyof CaseChanges, unknown][]) {
    if (!sameValue(value, c[key])) (changes as Record<string, unknown>)[key] = value;
  }
  return { changes, changedFields: Object.keys(changes) };
}

export interface CaseMove {
  status: CaseStatus;
  dismissal_reason: string | null;
  verification_method: string | null;
}

/**
 * A transition, checked: the move must be allowed from the case's state (409
 * case_move_not_allowed; a verified or dismissed case makes none); a dismissal needs a reason
 * (422 dismissal_reason_required), a verification a method (422 verification_method_required);
 * a reason or method on any other move is 422 transition_detail_not_allowed.
 */
export function planCaseMove(
  from: CaseStatus,
  input: { status: CaseStatus; reason?: string; method?: string },
): CaseMove {
  const to = input.status;
  if (!CASE_MOVES[from].includes(to)) {
    const allowed = CASE_MOVES[from];
    throw conflict(
      'case_move_not_allowed',
      allowed.length === 0
        ? `A ${from} case makes no further move`
        : `A ${from} case can move to ${allowed.join(' or ')}, not ${to}`,
    );
  }
  if (input.reason !== undefined && to !== 'dismissed') {
    throw unprocessable('transition_detail_not_allowed', 'A reason is given only when dismissing', 'data/reason');
  }
  if (input.method !== undefined && to !== 'verified') {
    throw unprocessable('transition_detail_not_allowed', 'A method is given only when verifying', 'data/method');
  }
  const reason = input.reason?.trim() ?? '';
  const method = input.method?.trim() ?? '';
  if (to === 'dismissed' && reason === '') {
    throw unprocessable('dismissal_reason_required', 'Dismissing a case needs a reason (data.reason)', 'data/reason');
  }
  if (to === 'verified' && method === '') {
    throw unprocessable(
      'verification_method_required',
      'Verifying a case needs the method used to verify it (data.method)',
      'data/method',
    );
  }
  for (const [value, field] of [
    [reason, 'data/reason'],
    [method, 'data/method'],
  ] as const) {
    if (value.length > REASON_MAX) {
      throw unprocessable(
        'invalid_case_field',
        `The ${field.slice(5)} must be at most ${REASON_MAX} characters after trimming (it has ${value.length})`,
        field,
      );
    }
  }
  return {
    status: to,
    dismissal_reason: to === 'dismissed' ? reason : null,
    verification_method: to === 'verified' ? method : null,
  };
}

export interface AmountInput {
  stage: AmountStage;
  amount: number;
  currency: string;
  tied_to_correction?: boolean;
}

/**
 * An amount row, checked against the case's state: the stage must be one the state takes (409
 * amount_stage_not_allowed, e.g. Approved before the case is accepted, Posted before work is in
 * progress, anything on a dismissed case); the currency an ISO 4217 code (422 unknown_currency);
 * a Collected row says whether it ties to the correction (422 tied_to_correction_required), and
 * no other row says so (422 tied_to_correction_not_allowed).
 */
export function planAmount(
  status: CaseStatus,
  input: AmountInput,
): { stage: AmountStage; amount: number; currency: string; tied_to_correction: boolean | null } {
  if (!STAGE_STATES[input.stage].includes(status)) {
    const states = STAGE_STATES[input.stage].join(', ');
    throw conflict(
      'amount_stage_not_allowed',
      `A ${status} case takes no ${input.stage} amount; ${input.stage} amounts are recorded on cases that are ${states}`,
    );
  }
  const currency = requireCurrency(input.currency, 'data/currency');
  const collected = input.stage === 'collected';
  if (collected && input.tied_to_correction === undefined) {
    throw unprocessable(
      'tied_to_correction_required',
      'A collected amount says whether it can be tied to the correction (data.tied_to_correction)',
      'data/tied_to_correction',
    );
  }
  if (!collected && input.tied_to_correction !== undefined) {
    throw unprocessable(
      'tied_to_correction_not_allowed',
      'Only a collected amount says whether it ties to the correction',
      'data/tied_to_correction',
    );
  }
  return {
    stage: input.stage,
    amount: input.amount,
    currency,
    tied_to_correction: collected ? (input.tied_to_correction as boolean) : null,
  };
}

/** The case as reads show it. */
export function caseView(c: CaseRecord) {
  return {
    id: c.id,
    project_id: c.project_id,
    title: c.title,
    subject: c.subject,
    owner: c.owner,
    evidence: c.evidence,
    proposed_correction: c.proposed_correction,
    still_to_check: c.still_to_check,
    status: c.status,
    next_step: NEXT_STEP[c.status],
    dismissal_reason: c.dismissal_reason,
    verification_method: c.verification_method,
    expected_value: c.expected_value,
    created_by: c.created_by,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    status_changed_at: c.status_changed_at.toISOString(),
  };
}
