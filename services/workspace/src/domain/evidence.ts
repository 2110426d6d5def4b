import { conflict, forbidden, notFound, type Principal, unprocessable } from '@platform/kit';
import { actsAsAdmin } from './permissions.ts';

/**
 * Evidence (spec 2, "Evidence, meeting, utterance"): the kinds, sources and transcription states a
 * record takes, the shapes of external references, and who may read or change one.
 */
export const EVIDENCE_KINDS = ['note', 'meeting', 'thread', 'recording', 'email', 'file', 'chat', 'code'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The kinds POST /v1/meetings opens. */
export const MEETING_KINDS = ['meeting', 'thread', 'recording'] as const;
export type MeetingKind = (typeof MEETING_KINDS)[number];

/** Video meeting sources (spec: "values for a video meeting"). */
export const VIDEO_SOURCES = ['zoom', 'teams', 'google_meet'] as const;
/** The sources POST /v1/meetings accepts: by hand, a video meeting, a chat or mail thread, a recorder or phone. */
export const MEETING_SOURCES = ['manual', ...VIDEO_SOURCES, 'slack', 'email', 'recorder', 'phone'] as const;
export type MeetingSource = (typeof MEETING_SOURCES)[number];
/** Sources whose records are recordings (audio); the others are meetings or threads. */
export const RECORDING_SOURCES = ['recorder', 'phone'] as const;
/** Sources whose meetings turn next steps into commitment claims when summarised. */
export const SUMMARY_SOURCES = [...VIDEO_SOURCES, 'recorder', 'phone'] as const;

export const TRANSCRIPTION_STATUSES = [
  'none',
  'live',
  'pending',
  'transcribing',
  'transcribed',
  'no_speech',
  'failed',
] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

/** Limits (spec 2, Limits): a page of utterances, the whole transcript. */
export const UTTERANCE_PAGE = { default: 100, max: 200 } as const;
export const TRANSCRIPT_MAX_LINES = 8000;
/** Lines one POST …/utterances may append. */
export const UTTERANCES_PER_POST = 200;
export const TITLE_MAX = 200;
export const NOTE_BODY_MAX = 100_000;
export const LINE_TEXT_MAX = 10_000;
export const NAME_MAX = 200;

export interface EvidenceRecord {
  id: string;
  kind: EvidenceKind;
  source: string;
  external_ref: string | null;
  document_id: string | null;
  device_serial: string | null;
  author: string;
  title: string;
  body: string | null;
  project_id: string | null;
  live: boolean;
  live_slices: number | null;
  transcription_status: TranscriptionStatus;
  last_seq: number;
  transcript_first_seq: number;
  archived_at: Date | null;
  contributes_to_knowledge: boolean;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
  ended_by: string | null;
}

/** How many lines the current transcript has (lines before transcript_first_seq were replaced). */
export const lineCount = (r: Pick<EvidenceRecord, 'last_seq' | 'transcript_first_seq'>): number =>
  Math.max(0, r.last_seq - r.transcript_first_seq + 1);

// recorder:<serial>:<session_id>, phone:<install_id>:<uuidv7>.
const PART = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';
const RECORDER_REF = new RegExp(`^recorder:(${PART}):(${PART})$`);
const UUIDV7 = '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const PHONE_REF = new RegExp(`^phone:(${PART}):(${UUIDV7})$`);

export const invalidExternalRef = (detail: string) => unprocessable('invalid_external_ref', detail, 'external_ref');

/**
 * Checks a meeting's source, external_ref and device_serial together: a recorder's reference is
 * recorder:<serial>:<session_id> (a device_serial sent must be that serial); a phone's is
 * phone:<install_id>:<uuidv7> and carries no device_serial; other sources may not use either prefix.
 */
export function checkExternalRef(source: string, ref: string | undefined, serial: string | undefined): void {
  if (source === 'recorder') {
    const m = ref === undefined ? null : RECORDER_REF.exec(ref);
    if (!m) throw invalidExternalRef('A recorder recording needs external_ref recorder:<serial>:<session_id>');
    if (serial !== undefined && serial !== m[1]) {
      throw invalidExternalRef("device_serial must be the serial in the recorder's external_ref");
    }
    return;
  }
  if (source === 'phone') {
    if (ref === undefined || !PHONE_REF.test(ref)) {
      throw invalidExternalRef('A phone recording needs external_ref phone:<install_id>:<uuidv7> (lowercase uuidv7)');
    }
    if (serial !== undefined) throw invalidExternalRef('A phone recording has no device_serial');
    return;
  }
  if (serial !== undefined) throw invalidExternalRef('device_serial is for recorder recordings only');
  if (ref !== undefined && /^(recorder|phone):/.test(ref)) {
    throw invalidExternalRef(`external_ref ${ref.split(':')[0]}:… is for source ${ref.split(':')[0]} only`);
  }
}

/** The kind a meeting's source opens when the caller names none. */
export const defaultMeetingKind = (source: string): MeetingKind =>
  (RECORDING_SOURCES as readonly string[]).includes(source)
    ? 'recording'
    : source === 'slack' || source === 'email'
      ? 'thread'
      : 'meeting';

export const evidenceNotFound = () => notFound('Evidence record', 'evidence_not_found');
export const notLive = () => conflict('not_live', 'The record is not live');
export const notAMeeting = () =>
  conflict('not_a_meeting', 'Only a meeting, thread or recording has utterances, participants and speakers');

/**
 * Who may read a record: its author; the members of its project (any role) when it is filed; and
 * platform admins (not while X-Platform-As-Member: true). Everyone else gets 404.
 */
export function mayRead(p: Principal, asMember: boolean, r: EvidenceRecord, projectRole: string | null): boolean {
  return r.author === p.id || projectRole !== null || actsAsAdmin(p, asMember);
}

/**
 * Who may add lines, participants or speaker names to a meeting: its author, the editors and
 * owners of its project when it is filed, and platform admins.
 */
export function mayWrite(p: Principal, asMember: boolean, r: EvidenceRecord, projectRole: string | null): boolean {
  return r.author === p.id || projectRole === 'owner' || projectRole === 'editor' || actsAsAdmin(p, asMember);
}

/**
 * end-live (spec 2, Meeting recording): the record must be live (409 not_live); a platform admin
 * may end any; the author only while it has no lines (403 end_live_refused); anyone else 403.
 */
export function checkEndLive(p: Principal, asMember: boolean, r: EvidenceRecord): void {
  if (r.transcription_status !== 'live') throw notLive();
  if (actsAsAdmin(p, asMember)) return;
  if (r.author === p.id && lineCount(r) === 0) return;
  throw forbidden(
    r.author === p.id
      ? 'The author may end a live record only while it has no lines; a platform admin may end it'
      : 'Only a platform admin, or the author while it has no lines, may end a live record',
    'end_live_refused',
  );
}

/** The status a live record takes when it ends: its lines are the transcript, none is no_speech. */
export const endedStatus = (r: EvidenceRecord): TranscriptionStatus =>
  lineCount(r) === 0 ? 'no_speech' : 'transcribed';

/** Trims a title (0 to 200 characters). */
export function titleOf(title: string | undefined): string {
  const t = (title ?? '').trim();
  if (t.length > TITLE_MAX) throw unprocessable('invalid_title', `title is at most ${TITLE_MAX} characters`, 'title');
  return t;
}

/** Participants for a transcript: those listed, then the speakers of the lines shown not already listed. */
export function transcriptParticipants(listed: readonly string[], speakers: readonly string[]): string[] {
  const out = [...listed];
  const seen = new Set(listed);
  for (const s of speakers) {
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

/**
 * A meeting's transcript as markdown: "Participants: a, b" (or "Participants: none listed"), a
 * blank line, then one "speaker: text" per line.
 */
export function meetingMarkdown(participants: readonly string[], lines: readonly { speaker: string; text: string }[]) {
  const head = `Participants: ${participants.length > 0 ? participants.join(', ') : 'none listed'}`;
  return [head, '', ...lines.map((l) => `${l.speaker}: ${l.text}`)].join('\n');
}

/** How many lines a transcript shows: max_lines (0: the whole record) capped at 8000. */
export const transcriptLimit = (maxLines: number | undefined): number =>
  maxLines === undefined || maxLines === 0 ? TRANSCRIPT_MAX_LINES : Math.min(maxLines, TRANSCRIPT_MAX_LINES);

/** The lines left out of a transcript showing `shown` of `total`, or undefined when none were. */
export const leftOut = (shown: number, total: number) =>
  shown < total ? { from_line: shown + 1, to_line: total, count: total - shown } : undefined;
