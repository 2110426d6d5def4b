import type { Calendar } from '../domain/calendar.ts';
import type { Db } from './db.ts';

export async function findCalendar(db: Db, entityId: string): Promise<Calendar | undefined> {
  return db
    .selectFrom('calendars')
    .select(['legal_entity_id', 'timezone', 'books_start_month'])
    .where('legal_entity_id', '=', entityId)
    .executeTakeFirst();
}

export async function insertCalendar(trx: Db, cal: Calendar, by: string, now: Date) {
  await trx
    .insertInto('calendars')
    .values({ ...cal, configured_by: by, configured_at: now, updated_at: now })
    .execute();
}

export async function updateCalendar(
  trx: Db,
  entityId: string,
  set: Partial<Omit<Calendar, 'legal_entity_id'>>,
  now: Date,
) {
  await trx
    .updateTable('calendars')
    .set({ ...set, updated_at: now })
    .where('legal_entity_id', '=', entityId)
    .execute();
}

export async function recordCalendarChange(
  trx: Db,
  change: {
    legal_entity_id: string;
    event_type: 'calendar_configured' | 'timezone_changed' | 'books_start_changed';
    previous_value: string | null;
    new_value: string;
    actor_fid: string;
    reason: string;
  },
  now: Date,
) {
  await trx
    .insertInto('calendar_changes')
    .values({ ...change, occurred_at: now })
    .execute();
}

/** The entity's hard-closed months, ascending. */
export async function closedMonths(db: Db, entityId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('period_closures')
    .select('month')
    .where('legal_entity_id', '=', entityId)
    .orderBy('month')
    .execute();
  return rows.map((r) => r.month);
}
