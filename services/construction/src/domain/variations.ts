import { conflict, notFound, unprocessable } from '@platform/kit';

/**
 * Variations (spec 3): drafted, priced, submitted for approval, approved or rejected when the
 * last required reviewer answers (in that answer's transaction), incorporated into a new baseline.
 *
 *   drafted  --price-->  priced  --price-->  priced
 *   priced   --submit--> submitted  (drafted: 422 variation_not_priced)
 *   submitted --last required answer--> approved | rejected
 *   approved --incorporate--> incorporated (writes the next baseline)
 */
export const VARIATION_STATUSES = ['drafted', 'priced', 'submitted', 'approved', 'rejected', 'incorporated'] as const;
export type VariationStatus = (typeof VARIATION_STATUSES)[number];

export const variationNotFound = () => notFound('Variation', 'variation_not_found');

/** A variation needs the project's award baseline (CON-127): 409 no_baseline without it. */
export function requireBaseline<T>(baseline: T | undefined | null): T {
  if (!baseline)
    throw conflict('no_baseline', 'A variation needs the award baseline: the project has not been awarded');
  return baseline;
}

/** Pricing takes a drafted or priced variation (409 variation_not_open). */
export function requireOpen(v: { status: string }) {
  if (v.status !== 'drafted' && v.status !== 'priced') {
    throw conflict('variation_not_open', `The variation is ${v.status}, no longer drafted or priced`);
  }
}

/**
 * Submitting takes a priced variation: one that is no longer drafted or priced is 409
 * variation_not_open; a drafted one has no price to review yet, 422 variation_not_priced.
 */
export function requireSubmittable(v: { status: string }) {
  requireOpen(v);
  if (v.status === 'drafted') {
    throw unprocessable('variation_not_priced', 'Price the variation (cost change and days) before submitting it');
  }
}

/** An answer on a variation's approval needs the variation submitted for approval (409 variation_not_pending). */
export function requirePending(v: { status: string }) {
  if (v.status !== 'submitted') {
    throw conflict('variation_not_pending', `The variation is ${v.status}, not submitted for approval`);
  }
}

/** Incorporating takes an approved variation (409 variation_not_approved). */
export function requireApproved(v: { status: string }) {
  if (v.status !== 'approved') {
    throw conflict(
      'variation_not_approved',
      `The variation is ${v.status}: only an approved variation is incorporated`,
    );
  }
}

/** Adds days to a YYYY-MM-DD date (UTC calendar days). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The baseline an incorporated variation writes: the next seq, the previous contract sum plus the
 * cost change, the previous completion date moved by the days.
 */
export function nextBaseline(
  previous: { seq: number; amount_minor: number; finish_date: string },
  variation: { cost_change_minor: number | null; days: number | null },
) {
  return {
    seq: previous.seq + 1,
    amount_minor: Number(previous.amount_minor) + Number(variation.cost_change_minor ?? 0),
    finish_date: addDays(previous.finish_date, variation.days ?? 0),
  };
}
