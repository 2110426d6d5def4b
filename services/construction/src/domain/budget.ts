import { conflict, notFound, unprocessable } from '@platform/kit';

/** A cost event commits money (orders, contracts) or records money spent (invoices paid). */
export const COST_KINDS = ['committed', 'actual'] as const;
export type CostKind = (typeof COST_KINDS)[number];

/** Cost events: 50 a page by default, at most 200. */
export const COST_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

/** Largest amount of one event or budget line: well inside a JSON safe integer, so totals stay exact. */
export const MAX_AMOUNT_MINOR = 1_000_000_000_000_000;

export const costEventNotFound = () => notFound('Cost event', 'cost_event_not_found');

/**
 * A reversal undoes one event exactly: same category and kind, the opposite amount, and the event
 * reversed is not itself a reversal (422 reversal_mismatch); it is reversed once (409 already_reversed).
 */
export function requireReversal(
  original: { category: string; kind: string; amount_minor: number; reverses_id: string | null; reversed: boolean },
  input: { category: string; kind: string; amount_minor: number },
) {
  if (original.reverses_id !== null) {
    throw unprocessable('reversal_mismatch', 'A reversal is not reversed: record a new event instead', 'reverses_id');
  }
  if (original.category !== input.category || original.kind !== input.kind) {
    throw unprocessable(
      'reversal_mismatch',
      'A reversal takes the category and kind of the event it reverses',
      'category',
    );
  }
  if (input.amount_minor !== -original.amount_minor) {
    throw unprocessable(
      'reversal_mismatch',
      'A reversal takes the opposite amount of the event it reverses',
      'amount_minor',
    );
  }
  if (original.reversed) throw conflict('already_reversed', 'The cost event has already been reversed');
}
