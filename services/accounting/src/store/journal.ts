import { compact, iso, isoOrThrow, uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import type { Entry, EntrySummary, Line, LineInput } from '../schemas/journal.ts';
import type { Db } from './db.ts';

export interface EntryRow {
  id: string;
  legal_entity_id: string;
  description: string;
  transaction_date: string;
  source: 'manual' | 'generated';
  status: 'draft' | 'posted';
  post_month: string | null;
  payment_id: string | null;
  reversal_of: string | null;
  created_by: string;
  created_at: Date;
  posted_at: Date | null;
}

export const ENTRY_COLUMNS = sql`e.id, e.legal_entity_id, e.description, e.transaction_date, e.source, e.status, e.post_month,
  e.payment_id, e.reversal_of, e.created_by, e.created_at, e.posted_at`;

/** Lines come back with their entry as one JSON array, so an entry is read in one statement. */
export const LINES_JSON = sql`coalesce((SELECT json_agg(l ORDER BY l.line_no) FROM journal_lines l WHERE l.entry_id = e.id), '[]')`;

export const toLine = (r: Record<string, unknown>): Line =>
  compact({
    id: r.id as string,
    line_no: r.line_no as number,
    account_id: r.account_id as string,
    direction: r.direction as Line['direction'],
    amount: Number(r.amount),
    property_id: r.property_id as string,
    unit_id: r.unit_id as string,
    lease_id: r.lease_id as string,
    billing_account_id: r.billing_account_id as string,
    invoice_id: r.invoice_id as string,
    charge_id: r.charge_id as string,
  });

const entryFields = (r: EntryRow) => ({
  id: r.id,
  legal_entity_id: r.legal_entity_id,
  description: r.description,
  transaction_date: r.transaction_date,
  occurred_on: r.transaction_date,
  source: r.source,
  status: r.status,
  ...(r.post_month ? { post_month: r.post_month } : {}),
  payment_id: r.payment_id,
  is_reversal: r.reversal_of !== null,
  reversal_of: r.reversal_of,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  posted_at: iso(r.posted_at),
});

export const toEntry = (r: EntryRow, lines: Line[]): Entry => ({ ...entryFields(r), lines });

/**
 * Loads entries with their lines. `forUpdate` first locks the entry rows (in id order), then
 * reads them in a new statement: after waiting for a lock, the read must see what the holder
 * committed, lines included, which a single locking statement would not.
 */
export async function loadEntries(db: Db, ids: readonly string[], forUpdate = false): Promise<Entry[]> {
  if (ids.length === 0) return [];
  if (forUpdate) {
    await sql`SELECT id FROM journal_entries WHERE id = ANY(${[...ids]}::uuid[]) ORDER BY id FOR UPDATE`.execute(db);
  }
  const rows = await sql<EntryRow & { lines: unknown }>`SELECT ${ENTRY_COLUMNS}, ${LINES_JSON} AS lines
    FROM journal_entries e WHERE e.id = ANY(${[...ids]}::uuid[]) ORDER BY e.id`.execute(db);
  return rows.rows.map((r) => {
    const lines = (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as Record<string, unknown>[];
    return toEntry(r, lines.map(toLine));
  });
}

export async function loadEntry(db: Db, id: string, forUpdate = false): Promise<Entry | undefined> {
  return (await loadEntries(db, [id], forUpdate))[0];
}

export interface NewEntry {
  id: string;
  legal_entity_id: string;
  description: string;
  transaction_date: string;
  source: 'manual' | 'generated';
  payment_id: string | null;
  reversal_of: string | null;
  created_by: string;
}

const newLines = (lines: readonly LineInput[], now: Date): Line[] =>
  lines.map((l, i) => compact({ ...l, id: uuidv7(now.getTime()), line_no: i + 1 }) as Line);

const LINE_INSERT = sql`INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount, property_id,
  unit_id, lease_id, billing_account_id, invoice_id, charge_id)`;
const lineRecords = (entryId: string, lines: Line[]) => sql`SELECT x.id, ${entryId}::uuid, x.line_no, x.account_id,
    x.direction, x.amount, x.property_id, x.unit_id, x.lease_id, x.billing_account_id, x.invoice_id, x.charge_id
  FROM jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) AS x(id uuid, line_no int, account_id uuid, direction text,
    amount bigint, property_id uuid, unit_id uuid, lease_id uuid, billing_account_id uuid, invoice_id uuid, charge_id uuid)`;

/** Writes a draft and its lines in one statement; returns the entry as a read would show it. */
export async function insertEntry(trx: Db, e: NewEntry, lines: readonly LineInput[], now: Date): Promise<Entry> {
  const written = newLines(lines, now);
  await sql`WITH entry AS (
      INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, source, status, payment_id,
        reversal_of, created_by, created_at, updated_at)
      VALUES (${e.id}, ${e.legal_entity_id}, ${e.description}, ${e.transaction_date}, ${e.source}, 'draft',
        ${e.payment_id}, ${e.reversal_of}, ${e.created_by}, ${now}, ${now}))
    ${LINE_INSERT} ${lineRecords(e.id, written)}`.execute(trx);
  return toEntry({ ...e, status: 'draft', post_month: null, created_at: now, posted_at: null }, written);
}

async function insertLines(trx: Db, entryId: string, lines: readonly LineInput[], now: Date): Promise<Line[]> {
  const written = newLines(lines, now);
  await sql`${LINE_INSERT} ${lineRecords(entryId, written)}`.execute(trx);
  return written;
}

/** Replaces a draft's description, date and lines as a whole (new line ids). */
export async function replaceDraft(
  trx: Db,
  id: string,
  fields: { description: string; transaction_date: string },
  lines: readonly LineInput[],
  now: Date,
) {
  await trx.deleteFrom('journal_lines').where('entry_id', '=', id).execute();
  await trx
    .updateTable('journal_entries')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .execute();
  return insertLines(trx, id, lines, now);
}

export async function markPosted(trx: Db, id: string, month: string, by: string, now: Date) {
  await trx
    .updateTable('journal_entries')
    .set({ status: 'posted', post_month: month, posted_by: by, posted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .execute();
}

/** Ids among `ids` that have a reversal entry. */
export async function reversedAmong(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('journal_entries')
    .select('reversal_of')
    .where('reversal_of', 'in', [...ids])
    .execute();
  return new Set(rows.flatMap((r) => (r.reversal_of === null ? [] : [r.reversal_of])));
}

/** Removes entries and their lines (lines first: the balance trigger needs the entry). */
export async function deleteEntries(trx: Db, ids: readonly string[]) {
  await trx
    .deleteFrom('journal_lines')
    .where('entry_id', 'in', [...ids])
    .execute();
  await trx
    .deleteFrom('journal_entries')
    .where('id', 'in', [...ids])
    .execute();
}

export interface EntryFilters {
  legal_entity_id?: string;
  status?: 'draft' | 'posted';
  payment_id?: string;
  from_post_month?: string;
  to_post_month?: string;
  from_date?: string;
  to_date?: string;
}

/** Page list, newest transaction date first. Bounds are inclusive. */
export async function listEntries(db: Db, f: EntryFilters, page: number, pageSize: number) {
  const where = [sql`true`];
  if (f.legal_entity_id) where.push(sql`e.legal_entity_id = ${f.legal_entity_id}`);
  if (f.status) where.push(sql`e.status = ${f.status}`);
  if (f.payment_id) where.push(sql`e.payment_id = ${f.payment_id}`);
  if (f.from_post_month)
    where.push(sql`reporting_month(e.post_month, e.transaction_date) >= ${f.from_post_month}::date`);
  if (f.to_post_month) where.push(sql`reporting_month(e.post_month, e.transaction_date) <= ${f.to_post_month}::date`);
  if (f.from_date) where.push(sql`e.transaction_date >= ${f.from_date}::date`);
  if (f.to_date) where.push(sql`e.transaction_date <= ${f.to_date}::date`);
  const cond = sql.join(where, sql` AND `);
  const [rows, count] = await Promise.all([
    sql<EntryRow & { total_debit: number; total_credit: number }>`SELECT ${ENTRY_COLUMNS},
        coalesce((SELECT sum(amount) FROM journal_lines l WHERE l.entry_id = e.id AND l.direction = 'debit'), 0)::int8 AS total_debit,
        coalesce((SELECT sum(amount) FROM journal_lines l WHERE l.entry_id = e.id AND l.direction = 'credit'), 0)::int8 AS total_credit
      FROM journal_entries e WHERE ${cond}
      ORDER BY e.transaction_date DESC, e.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM journal_entries e WHERE ${cond}`.execute(db),
  ]);
  const items: EntrySummary[] = rows.rows.map((r) => ({
    ...entryFields(r),
    total_debit: Number(r.total_debit),
    total_credit: Number(r.total_credit),
  }));
  return { items, total: count.rows[0]?.n ?? 0 };
}

/**
 * Whether a posted entry counts before `month` (by post month, else entry date for legacy rows);
 * drafts never count.
 */
export async function postedBefore(db: Db, entityId: string, month: string): Promise<boolean> {
  const r = await sql<{ found: boolean }>`SELECT EXISTS (
      SELECT 1 FROM journal_entries WHERE legal_entity_id = ${entityId} AND status = 'posted'
        AND reporting_month(post_month, transaction_date) < ${month}::date) AS found`.execute(db);
  return r.rows[0]?.found === true;
}
