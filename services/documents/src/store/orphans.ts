import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * The advisory-lock key of a blob name: registration marking and the reaper take it. Scoped by
 * schema, so that two services or test schemas on one database never share keys.
 */
const blobKey = (name: unknown) => sql`hashtextextended(current_schema() || ' blob ' || ${name}, 0)`;

/**
 * Marks a blob's registration in flight. One statement: the blob's lock is taken before the insert
 * and held until it commits, so a reaper deciding about this blob finishes (and deletes) first, or
 * sees the mark.
 */
export async function markInFlight(db: Db, id: string, blobName: string, now: Date): Promise<void> {
  await sql`
    INSERT INTO registrations_in_flight (id, blob_name, started_at)
    SELECT ${id}::uuid, ${blobName}, ${now}::timestamptz FROM (SELECT pg_advisory_xact_lock(${blobKey(blobName)})) l`.execute(
    db,
  );
}

export async function clearInFlight(db: Db, id: string): Promise<void> {
  await sql`DELETE FROM registrations_in_flight WHERE id = ${id}::uuid`.execute(db);
}

export interface BlobLocation {
  account: string;
  container: string;
  name: string;
}

/**
 * The blob names of `blobs` whose locks this transaction got; a name another transaction holds
 * (a registration marking it, another replica's reaper) is skipped for this run. A statement of
 * its own: the orphan check that follows must see what was committed before the locks were taken.
 */
export async function lockBlobNames(trx: Db, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const r = await sql<{ name: string }>`
    SELECT n AS name FROM unnest(${names}::text[]) AS n WHERE pg_try_advisory_xact_lock(${blobKey(sql`n`)})`.execute(
    trx,
  );
  return new Set(r.rows.map((row) => row.name));
}

/**
 * Which of the (locked) blobs are orphans, in one query: no document records the blob's name and
 * no registration of that name started at or after `inFlightSince`. The name alone decides, as
 * for registration (a minted name belongs to one document wherever it is): two catalog accounts
 * may name one storage account, so the catalog account a document names is not where its blob
 * must be listed from.
 */
export async function orphansAmong(trx: Db, blobs: BlobLocation[], inFlightSince: Date): Promise<BlobLocation[]> {
  if (blobs.length === 0) return [];
  const r = await sql<{ account: string; container: string; name: string }>`
    SELECT b.account, b.container, b.name
    FROM unnest(${blobs.map((b) => b.account)}::text[], ${blobs.map((b) => b.container)}::text[],
      ${blobs.map((b) => b.name)}::text[]) AS b (account, container, name)
    WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.blob_name = b.name)
      AND NOT EXISTS (
        SELECT 1 FROM registrations_in_flight f
        WHERE f.blob_name = b.name AND f.started_at >= ${inFlightSince}::timestamptz)`.execute(trx);
  return r.rows;
}

/** Forgets marks left by registrations that never ended (a stopped process). */
export async function dropStaleMarks(db: Db, inFlightSince: Date): Promise<number> {
  const r = await sql`DELETE FROM registrations_in_flight WHERE started_at < ${inFlightSince}::timestamptz`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
