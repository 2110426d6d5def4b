import { unprocessable } from '@platform/kit';

/**
 * The two assistants panels of a conversation (spec 2, "Conversations"): objections (claims that
 * argue against a plan) and related claims for one of the caller's own messages. Both are
 * answered by the intelligence service; when it is unset, down, slow or out of contract the
 * answer is degraded: true with empty lists, never an error.
 */

export const AUDIENCES = ['private', 'shared'] as const;
export type Audience = (typeof AUDIENCES)[number];

export const RATINGS = ['useful', 'already_knew', 'wrong'] as const;
export type Rating = (typeof RATINGS)[number];

export const RELATED_ACTIONS = ['opened', 'not_relevant', 'asked'] as const;
export type RelatedAction = (typeof RELATED_ACTIONS)[number];

export const SKIP_REASONS = ['too_short', 'redacted'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The related panel looks nothing up for a message under this many words (spec 2, Limits). */
export const RELATED_MIN_WORDS = 4;
export const OBJECTIONS_LIMIT = 10;
export const RELATED_LIMIT = 10;
export const PLAN_MAX = 20_000;
/** The author of the assistant turn that records raised objections. */
export const OBJECTIONS_AUTHOR = 'agent:objections';

/**
 * Private when only the caller can read the conversation: an unfiled one (only its starter reads
 * it) or a filed one whose project has the caller as its only member. Otherwise shared.
 */
export function audienceOf(projectId: string | null, members: readonly string[], callerId: string): Audience {
  if (projectId === null) return 'private';
  return members.length === 1 && members[0] === callerId ? 'private' : 'shared';
}

/** A claim as the panel shows it: a shared answer carries no quotes. */
export function forAudience<C extends { sources: { quote?: string }[] }>(claim: C, audience: Audience): C {
  if (audience === 'private') return claim;
  return { ...claim, sources: claim.sources.map(({ quote: _, ...s }) => s) };
}

/**
 * The claim ids recorded as raised in one turn's extra.raised_objections: an array of ids, or of
 * objects with claim_id. Anything else in it is ignored.
 */
export function raisedIn(extra: Record<string, unknown>): string[] {
  const raised = extra.raised_objections;
  if (!Array.isArray(raised)) return [];
  const ids: string[] = [];
  for (const r of raised) {
    if (typeof r === 'string' && r !== '') ids.push(r);
    else if (r && typeof r === 'object' && typeof (r as { claim_id?: unknown }).claim_id === 'string') {
      ids.push((r as { claim_id: string }).claim_id);
    }
  }
  return ids;
}

/** An assistant's turn: written as an agent (author agent:<name>). */
export const isAssistantTurn = (author: string) => author.startsWith('agent:');

/** The plan the objections panel argues against: trimmed, 1 to 20,000 characters (422 invalid_plan). */
export function planText(raw: string): string {
  const t = raw.trim();
  if (t.length < 1 || t.length > PLAN_MAX) {
    throw unprocessable('invalid_plan', `The plan is 1 to ${PLAN_MAX} characters (trimmed)`, 'body/data/plan');
  }
  return t;
}

/** Words: runs of non-space characters holding a letter or digit. */
export const wordCount = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** Whether the caller wrote this turn as their own message (an utterance authored by them). */
export function isOwnMessage(
  turn: { turn_kind: string; author: string },
  caller: { id: string; email?: string },
): boolean {
  if (turn.turn_kind !== 'utterance') return false;
  const author = turn.author.toLowerCase();
  return author === caller.id.toLowerCase() || (caller.email !== undefined && author === caller.email.toLowerCase());
}

/** The related panel on a turn that is not the caller's own message: 422 not_own_message. */
export function requireOwnMessage(turn: { turn_kind: string; author: string }, caller: { id: string; email?: string }) {
  if (!isOwnMessage(turn, caller)) {
    throw unprocessable(
      'not_own_message',
      "The related panel reads only the caller's own messages; this turn is someone else's",
      'body/turn_seq',
    );
  }
}

/** Why the related panel looks nothing up for this message, or undefined when it does. */
export function relatedSkip(turn: { text: string | null; redacted: boolean }): SkipReason | undefined {
  if (turn.redacted || turn.text === null) return 'redacted';
  return wordCount(turn.text) < RELATED_MIN_WORDS ? 'too_short' : undefined;
}

/** Feedback on a claim this conversation never raised: 422 claim_not_raised. */
export function requireRaised(raised: ReadonlySet<string>, claimId: string) {
  if (!raised.has(claimId)) {
    throw unprocessable(
      'claim_not_raised',
      'Rate only claims the objections panel raised in this conversation',
      'body/data/claim_id',
    );
  }
}
