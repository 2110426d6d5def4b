import { AppError, unprocessable } from '@platform/kit';
import type { CalendarView } from '../schemas/periods.ts';
import { addMonths, canonicalTimezone, isFirstOfMonth, localDate, monthOf } from './months.ts';

export interface Calendar {
  legal_entity_id: string;
  timezone: string;
  books_start_month: string;
}

/** The current Open month: the entity-local date's month. It moves at local midnight; no job runs. */
export function calendarView(cal: Calendar, now: Date): CalendarView {
  const local = localDate(now, cal.timezone);
  return {
    legal_entity_id: cal.legal_entity_id,
    timezone: cal.timezone,
    books_start_month: cal.books_start_month,
    local_date: local,
    open_month: monthOf(local),
  };
}

export const openMonth = (cal: Calendar, now: Date) => monthOf(localDate(now, cal.timezone));

export const notConfigured = () =>
  unprocessable('period_calendar_not_configured', 'The legal entity has no period calendar configured');

/** Timezone and books-start corrections need why.detail: checked before any lock or write. */
export function requireReason(why: { detail?: string } | undefined): string {
  const detail = why?.detail?.trim();
  if (!detail) throw unprocessable('reason_required', 'why.detail is required and must not be blank', 'why/detail');
  return detail;
}

/** A valid IANA timezone, returned in IANA's spelling; else 422 invalid_timezone. */
export function checkTimezone(tz: string): string {
  const name = canonicalTimezone(tz);
  if (!name) throw unprocessable('invalid_timezone', `${tz} is not an IANA timezone`, 'data/timezone');
  return name;
}

/** A books start month is the first day of a month, not later than the current month in the timezone. */
export function checkBooksStart(start: string, timezone: string, now: Date): void {
  if (!isFirstOfMonth(start)) {
    throw unprocessable(
      'invalid_books_start_month',
      'books_start_month must be the first day of a month',
      'data/books_start_month',
    );
  }
  if (start > monthOf(localDate(now, timezone))) {
    throw unprocessable(
      'invalid_books_start_month',
      'books_start_month must not be later than the current month in the entity timezone',
      'data/books_start_month',
    );
  }
}

/**
 * The closed months from the books start on must be one continuous run starting at the start
 * (or none). Closures before the start lie outside the books and are ignored.
 */
export function checkClosedRun(start: string, closures: readonly string[]): void {
  const run = closures.filter((m) => m >= start).sort();
  run.forEach((m, i) => {
    if (m !== addMonths(start, i)) {
      throw unprocessable(
        'invalid_closed_period_prefix',
        `Closed months must form a continuous run from ${start}; ${addMonths(start, i)} is not closed`,
      );
    }
  });
}

/** The closed run must end before the current month. */
export function checkNothingClosedFrom(open: string, closures: readonly string[]): void {
  if (closures.some((m) => m >= open)) {
    throw unprocessable('current_period_closed', `The month ${open} would be current but is closed`);
  }
}

export function checkActive(entity: { status: string }): void {
  if (entity.status !== 'active') throw unprocessable('legal_entity_inactive', 'The legal entity is inactive');
}

export function checkNotConfigured(existing: Calendar | undefined): void {
  if (existing) throw new AppError(409, 'calendar_already_configured', 'The calendar is already configured');
}
