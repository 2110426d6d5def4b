import { conflict, forbidden, unprocessable, uuidv7 } from '@platform/kit';
import {
  checkExternalRef,
  defaultMeetingKind,
  type EvidenceRecord,
  LINE_TEXT_MAX,
  lineCount,
  mayRead,
  mayWrite,
  NAME_MAX,
  titleOf,
} from '../domain/evidence.ts';
import { trimmedText } from '../domain/text.ts';
import type {
  AppendedLines,
  EvidenceView,
  LineInput,
  MeetingInput,
  Participants,
  ParticipantsInput,
  Speaker,
  SpeakerAssignInput,
  UtterancesInput,
} from '../schemas/evidence.ts';
import {
  addParticipants,
  appendLines,
  assignSpeaker,
  type EvidencePatch,
  hasSpeakerLabel,
  insertEvidence,
  listParticipants,
  lockEvidenceByRef,
  type NewLine,
  updateEvidence,
} from '../store/evidence.ts';
import { memberRole } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { deleteForNoLines, evidenceView, writableMeeting } from './evidence.ts';
import { projectForWrite } from './project-access.ts';
import { closeRecording } from './recording-flow.ts';

const text = (raw: string, what: string, field: string, max: number) =>
  trimmedText(raw, { max, code: 'invalid_evidence_text', what, field });

const lines = (input: readonly LineInput[], field: string): NewLine[] =>
  input.map((l, i) => ({
    speaker: text(l.speaker, 'A speaker', `${field}/${i}/speaker`, NAME_MAX),
    text: text(l.text, 'A line', `${field}/${i}/text`, LINE_TEXT_MAX),
    start_ms: l.start_ms ?? null,
  }));

const names = (input: readonly string[], field: string) =>
  input.map((n, i) => text(n, 'A name', `${field}/${i}`, NAME_MAX));

/**
 * THE RECORDING FLOW HOOK (helper B fills it in): called in the command's transaction when a
 * recording's audio is complete — the closing call of POST /v1/meetings (live_slices sent), or a
 * recording opened not live with its file (document_id) already stored. It decides what the
 * transcript is: every live slice read → the live lines are the transcript and the file is not
 * reread; any slice missing (or no live audio at all) → the file is transcribed whole and its
 * lines replace the live ones (appended, with transcript_first_seq moved past the live lines). A
 * transcript that ends with no lines deletes the recording (deleteForNoLines).
 *
 * The flow is commands/recording-flow.ts (closeRecording): a file to transcribe whole goes pending,
 * with a durable row the recording worker picks up.
 */
export function onRecordingClosed(ctx: CommandCtx, r: EvidenceRecord): Promise<EvidenceRecord> {
  return closeRecording(ctx, r);
}

/**
 * POST /v1/meetings: opens a meeting, thread, recorder recording or phone recording, or answers the
 * record an earlier call opened with the same external_ref (the unique index decides between
 * concurrent repeats: one row). A repeat may repoint document_id and carries live_slices on the
 * closing call. A transcript sent with no lines deletes the meeting (evidence.deleted).
 */
export async function openMeeting(ctx: CommandCtx, input: MeetingInput): Promise<EvidenceView> {
  const { trx, principal, now } = ctx;
  checkExternalRef(input.source, input.external_ref, input.device_serial);
  const title = titleOf(input.title);
  const transcript = input.transcript && lines(input.transcript, 'data/transcript');
  const participants = input.participants && names(input.participants, 'data/participants');
  if (input.project_id !== undefined) await projectForWrite(ctx, input.project_id, 'editor');
  const kind = input.kind ?? defaultMeetingKind(input.source);
  const live = input.live ?? false;
  const serial =
    input.source === 'recorder' ? (input.device_serial ?? input.external_ref?.split(':')[1] ?? null) : null;

  const created = await insertEvidence(
    trx,
    {
      id: uuidv7(now.getTime()),
      kind,
      source: input.source,
      external_ref: input.external_ref ?? null,
      document_id: input.document_id ?? null,
      device_serial: serial,
      author: principal.id,
      title,
      project_id: input.project_id ?? null,
      live,
      live_slices: input.live_slices ?? null,
      transcription_status: live ? 'live' : kind === 'recording' && input.document_id ? 'pending' : 'none',
      contributes_to_knowledge: input.contributes_to_knowledge ?? true,
    },
    now,
  );
  let record: EvidenceRecord;
  let closing: boolean;
  if (created) {
    record = created;
    // A recording opened with its file and no live audio is complete already.
    closing = kind === 'recording' && !live && input.document_id !== undefined;
  } else {
    record = await repeated(ctx, input);
    closing = record.kind === 'recording' && input.live_slices !== undefined;
  }
  if (participants) await addParticipants(trx, record.id, participants, principal.id, now);
  if (transcript !== undefined) {
    if (transcript.length === 0) {
      await deleteForNoLines(ctx, record);
      return { ...evidenceView(record), deleted: true };
    }
    const appended = await appendLines(trx, record, transcript, 'posted', principal.id, now);
    record = await updateEvidence(
      trx,
      record.id,
      { transcript_first_seq: appended.first, transcription_status: 'transcribed' },
      now,
    );
  } else if (closing) {
    record = await onRecordingClosed(ctx, record);
  }
  return evidenceView(record);
}

/** The record of a repeated external_ref: returned to those who may read it, changed by those who may write it. */
async function repeated(ctx: CommandCtx, input: MeetingInput): Promise<EvidenceRecord> {
  const { trx, principal, asMember, now } = ctx;
  const ref = input.external_ref as string;
  const record = await lockEvidenceByRef(trx, ref);
  if (!record) throw new Error('an external_ref that conflicted on insert is stored');
  const role = record.project_id === null ? null : await memberRole(trx, record.project_id, principal.id);
  if (!mayRead(principal, asMember, record, role)) {
    throw conflict('external_ref_taken', 'This external_ref belongs to a record the caller cannot read');
  }
  const set: EvidencePatch = {};
  if (input.document_id !== undefined && input.document_id !== record.document_id) set.document_id = input.document_id;
  if (input.live_slices !== undefined && input.live_slices !== record.live_slices) set.live_slices = input.live_slices;
  const writes = Object.keys(set).length > 0 || input.participants !== undefined || input.transcript !== undefined;
  if (!writes) return record;
  if (!mayWrite(principal, asMember, record, role)) {
    throw forbidden("Only the record's author, its project's editors and owners, and platform admins change it");
  }
  return Object.keys(set).length > 0 ? updateEvidence(trx, record.id, set, now) : record;
}

/**
 * POST /v1/meetings/{id}/utterances: appends lines after the last one. Lines are never edited or
 * deleted. Lines posted while the record is live are live lines; a meeting with no transcript yet
 * reads transcribed once it has lines.
 */
export async function appendUtterances(ctx: CommandCtx, id: string, input: UtterancesInput): Promise<AppendedLines> {
  const { record } = await writableMeeting(ctx, id);
  const newLines = lines(input.lines, 'data/lines');
  const live = record.transcription_status === 'live';
  const appended = await appendLines(ctx.trx, record, newLines, live ? 'live' : 'posted', ctx.principal.id, ctx.now);
  let after = appended.record;
  if (['none', 'no_speech'].includes(after.transcription_status)) {
    after = await updateEvidence(ctx.trx, after.id, { transcription_status: 'transcribed' }, ctx.now);
  }
  return { evidence_id: after.id, first_seq: appended.first, last_seq: appended.last, line_count: lineCount(after) };
}

/** POST /v1/meetings/{id}/participants: late joiners, listed after those already there. */
export async function addMeetingParticipants(
  ctx: CommandCtx,
  id: string,
  input: ParticipantsInput,
): Promise<Participants> {
  const { record } = await writableMeeting(ctx, id);
  const added = await addParticipants(ctx.trx, record.id, names(input.names, 'data/names'), ctx.principal.id, ctx.now);
  return { evidence_id: record.id, participants: await listParticipants(ctx.trx, record.id), added };
}

/**
 * POST /v1/meetings/{id}/speakers/assign: names a speaker label of this meeting's lines, for this
 * meeting only (422 unknown_speaker when no line has the label), and publishes
 * evidence.speaker_attributed (the label and person id, never the name).
 */
export async function assignMeetingSpeaker(ctx: CommandCtx, id: string, input: SpeakerAssignInput): Promise<Speaker> {
  const { record } = await writableMeeting(ctx, id);
  const label = input.label.trim();
  if (!(await hasSpeakerLabel(ctx.trx, record.id, label))) {
    throw unprocessable('unknown_speaker', `No line of this meeting has the speaker ${JSON.stringify(label)}`, 'label');
  }
  const name = text(input.name, 'The name', 'data/name', NAME_MAX);
  const principalId = input.principal_id ?? null;
  await assignSpeaker(ctx.trx, record.id, { label, name, principal_id: principalId }, ctx.principal.id, ctx.now);
  await ctx.emit({
    type: 'evidence.speaker_attributed',
    data: { evidenceId: record.id, projectId: record.project_id, label, principalId, actor: ctx.principal.id },
  });
  return { evidence_id: record.id, label, name, principal_id: principalId };
}
