import { conflict, notFound, unprocessable } from '@platform/kit';

/** Decisions (spec 3, Registers): a question opened with alternatives and participants, settled once by an outcome and its cost. */
export const DECISION_STATUSES = ['open', 'decided'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export const decisionNotFound = () => notFound('Decision', 'decision_not_found');

/** A settled decision takes no outcome (409 already_decided, CON-146). */
export function requireOpenDecision(d: { status: string }) {
  if (d.status !== 'open') throw conflict('already_decided', 'The decision already has its outcome');
}

/** The chosen alternative must be one of this decision's (422 alternative_of_another_decision, CON-145). */
export function requireOwnAlternative(alternativeId: string | undefined, own: readonly { id: string }[]) {
  if (alternativeId === undefined) return null;
  if (!own.some((a) => a.id === alternativeId)) {
    throw unprocessable(
      'alternative_of_another_decision',
      'The alternative is not one of this decision’s',
      'alternative_id',
    );
  }
  return alternativeId;
}

/** Participants each once, in the order first named. */
export const participantList = (fids: readonly string[]) => [...new Set(fids.map((f) => f.trim()))];
