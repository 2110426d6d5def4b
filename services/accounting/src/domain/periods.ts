import { conflict } from '@platform/kit';
import { addMonths } from './months.ts';

/**
 * Close picks the earliest unclosed past month: the books start month when nothing is closed,
 * else the month after the closed run. A gap in the closures blocks closing; the current
 * (Open) month cannot be closed. When the caller names the month it means to close and this is
 * not it, nothing is closed: a second click of the same close would otherwise close the next
 * month too.
 */
export function monthToClose(booksStart: string, closures: readonly string[], open: string, expected?: string): string {
  const run = closures.filter((m) => m >= booksStart).sort();
  run.forEach((m, i) => {
    if (m !== addMonths(booksStart, i)) {
      throw conflict(
        'closed_period_gap',
        `Closed months have a gap at ${addMonths(booksStart, i)}; reopen to repair it`,
      );
    }
  });
  const next = run.length ? addMonths(run[run.length - 1], 1) : booksStart;
  if (expected !== undefined && expected !== next) {
    throw conflict('unexpected_close_month', `Close would close ${next}, not ${expected}`);
  }
  if (next >= open) throw conflict('current_period_not_closable', `The current month ${open} cannot be closed`);
  return next;
}

/** Reopening a month also reopens every later closed month. */
export function monthsToReopen(closures: readonly string[], month: string): string[] {
  if (!closures.includes(month)) throw conflict('period_not_closed', `The month ${month} is not closed`);
  return closures
    .filter((m) => m >= month)
    .sort()
    .reverse();
}
