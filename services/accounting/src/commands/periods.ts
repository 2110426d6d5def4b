import { notConfigured, openMonth } from '../domain/calendar.ts';
import { monthFromParts } from '../domain/months.ts';
import { monthsToReopen, monthToClose } from '../domain/periods.ts';
import { closedMonths, findCalendar } from '../store/calendar.ts';
import { closeMonth, reopenMonths } from '../store/periods.ts';
import { lockedEntity } from './calendar.ts';
import type { CommandCtx, WhyValue } from './context.ts';

/**
 * Close needs a configured calendar and closes the earliest unclosed past month, which must be
 * `expectedMonth` when the caller names one.
 */
export async function closePeriod(
  { trx, principal, now }: CommandCtx,
  entityId: string,
  expectedMonth: string | undefined,
  why?: WhyValue,
) {
  await lockedEntity(trx, entityId);
  const cal = await findCalendar(trx, entityId);
  if (!cal) throw notConfigured();
  const closures = await closedMonths(trx, entityId);
  const month = monthToClose(cal.books_start_month, closures, openMonth(cal, now), expectedMonth);
  await closeMonth(trx, entityId, month, principal.id, why?.detail?.trim() ?? '', now);
  return { legal_entity_id: entityId, closed_month: month };
}

/**
 * Reopen a month and every later closed month, one history record each, with why.detail as the
 * reason. Needs no calendar, so legacy closures reaching the current month can be removed
 * before configuration.
 */
export async function reopenPeriod(
  { trx, principal, now }: CommandCtx,
  entityId: string,
  year: number,
  month: number,
  reason: string,
) {
  await lockedEntity(trx, entityId);
  const months = monthsToReopen(await closedMonths(trx, entityId), monthFromParts(year, month));
  await reopenMonths(trx, entityId, months, principal.id, reason, now);
  return { legal_entity_id: entityId, reopened_months: [...months].sort() };
}
