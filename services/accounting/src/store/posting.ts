import { sql } from 'kysely';
import type { Calendar } from '../domain/calendar.ts';
import type { AccountRef } from '../domain/journal.ts';
import type { Entry } from '../schemas/journal.ts';
import type { Db } from './db.ts';
import { ENTRY_COLUMNS, type EntryRow, LINES_JSON, toEntry, toLine } from './journal.ts';

export interface PostingState {
  entry: Entry;
  chart_code: string;
  calendar: Calendar | undefined;
  /** The entity's hard-closed months, ascending. */
  closed: string[];
  /** The accounts the entry's lines name. */
  accounts: Map<string, AccountRef>;
}

const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/**
 * Everything posting judges, in one statement: the entry and its lines, its entity's chart,
 * calendar and closures, and the accounts its lines name. Run after the entry's row is locked,
 * so it sees what any earlier holder committed.
 */
export async function loadForPosting(db: Db, entryId: string): Promise<PostingState | undefined> {
  const r = await sql<
    EntryRow & {
      lines: unknown;
      chart_code: string;
      timezone: string | null;
      books_start_month: string | null;
      closed: string[];
      accounts: unknown;
    }
  >`SELECT ${ENTRY_COLUMNS}, ${LINES_JSON} AS lines, le.chart_code, c.timezone, c.books_start_month,
      ARRAY(SELECT to_char(p.month, 'YYYY-MM-DD') FROM period_closures p WHERE p.legal_entity_id = le.id ORDER BY p.month) AS closed,
      (SELECT json_agg(json_build_object('id', a.id, 'chart_code', a.chart_code, 'is_postable', a.is_postable))
        FROM accounts a WHERE a.id IN (SELECT l.account_id FROM journal_lines l WHERE l.entry_id = e.id)) AS accounts
    FROM journal_entries e
    JOIN legal_entities le ON le.id = e.legal_entity_id
    LEFT JOIN calendars c ON c.legal_entity_id = le.id
    WHERE e.id = ${entryId}`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    entry: toEntry(row, parse<Record<string, unknown>[]>(row.lines).map(toLine)),
    chart_code: row.chart_code,
    calendar:
      row.timezone && row.books_start_month
        ? { legal_entity_id: row.legal_entity_id, timezone: row.timezone, books_start_month: row.books_start_month }
        : undefined,
    closed: row.closed,
    accounts: new Map((parse<AccountRef[] | null>(row.accounts) ?? []).map((a) => [a.id, a])),
  };
}
