import { conflict, forbidden, notFound, UUID_RE, unprocessable } from '@platform/kit';
import { nyDate } from './checkin-schedule.ts';
import { trimmedText } from './text.ts';

/**
 * Unblock request rules (spec 2, Unblock request; States and transitions, Unblock request): one
 * question for one member, how it is answered, who moves it, snoozing and the personal queue.
 */

export const UNBLOCK_STATUSES = ['open', 'answered', 'resolved', 'withdrawn', 'superseded'] as const;
export type UnblockStatus = (typeof UNBLOCK_STATUSES)[number];

export const ANSWER_KINDS = ['choice', 'value', 'document', 'decision', 'explanation'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** Where a request comes from as sent: a person, or an agent (refused). */
export const INPUT_SOURCES = ['person', 'agent'] as const;
/** Where a stored request came from: a person, or a handoff's changes request. */
export const SOURCES = ['person', 'handoff'] as const;
export type UnblockSource = (typeof SOURCES)[number];

/** The records a request may wait on: a task, goal or handoff of the same project. */
export const WAITING_TYPES = ['task', 'goal', 'handoff'] as const;
export type WaitingType = (typeof WAITING_TYPES)[number];

export const UNBLOCK_ACTIONS = ['answer', 'confirm', 'send_back', 'withdraw', 'snooze'] as const;
export type UnblockAction = (typeof UNBLOCK_ACTIONS)[number];

/** Open and answered requests still wait on someone; the other three are closed. */
export const LIVE_STATUSES: readonly UnblockStatus[] = ['open', 'answered'];

export const UNBLOCK_LIMITS = { needed: 2_000, whyNow: 2_000, rankingReason: 200, option: 200, answer: 4_000 };
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 10;
/** Unblock request lists: page mode, 50 by default, at most 200 (more is 422). */
export const UNBLOCK_PAGE = { pageSize: 50, maxPageSize: 200 };

export const unblockRequestNotFound = () => notFound('Unblock request', 'unblock_request_not_found');

export interface UnblockRecord {
  id: string;
  project_id: string;
  asker: string;
  recipient: string;
  needed: string;
  why_now: string;
  waiting_type: WaitingType;
  waiting_id: string;
  answer_kind: AnswerKind;
  options: string[];
  due_on: string | null;
  snoozed_until: Date | null;
  ranking_reason: string;
  source: UnblockSource;
  status: UnblockStatus;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

const text = (raw: string, max: number, what: string, field: string) =>
  trimmedText(raw, { max, code: 'invalid_unblock_text', what, field });

/** An agent may not raise an unblock request: 422 agent_source_refused, nothing written. */
export function requirePersonSource(source: string | undefined): void {
  if (source === 'agent') {
    throw unprocessable(
      'agent_source_refused',
      'An unblock request raised by an agent is refused; a person must ask',
      'data/source',
    );
  }
}

/** The recipient is one project member other than the asker (422 recipient_not_member, recipient_is_asker). */
export function requireRecipient(recipient: string, asker: string, isMember: boolean): void {
  if (recipient === asker) {
    throw unprocessable('recipient_is_asker', 'An unblock request asks someone other than the asker', 'data/recipient');
  }
  if (!isMember) {
    throw unprocessable('recipient_not_member', 'The recipient must be a member of the project', 'data/recipient');
  }
}

/** The waiting record must be a task, goal or handoff of the same project (422 waiting_record_not_found). */
export function requireWaitingRecord(found: boolean): void {
  if (!found) {
    throw unprocessable(
      'waiting_record_not_found',
      'waiting_record names no task, goal or handoff of this project',
      'data/waiting_record/id',
    );
  }
}

/** needed, why_now and ranking_reason as stored: trimmed, within their limits. */
export function unblockTexts(input: { needed: string; why_now: string; ranking_reason?: string }) {
  return {
    needed: text(input.needed, UNBLOCK_LIMITS.needed, 'What is needed', 'data/needed'),
    why_now: text(input.why_now, UNBLOCK_LIMITS.whyNow, 'Why now', 'data/why_now'),
    ranking_reason:
      input.ranking_reason === undefined
        ? undefined
        : text(input.ranking_reason, UNBLOCK_LIMITS.rankingReason, 'The ranking reason', 'data/ranking_reason'),
  };
}

/**
 * A choice offers 2 to 10 distinct options (trimmed, 1 to 200 characters); the other kinds take
 * none (422 invalid_options).
 */
export function answerOptions(kind: AnswerKind, raw: string[] | undefined): string[] {
  if (kind !== 'choice') {
    if (raw !== undefined && raw.length > 0) {
      throw unprocessable('invalid_options', 'Only a choice has options', 'data/options');
    }
    return [];
  }
  const options = (raw ?? []).map((o, i) => text(o, UNBLOCK_LIMITS.option, 'Each option', `data/options/${i}`));
  const distinct = new Set(options.map((o) => o.toLowerCase()));
  if (options.length < OPTIONS_MIN || options.length > OPTIONS_MAX || distinct.size !== options.length) {
    throw unprocessable(
      'invalid_options',
      `A choice needs ${OPTIONS_MIN} to ${OPTIONS_MAX} options, no two alike ignoring case`,
      'data/options',
    );
  }
  return options;
}

/** When the asker gives no ranking reason: what the queue ranks it by (its due date, else when it was asked). */
export const defaultRankingReason = (dueOn: string | null, now: Date): string =>
  dueOn ? `Due ${dueOn}` : `Waiting since ${nyDate(now)}`;

const HTTP_URL = /^https?:\/\/\S+$/i;

/**
 * An answer fits its kind: trimmed, 1 to 4,000 characters; a choice is one of the options (the
 * option's own spelling is stored); a document is a link (http or https) or a document id (UUID).
 */
export function answerText(r: Pick<UnblockRecord, 'answer_kind' | 'options'>, raw: string | undefined): string {
  if (raw === undefined) throw unprocessable('invalid_answer', 'An answer needs data.answer', 'data/answer');
  const answer = trimmedText(raw, {
    max: UNBLOCK_LIMITS.answer,
    code: 'invalid_answer',
    what: 'The answer',
    field: 'data/answer',
  });
  if (r.answer_kind === 'choice') {
    const option = r.options.find((o) => o.toLowerCase() === answer.toLowerCase());
    if (!option) {
      throw unprocessable('invalid_answer', `The answer must be one of: ${r.options.join(', ')}`, 'data/answer');
    }
    return option;
  }
  if (r.answer_kind === 'document' && !HTTP_URL.test(answer) && !UUID_RE.test(answer)) {
    throw unprocessable(
      'invalid_answer',
      'A document answer is a link (http or https) or a document id',
      'data/answer',
    );
  }
  return answer;
}

/** Answering: the recipient alone (403 not_recipient). */
export function requireTheRecipient(r: UnblockRecord, principalId: string): void {
  if (r.recipient !== principalId) throw forbidden('Only the recipient may answer this request', 'not_recipient');
}

/** Confirming, sending back, withdrawing: the asker alone (403 not_asker). */
export function requireTheAsker(r: UnblockRecord, principalId: string, what: string): void {
  if (r.asker !== principalId) throw forbidden(`Only the asker may ${what} this request`, 'not_asker');
}

/** Snoozing: the asker or the recipient (403 not_recipient for anyone else). */
export function requireParticipant(r: UnblockRecord, principalId: string): void {
  if (r.asker !== principalId && r.recipient !== principalId) {
    throw forbidden('Only the recipient or the asker may snooze this request', 'not_recipient');
  }
}

const refused = (r: UnblockRecord, what: string) =>
  conflict('invalid_unblock_transition', `An unblock request that is ${r.status} cannot be ${what}`);

/** The state an action needs: answer open; confirm and send back answered; withdraw and snooze open or answered. */
export function requireStateFor(r: UnblockRecord, action: UnblockAction): void {
  const needed: Record<UnblockAction, readonly UnblockStatus[]> = {
    answer: ['open'],
    confirm: ['answered'],
    send_back: ['answered'],
    withdraw: LIVE_STATUSES,
    snooze: LIVE_STATUSES,
  };
  const words: Record<UnblockAction, string> = {
    answer: 'answered',
    confirm: 'confirmed',
    send_back: 'sent back',
    withdraw: 'withdrawn',
    snooze: 'snoozed',
  };
  if (!needed[action].includes(r.status)) throw refused(r, words[action]);
}

/** A snooze time must be later than now (422 invalid_snooze); null wakes the card. */
export function snoozeUntil(raw: string | null | undefined, now: Date): Date | null {
  if (raw === undefined) {
    throw unprocessable('invalid_snooze', 'A snooze needs data.until (a time, or null to wake the card)', 'data/until');
  }
  if (raw === null) return null;
  const until = new Date(raw);
  if (!(until.getTime() > now.getTime())) {
    throw unprocessable('invalid_snooze', 'A snooze lasts until a time later than now', 'data/until');
  }
  return until;
}

/** Whether the card is hidden from the personal queue at `now`. */
export const isSnoozed = (r: Pick<UnblockRecord, 'snoozed_until'>, now: Date): boolean =>
  r.snoozed_until !== null && r.snoozed_until.getTime() > now.getTime();
