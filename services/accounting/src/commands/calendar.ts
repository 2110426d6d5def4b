import { notFound, unprocessable } from '@platform/kit';
import {
  type Calendar,
  calendarView,
  checkActive,
  checkBooksStart,
  checkClosedRun,
  checkNotConfigured,
  checkNothingClosedFrom,
  checkTimezone,
  notConfigured,
  openMonth,
} from '../domain/calendar.ts';
import { closedMonths, findCalendar, insertCalendar, recordCalendarChange, updateCalendar } from '../store/calendar.ts';
import type { Db } from '../store/db.ts';
import { findEntity } from '../store/entities.ts';
import { postedBefore } from '../store/journal.ts';
import { lockEntityExclusive } from '../store/locks.ts';
import type { CommandCtx, WhyValue } from './context.ts';

/** The entity, locked exclusively (calendar commands, close and reopen); 404 when unknown. */
export async function lockedEntity(trx: Db, entityId: string) {
  const entity = await findEntity(trx, entityId);
  if (!entity) throw notFound('Legal entity', 'legal_entity_not_found');
  await lockEntityExclusive(trx, entityId);
  return entity;
}

/** Initial setup, once per entity: configuration and its audit event commit together. */
export async function setupCalendar(
  { trx, principal, now, emit }: CommandCtx,
  entityId: string,
  input: { timezone: string; books_start_month: string },
  why?: WhyValue,
) {
  const timezone = checkTimezone(input.timezone);
  checkBooksStart(input.books_start_month, timezone, now);
  const entity = await lockedEntity(trx, entityId);
  checkActive(entity);
  checkNotConfigured(await findCalendar(trx, entityId));
  const cal: Calendar = { legal_entity_id: entityId, timezone, books_start_month: input.books_start_month };
  const closures = await closedMonths(trx, entityId);
  checkClosedRun(cal.books_start_month, closures);
  // Legacy closures reaching the current month are reopened first (reopen needs no calendar).
  checkNothingClosedFrom(openMonth(cal, now), closures);
  await insertCalendar(trx, cal, principal.id, now);
  await recordCalendarChange(
    trx,
    {
      legal_entity_id: entityId,
      event_type: 'calendar_configured',
      previous_value: null,
      new_value: JSON.stringify({ timezone, books_start_month: cal.books_start_month }),
      actor_fid: principal.id,
      reason: why?.detail ?? '',
    },
    now,
  );
  await emit({ type: 'period.calendar_configured', data: { ...cal, actor_fid: principal.id, why: why ?? null } });
  return calendarView(cal, now);
}

async function configured(trx: Db, entityId: string) {
  const entity = await lockedEntity(trx, entityId);
  const cal = await findCalendar(trx, entityId);
  if (!cal) throw notConfigured();
  checkActive(entity);
  return cal;
}

/**
 * Timezone correction: applies at once to current-period reads and new system-set dates; dates
 * already set, the books start, closures and postings stay. The Open month may move, backward
 * too, but never onto a hard-closed month. An unchanged timezone changes nothing and emits nothing.
 */
export async function correctTimezone(
  { trx, principal, now, emit }: CommandCtx,
  entityId: string,
  requested: string,
  reason: string,
  why: WhyValue,
) {
  const timezone = checkTimezone(requested);
  const cal = await configured(trx, entityId);
  if (cal.timezone === timezone) return calendarView(cal, now);
  const next: Calendar = { ...cal, timezone };
  const closures = await closedMonths(trx, entityId);
  checkClosedRun(cal.books_start_month, closures);
  checkNothingClosedFrom(openMonth(next, now), closures);
  await updateCalendar(trx, entityId, { timezone }, now);
  await recordCalendarChange(
    trx,
    {
      legal_entity_id: entityId,
      event_type: 'timezone_changed',
      previous_value: cal.timezone,
      new_value: timezone,
      actor_fid: principal.id,
      reason,
    },
    now,
  );
  await emit({
    type: 'period.calendar_timezone_changed',
    data: {
      legal_entity_id: entityId,
      previous_timezone: cal.timezone,
      new_timezone: timezone,
      actor_fid: principal.id,
      reason,
      why,
    },
  });
  return calendarView(next, now);
}

/**
 * Books-start correction: a first of month not later than the entity-local month; moving it
 * later may not exclude a posted entry (by post month, else entry date); drafts never block;
 * the closed months must run continuously from the new start and end before the current month.
 */
export async function correctBooksStart(
  { trx, principal, now, emit }: CommandCtx,
  entityId: string,
  start: string,
  reason: string,
  why: WhyValue,
) {
  const cal = await configured(trx, entityId);
  checkBooksStart(start, cal.timezone, now);
  if (start === cal.books_start_month) return calendarView(cal, now);
  if (start > cal.books_start_month && (await postedBefore(trx, entityId, start))) {
    throw unprocessable(
      'books_start_excludes_postings',
      `A posted entry counts before ${start}`,
      'data/books_start_month',
    );
  }
  const closures = await closedMonths(trx, entityId);
  checkClosedRun(start, closures);
  checkNothingClosedFrom(openMonth(cal, now), closures);
  await updateCalendar(trx, entityId, { books_start_month: start }, now);
  await recordCalendarChange(
    trx,
    {
      legal_entity_id: entityId,
      event_type: 'books_start_changed',
      previous_value: cal.books_start_month,
      new_value: start,
      actor_fid: principal.id,
      reason,
    },
    now,
  );
  await emit({
    type: 'period.calendar_books_start_changed',
    data: {
      legal_entity_id: entityId,
      previous_books_start_month: cal.books_start_month,
      new_books_start_month: start,
      actor_fid: principal.id,
      reason,
      why,
    },
  });
  return calendarView({ ...cal, books_start_month: start }, now);
}
