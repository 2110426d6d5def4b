import { isServiceMinted } from './blob-names.ts';

/**
 * The orphan reaper's rules (spec 1, Documents SAS rule 3: an oversized or never-registered blob
 * stays in its container "until an orphan reaper removes it"). An orphan is a service-minted blob
 * that no document records at its location, written longer ago than the grace period, that no
 * registration is working on.
 */

/** DOCUMENTS_ORPHAN_GRACE_HOURS when unset: as long as the longest SAS lifetime (24 h). */
export const DEFAULT_ORPHAN_GRACE_HOURS = 24;
/** DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES when unset. */
export const DEFAULT_ORPHAN_REAP_INTERVAL_MINUTES = 60;
/** Blobs decided and deleted per transaction: the blob names' locks are held that long. */
export const ORPHAN_BATCH_SIZE = 50;
/**
 * A registration's in-flight mark counts this long. A registration lasts seconds (one HEAD, one
 * transaction); a mark this old was left by a process that stopped mid-registration.
 */
export const IN_FLIGHT_LIMIT_MS = 60 * 60 * 1000;

/**
 * Whether a listed blob may be an orphan, before the database is asked: a name the service mints
 * (a blob anyone else put in the container is never touched) and a last write before the grace
 * period began. The age counts from the last write, not the creation: an upload that overwrote
 * the blob, or finished late under a renewed SAS, starts the grace period again.
 */
export const mayBeOrphan = (blob: { name: string; lastModified: Date }, now: Date, graceHours: number) =>
  isServiceMinted(blob.name) && blob.lastModified.getTime() <= now.getTime() - graceHours * 3_600_000;

/** Marks started before this instant no longer count as registrations in flight. */
export const inFlightSince = (now: Date) => new Date(now.getTime() - IN_FLIGHT_LIMIT_MS);
