import type { Db } from '@platform/kit';
import { sql } from 'kysely';
import type { Calendar } from '../domain/calendar.ts';
import type { AccountRef } from '../domain/journal.ts';

export async function findCalendar(db: Db, entityId: string): Promise<Calendar | undefined> {
  return (await db
    .selectFrom('calendars')
    .select(['legal_entity_id', 'timezone', 'books_start_month'])
    .where('legal_entity_id', '=', entityId)
    .executeTakeFirst()) as Calendar | undefined;
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
  return rows.map((r) => r.month as string);
}

export interface EntityLedger {
  chart_code: string;
  status: string;
  calendar: Calendar | undefined;
  /** Hard-closed months, ascending. */
  closed: string[];
  /** The accounts asked for that exist. */
  accounts: Map<string, AccountRef>;
}

/**
 * What posting needs to know, in one statement: the entity's chart, calendar and closures, and
 * the accounts its lines name.
 */
export async function entityLedger(
  db: Db,
  entityId: string,
  accountIds: readonly string[] = [],
): Promise<EntityLedger | undefined> {
  const r = await sql<{
    chart_code: string;
    status: string;
    timezone: string | null;
    books_start_month: string | null;
    closed: string[];
    accounts: AccountRef[] | string | null;
  }>`SELECT le.chart_code, le.status, c.timezone, c.books_start_month,
      ARRAY(SELECT to_char(p.month, 'YYYY-MM-DD') FROM period_closures p WHERE p.legal_entity_id = le.id ORDER BY p.month) AS closed,
      (SELECT json_agg(json_build_object('id', a.id, 'chart_code', a.chart_code, 'is_postable', a.is_postable))
        FROM accounts a WHERE a.id = ANY(${[...new Set(accountIds)]}::uuid[])) AS accounts
    FROM legal_entities le LEFT JOIN calendars c ON c.legal_entity_id = le.id WHERE le.id = ${entityId}`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    chart_code: row.chart_code,
    status: row.status,
    calendar:
      row.timezone && row.books_start_month
        ? { legal_entity_id: entityId, timezone: row.timezone, books_start_month: row.books_start_month }
        : undefined,
    closed: row.closed,
    accounts: new Map(
      ((typeof row.accounts === 'string' ? JSON.parse(row.accounts) : row.accounts) ?? []).map((a: AccountRef) => [
        a.id,
        a,
      ]),
    ),
  };
}
