import type { Db } from '@platform/kit';
import { sql } from 'kysely';

/**
 * Per-entity advisory locks. Calendar commands, closing and reopening take the entity lock
 * exclusively; posting, reversal, deletion and draft edits take it shared (and lock their entry
 * rows). So postings run side by side, but never beside a close, a reopen or a calendar change
 * of the same entity: a posting cannot land in a month closed under it.
 */
const key = (entityId: string) => `accounting:entity:${entityId}`;

export async function lockEntityExclusive(trx: Db, entityId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key(entityId)}, 0))`.execute(trx);
}

export async function lockEntityShared(trx: Db, entityId: string) {
  await sql`SELECT pg_advisory_xact_lock_shared(hashtextextended(${key(entityId)}, 0))`.execute(trx);
}
