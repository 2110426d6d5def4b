import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * All SQL of the recording flow (issue 19): the audio slices of live recordings (claimed, then
 * read with their answer) and the recordings whose file waits to be transcribed whole.
 */

export interface SliceRow {
  slice_index: number;
  start_ms: number;
  status: 'claimed' | 'read';
  answer: unknown;
  claimed_at: Date;
}

const toSlice = (r: {
  slice_index: number;
  start_ms: number;
  status: string;
  answer: unknown;
  claimed_at: Date | string;
}): SliceRow => ({
  slice_index: Number(r.slice_index),
  start_ms: Number(r.start_ms),
  status: r.status as SliceRow['status'],
  answer: r.answer,
  claimed_at: new Date(r.claimed_at),
});

export async function findSlice(db: Db, evidenceId: string, index: number): Promise<SliceRow | undefined> {
  const row = await db
    .selectFrom('evidence_audio_slices')
    .select(['slice_index', 'start_ms', 'status', 'answer', 'claimed_at'])
    .where('evidence_id', '=', evidenceId)
    .where('slice_index', '=', index)
    .executeTakeFirst();
  return row && toSlice(row);
}

/** Claims (evidence, index) for one transcription; undefined when a row is there already. */
export async function claimSlice(
  trx: Db,
  s: { evidenceId: string; index: number; startMs: number; bytes: number },
  now: Date,
): Promise<boolean> {
  const row = await trx
    .insertInto('evidence_audio_slices')
    .values({
      evidence_id: s.evidenceId,
      slice_index: s.index,
      start_ms: s.startMs,
      byte_size: s.bytes,
      status: 'claimed',
      claimed_at: now,
    })
    .onConflict((oc) => oc.columns(['evidence_id', 'slice_index']).doNothing())
    .returning('slice_index')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes over a claim left since `staleBefore` (its request died); true when this caller now holds it. */
export async function retakeStaleClaim(
  trx: Db,
  evidenceId: string,
  index: number,
  staleBefore: Date,
  now: Date,
  s: { startMs: number; bytes: number },
): Promise<boolean> {
  const row = await trx
    .updateTable('evidence_audio_slices')
    .set({ claimed_at: now, start_ms: s.startMs, byte_size: s.bytes })
    .where('evidence_id', '=', evidenceId)
    .where('slice_index', '=', index)
    .where('status', '=', 'claimed')
    .where('claimed_at', '<', staleBefore)
    .returning('slice_index')
    .executeTakeFirst();
  return row !== undefined;
}

/** Lets a claim go (its transcription failed): a resend claims the index afresh. */
export async function releaseClaim(trx: Db, evidenceId: string, index: number): Promise<void> {
  await trx
    .deleteFrom('evidence_audio_slices')
    .where('evidence_id', '=', evidenceId)
    .where('slice_index', '=', index)
    .where('status', '=', 'claimed')
    .execute();
}

/** The slice was transcribed and its lines appended: its answer is kept for a resent index. */
export async function markSliceRead(trx: Db, evidenceId: string, index: number, answer: unknown, now: Date) {
  await trx
    .updateTable('evidence_audio_slices')
    .set({ status: 'read', answer: JSON.stringify(answer), read_at: now })
    .where('evidence_id', '=', evidenceId)
    .where('slice_index', '=', index)
    .execute();
}

/** How many of the slices 0 .. count-1 were read. */
export async function countReadSlices(db: Db, evidenceId: string, count: number): Promise<number> {
  const row = await db
    .selectFrom('evidence_audio_slices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('evidence_id', '=', evidenceId)
    .where('status', '=', 'read')
    .where('slice_index', '<', count)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The text of the last lines written (the hint of the next slice), newest last. */
export async function lastLineTexts(db: Db, evidenceId: string, n: number): Promise<string[]> {
  const rows = await db
    .selectFrom('evidence_utterances')
    .select(['seq', 'text'])
    .where('evidence_id', '=', evidenceId)
    .orderBy('seq', 'desc')
    .limit(n)
    .execute();
  return rows.reverse().map((r) => r.text);
}

// ---- Recordings whose file is to be transcribed whole -------------------------------------

/** Leaves the file of a recording to the worker (again from its first attempt when already there). */
export async function queueFileTranscription(trx: Db, evidenceId: string, now: Date): Promise<void> {
  await trx
    .insertInto('recording_transcriptions')
    .values({ evidence_id: evidenceId, attempts: 0, claimed_until: null, last_error: null, created_at: now })
    .onConflict((oc) =>
      oc.column('evidence_id').doUpdateSet({ attempts: 0, claimed_until: null, last_error: null, created_at: now }),
    )
    .execute();
}

export interface FileJob {
  evidence_id: string;
  attempts: number;
}

/**
 * Claims the oldest due job (never claimed, or its lease over) until `until`, counting the
 * attempt; SKIP LOCKED so two workers never take the same one.
 */
export async function claimFileJob(trx: Db, now: Date, until: Date): Promise<FileJob | undefined> {
  const due = await trx
    .selectFrom('recording_transcriptions')
    .select('evidence_id')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('created_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!due) return undefined;
  const row = await trx
    .updateTable('recording_transcriptions')
    .set({ claimed_until: until, attempts: sql<number>`attempts + 1` })
    .where('evidence_id', '=', due.evidence_id)
    .returning(['evidence_id', 'attempts'])
    .executeTakeFirstOrThrow();
  return { evidence_id: row.evidence_id, attempts: Number(row.attempts) };
}

/** A failed attempt: its error kept, due again after `retryAt`. */
export async function failFileJob(trx: Db, evidenceId: string, error: string, retryAt: Date): Promise<void> {
  await trx
    .updateTable('recording_transcriptions')
    .set({ last_error: error.slice(0, 1000), claimed_until: retryAt })
    .where('evidence_id', '=', evidenceId)
    .execute();
}

export async function deleteFileJob(trx: Db, evidenceId: string): Promise<void> {
  await trx.deleteFrom('recording_transcriptions').where('evidence_id', '=', evidenceId).execute();
}

export async function findFileJob(db: Db, evidenceId: string) {
  return db.selectFrom('recording_transcriptions').selectAll().where('evidence_id', '=', evidenceId).executeTakeFirst();
}
