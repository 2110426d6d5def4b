import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { EvidenceKind, EvidenceRecord, TranscriptionStatus } from '../domain/evidence.ts';
import type { Db, Evidence } from './db.ts';

/** All SQL of evidence (notes, meetings, recordings), its utterance lines, participants and speaker names. */

const COLUMNS = [
  'id',
  'kind',
  'source',
  'external_ref',
  'document_id',
  'device_serial',
  'author',
  'title',
  'body',
  'project_id',
  'live',
  'live_slices',
  'transcription_status',
  'last_seq',
  'transcript_first_seq',
  'archived_at',
  'contributes_to_knowledge',
  'created_at',
  'updated_at',
  'ended_at',
  'ended_by',
] as const;

const instant = (v: Date | string): Date => new Date(isoOrThrow(v));
const maybeInstant = (v: Date | string | null): Date | null => (v === null ? null : instant(v));

// The CHECKs on kind and transcription_status hold them to the domain's unions.
const toRecord = (r: Pick<Selectable<Evidence>, (typeof COLUMNS)[number]>): EvidenceRecord => ({
  id: r.id,
  kind: r.kind as EvidenceKind,
  source: r.source,
  external_ref: r.external_ref,
  document_id: r.document_id,
  device_serial: r.device_serial,
  author: r.author,
  title: r.title,
  body: r.body,
  project_id: r.project_id,
  live: r.live,
  live_slices: r.live_slices,
  transcription_status: r.transcription_status as TranscriptionStatus,
  last_seq: Number(r.last_seq),
  transcript_first_seq: Number(r.transcript_first_seq),
  archived_at: maybeInstant(r.archived_at),
  contributes_to_knowledge: r.contributes_to_knowledge,
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
  ended_at: maybeInstant(r.ended_at),
  ended_by: r.ended_by,
});

export interface NewEvidence {
  id: string;
  kind: EvidenceKind;
  source: string;
  external_ref?: string | null;
  document_id?: string | null;
  device_serial?: string | null;
  author: string;
  title?: string;
  body?: string | null;
  project_id?: string | null;
  live?: boolean;
  live_slices?: number | null;
  transcription_status: TranscriptionStatus;
  contributes_to_knowledge?: boolean;
  ended_at?: Date | null;
  ended_by?: string | null;
}

/**
 * Writes a record. With an external_ref already stored (by an earlier call or a concurrent one),
 * writes nothing and answers undefined: the unique index decides, so concurrent repeats make one row.
 */
export async function insertEvidence(trx: Db, e: NewEvidence, now: Date): Promise<EvidenceRecord | undefined> {
  const row = await trx
    .insertInto('evidence')
    .values({
      id: e.id,
      kind: e.kind,
      source: e.source,
      external_ref: e.external_ref ?? null,
      document_id: e.document_id ?? null,
      device_serial: e.device_serial ?? null,
      author: e.author,
      title: e.title ?? '',
      body: e.body ?? null,
      project_id: e.project_id ?? null,
      live: e.live ?? false,
      live_slices: e.live_slices ?? null,
      transcription_status: e.transcription_status,
      contributes_to_knowledge: e.contributes_to_knowledge ?? true,
      created_at: now,
      updated_at: now,
      ended_at: e.ended_at ?? null,
      ended_by: e.ended_by ?? null,
    })
    .onConflict((oc) => oc.column('external_ref').where('external_ref', 'is not', null).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function findEvidence(db: Db, id: string): Promise<EvidenceRecord | undefined> {
  const row = await db.selectFrom('evidence').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/** The record, locked for the rest of the transaction (appends and state changes take it first). */
export async function lockEvidence(trx: Db, id: string): Promise<EvidenceRecord | undefined> {
  const row = await trx.selectFrom('evidence').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toRecord(row);
}

/** The record with this external_ref, locked. */
export async function lockEvidenceByRef(trx: Db, externalRef: string): Promise<EvidenceRecord | undefined> {
  const row = await trx
    .selectFrom('evidence')
    .select(COLUMNS)
    .where('external_ref', '=', externalRef)
    .forUpdate()
    .executeTakeFirst();
  return row && toRecord(row);
}

export type EvidencePatch = Partial<
  Pick<
    EvidenceRecord,
    | 'title'
    | 'body'
    | 'document_id'
    | 'project_id'
    | 'live'
    | 'live_slices'
    | 'transcription_status'
    | 'transcript_first_seq'
    | 'archived_at'
    | 'contributes_to_knowledge'
    | 'ended_at'
    | 'ended_by'
  >
>;

export async function updateEvidence(trx: Db, id: string, patch: EvidencePatch, now: Date): Promise<EvidenceRecord> {
  const row = await trx
    .updateTable('evidence')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Deletes a record; its lines, participants and speaker names go with it (ON DELETE CASCADE). */
export async function deleteEvidence(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('evidence').where('id', '=', id).execute();
}

export interface NewLine {
  speaker: string;
  text: string;
  start_ms?: number | null;
}

export interface Line {
  seq: number;
  /** The name this meeting gave the label, else the label. */
  speaker: string;
  speaker_label: string;
  text: string;
  start_ms: number | null;
  origin: string;
  created_at: Date;
}

/**
 * Appends lines after the record's last one (the caller holds the record's lock): seqs
 * last_seq + 1 …, and last_seq moves on. Answers the record as it is after the append.
 */
export async function appendLines(
  trx: Db,
  ev: EvidenceRecord,
  lines: readonly NewLine[],
  origin: 'posted' | 'live' | 'file',
  writtenBy: string,
  now: Date,
): Promise<{ record: EvidenceRecord; first: number; last: number }> {
  if (lines.length === 0) return { record: ev, first: ev.last_seq + 1, last: ev.last_seq };
  const first = ev.last_seq + 1;
  await trx
    .insertInto('evidence_utterances')
    .values(
      lines.map((l, i) => ({
        evidence_id: ev.id,
        seq: first + i,
        speaker: l.speaker,
        text: l.text,
        start_ms: l.start_ms ?? null,
        origin,
        written_by: writtenBy,
        created_at: now,
      })),
    )
    .execute();
  const row = await trx
    .updateTable('evidence')
    .set({ last_seq: first + lines.length - 1, updated_at: now })
    .where('id', '=', ev.id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  const record = toRecord(row);
  return { record, first, last: first + lines.length - 1 };
}

/**
 * The transcript's lines from its first: only the speaker (named by speakers/assign, else its label)
 * and the text, as the markdown shows them (a transcript of 8,000 lines reads no more).
 */
export async function transcriptLines(
  db: Db,
  ev: EvidenceRecord,
  limit: number,
): Promise<{ speaker: string; text: string }[]> {
  return db
    .selectFrom('evidence_utterances as u')
    .leftJoin('evidence_speakers as s', (j) =>
      j.onRef('s.evidence_id', '=', 'u.evidence_id').onRef('s.label', '=', 'u.speaker'),
    )
    .select([sql<string>`coalesce(s.name, u.speaker)`.as('speaker'), 'u.text'])
    .where('u.evidence_id', '=', ev.id)
    .where('u.seq', '>=', Math.max(1, ev.transcript_first_seq))
    .orderBy('u.seq')
    .limit(limit)
    .execute();
}

/**
 * A page of the current transcript's lines after `after` (a seq), in order, with each speaker as
 * this meeting names it. Walks the primary key (evidence_id, seq) from the cursor: the cost of a
 * page does not grow with the lines before it.
 */
export async function pageLines(db: Db, ev: EvidenceRecord, after: number, limit: number): Promise<Line[]> {
  const from = Math.max(after + 1, ev.transcript_first_seq);
  const rows = await db
    .selectFrom('evidence_utterances as u')
    .leftJoin('evidence_speakers as s', (j) =>
      j.onRef('s.evidence_id', '=', 'u.evidence_id').onRef('s.label', '=', 'u.speaker'),
    )
    .select([
      'u.seq',
      sql<string>`coalesce(s.name, u.speaker)`.as('speaker'),
      'u.speaker as speaker_label',
      'u.text',
      'u.start_ms',
      'u.origin',
      'u.created_at',
    ])
    .where('u.evidence_id', '=', ev.id)
    .where('u.seq', '>=', from)
    .orderBy('u.seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    speaker: r.speaker,
    speaker_label: r.speaker_label,
    text: r.text,
    start_ms: r.start_ms === null ? null : Number(r.start_ms),
    origin: r.origin,
    created_at: instant(r.created_at),
  }));
}

export async function listParticipants(db: Db, evidenceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('evidence_participants')
    .select('name')
    .where('evidence_id', '=', evidenceId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.name);
}

/** Adds the names not yet listed, after the others (the caller holds the record's lock). Answers those added. */
export async function addParticipants(
  trx: Db,
  evidenceId: string,
  names: readonly string[],
  by: string,
  now: Date,
): Promise<string[]> {
  const have = new Set(await listParticipants(trx, evidenceId));
  const added = [...new Set(names)].filter((n) => !have.has(n));
  if (added.length === 0) return [];
  const top = await trx
    .selectFrom('evidence_participants')
    .select((eb) => eb.fn.coalesce(eb.fn.max('position'), sql<number>`0`).as('top'))
    .where('evidence_id', '=', evidenceId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('evidence_participants')
    .values(
      added.map((name, i) => ({
        evidence_id: evidenceId,
        position: Number(top.top) + i + 1,
        name,
        added_by: by,
        added_at: now,
      })),
    )
    .execute();
  return added;
}

export interface SpeakerName {
  label: string;
  name: string;
  principal_id: string | null;
}

/** Names a speaker label for this meeting only (a second assignment of the label replaces the first). */
export async function assignSpeaker(trx: Db, evidenceId: string, s: SpeakerName, by: string, now: Date): Promise<void> {
  await trx
    .insertInto('evidence_speakers')
    .values({ evidence_id: evidenceId, ...s, assigned_by: by, assigned_at: now })
    .onConflict((oc) =>
      oc.columns(['evidence_id', 'label']).doUpdateSet({
        name: s.name,
        principal_id: s.principal_id,
        assigned_by: by,
        assigned_at: now,
      }),
    )
    .execute();
}

export async function listSpeakers(db: Db, evidenceId: string): Promise<SpeakerName[]> {
  return db
    .selectFrom('evidence_speakers')
    .select(['label', 'name', 'principal_id'])
    .where('evidence_id', '=', evidenceId)
    .orderBy('label')
    .execute();
}

/** Whether any line (of any generation) of the record has this speaker label. */
export async function hasSpeakerLabel(db: Db, evidenceId: string, label: string): Promise<boolean> {
  const row = await db
    .selectFrom('evidence_utterances')
    .select('seq')
    .where('evidence_id', '=', evidenceId)
    .where('speaker', '=', label)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A line as GET …/utterances shows it. */
export const utteranceView = (l: Line) => ({
  seq: l.seq,
  speaker: l.speaker,
  speaker_label: l.speaker_label,
  text: l.text,
  start_ms: l.start_ms,
  created_at: l.created_at.toISOString(),
});
