import type { Db } from '@platform/kit';
import { sql } from 'kysely';

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
export async function lockEntityOfEntry(trx: Db, entryId: string): Promise<string | undefined> {
  const r = await sql<{ legal_entity_id: string }>`SELECT legal_entity_id,
      pg_advisory_xact_lock_shared(${keyOf('legal_entity_id')}) AS locked
    FROM journal_entries WHERE id = ${entryId}`.execute(trx);
  return r.rows[0]?.legal_entity_id;
}

/** A legal entity with its shared lock taken in the same statement; undefined when unknown. */
export async function lockEntitySharedReturning(trx: Db, entityId: string) {
  const r = await sql<{ id: string; chart_code: string; status: string }>`SELECT id, chart_code, status,
      pg_advisory_xact_lock_shared(${keyOf('id')}) AS locked
    FROM legal_entities WHERE id = ${entityId}`.execute(trx);
  return r.rows[0];
}
