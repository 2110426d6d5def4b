import { sql } from 'kysely';
import type { AccountRef } from '../domain/journal.ts';
import type { Db } from './db.ts';

/**
 * Per-entity advisory locks. Calendar commands, closing and reopening take the entity lock
 * exclusively; posting, reversal, deletion and draft edits take it shared (and lock their entry
 * rows). So postings run side by side, but never beside a close, a reopen or a calendar change
 * of the same entity: a posting cannot land in a month closed under it.
 */
/** The lock key, always from the canonical (lower-case) text of the uuid, whatever case came in. */
const keyOf = (column: string) => sql`hashtextextended('accounting:entity:' || ${sql.ref(column)}::text, 0)`;

export async function lockEntityExclusive(trx: Db, entityId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended('accounting:entity:' || ${entityId}::uuid::text, 0))`.execute(
    trx,
  );
}

/**
 * The entity of an entry, with the entity's shared lock taken in the same statement (the entity
 * lock always comes before the entry's row lock). Undefined for an unknown entry.
 */
export async function lockEntityOfEntry(trx: Db, entryId: string, lockRow = false): Promise<string | undefined> {
  // With lockRow, PostgreSQL evaluates the select list (the advisory lock) before FOR UPDATE
  // locks the row, so the order stays entity lock, then row lock.
  const r = await sql<{ legal_entity_id: string }>`SELECT legal_entity_id,
      pg_advisory_xact_lock_shared(${keyOf('legal_entity_id')}) AS locked
    FROM journal_entries WHERE id = ${entryId} ${lockRow ? sql`FOR UPDATE` : sql``}`.execute(trx);
  return r.rows[0]?.legal_entity_id;
}

/**
 * A legal entity with its shared lock taken in the same statement, and the accounts named by
 * `accountIds`; undefined when the entity is unknown. The row values come from the statement's
 * snapshot, taken before any wait for the lock: no exclusive entity command changes an entity's
 * status or its accounts, and posting re-checks the accounts.
 */
export async function lockEntitySharedReturning(trx: Db, entityId: string, accountIds: readonly string[] = []) {
  const r = await sql<{
    id: string;
    chart_code: string;
    status: string;
    accounts: unknown;
  }>`SELECT id, chart_code, status,
      pg_advisory_xact_lock_shared(${keyOf('id')}) AS locked,
      (SELECT json_agg(json_build_object('id', a.id, 'chart_code', a.chart_code, 'is_postable', a.is_postable))
        FROM accounts a WHERE a.id = ANY(${[...new Set(accountIds)]}::uuid[])) AS accounts
    FROM legal_entities WHERE id = ${entityId}`.execute(trx);
  const row = r.rows[0];
  if (!row) return undefined;
  const list = (typeof row.accounts === 'string' ? JSON.parse(row.accounts) : row.accounts) as AccountRef[] | null;
  return { ...row, accounts: new Map((list ?? []).map((a) => [a.id, a])) };
}

/**
 * Every entity keeping books in `chartCode`, locked exclusively in id order: an account-use change
 * then never lands between a posting's check of its accounts and its commit.
 */
export async function lockEntitiesOfChart(trx: Db, chartCode: string) {
  await sql`SELECT pg_advisory_xact_lock(${keyOf('id')}) FROM (
      SELECT id FROM legal_entities WHERE chart_code = ${chartCode} ORDER BY id) AS entities`.execute(trx);
}
