import { CursorEnvelope, cursorMeta, decodeCursor, Envelope, unprocessable } from '@platform/kit';
import { readableEvidence } from '../commands/evidence.ts';
import { addMeetingParticipants, appendUtterances, assignMeetingSpeaker, openMeeting } from '../commands/meetings.ts';
import { notAMeeting, UTTERANCE_PAGE } from '../domain/evidence.ts';
import { AsMemberHeaders, Command } from '../schemas/common.ts';
import {
  AppendedLines,
  EvidenceParams,
  EvidenceView,
  MeetingInput,
  Participants,
  ParticipantsInput,
  Speaker,
  SpeakerAssignInput,
  Utterance,
  UtteranceListQuery,
  UtterancesInput,
} from '../schemas/evidence.ts';
import { pageLines, utteranceView } from '../store/evidence.ts';
import { asMember, type Routes, route } from './deps.ts';

const tags = ['notes and meetings'];

/** The seq a cursor of GET .../utterances carries (422 invalid_cursor for anything else). */
function afterSeq(after: string | undefined): number {
  if (after === undefined) return 0;
  const key = decodeCursor(after);
  const seq = key?.[0];
  if (key?.length !== 1 || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
    throw unprocessable('invalid_cursor', 'The after cursor is not one this service issued', 'querystring/after');
  }
  return seq;
}

const WRITERS =
  "Readers: the author, members of the meeting's project, platform admins (others 404). Writers: the author, the " +
  "project's editors and owners, platform admins (a reader who is not one: 403). A note is 409 not_a_meeting.";

export const meetingRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/meetings',
    action: 'use',
    tags,
    summary: 'Open a meeting, thread, recorder recording or phone recording (a repeated external_ref returns it)',
    description:
      'source: manual, zoom, teams, google_meet (video meetings), slack, email (threads), recorder (the hardware ' +
      'recorder) or phone; kind defaults from it (recorder and phone: recording). A recorder external_ref is ' +
      'recorder:<serial>:<session_id> (device_serial, if sent, is that serial, else taken from it); a phone one ' +
      'phone:<install_id>:<uuidv7> with no device_serial (the key is absent in the answer); other sources use neither ' +
      'prefix (422 invalid_external_ref). Repeating an external_ref returns the existing record (same id, also 201; ' +
      'concurrent repeats make one row): a new document_id repoints it and live_slices (the closing call of a live ' +
      'recording) is stored and ends it through the recording flow; a repeat by a caller who cannot read the record ' +
      'is 409 external_ref_taken. live: true opens a recording about to send audio (transcription_status live). ' +
      'transcript writes the lines of a meeting at once; an empty transcript deletes the meeting (answered with ' +
      'deleted: true; evidence.deleted; GET /v1/evidence/{id} is 404 afterwards). project_id files it on a project ' +
      'the caller edits.',
    body: Command(MeetingInput),
    response: Envelope(EvidenceView),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'invalid_external_ref',
      'external_ref_taken',
      'invalid_evidence_text',
      'invalid_title',
    ],
    run: (ctx, { body }) => openMeeting(ctx, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/meetings/:evidenceId/utterances',
    action: 'use',
    tags,
    summary: 'Append utterance lines (speaker and text) at the end; lines are never edited or deleted',
    description: `1 to 200 lines a call, each speaker 1 to 200 and text 1 to 10,000 characters trimmed (422 invalid_evidence_text); start_ms optional. No route edits or deletes a line. ${WRITERS}`,
    params: EvidenceParams,
    body: Command(UtterancesInput),
    response: Envelope(AppendedLines),
    status: 201,
    errors: ['evidence_not_found', 'not_a_meeting', 'invalid_evidence_text'],
    run: (ctx, { params, body }) => appendUtterances(ctx, params.evidenceId, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/meetings/:evidenceId/utterances',
    action: 'use',
    tags,
    summary: 'The lines in order, cursor paged: pass meta.pagination.nextCursor back as after (100, at most 200)',
    description: `speaker reads the name speakers/assign gave the label for this meeting, speaker_label the line as written. nextCursor is null on the last page. ${WRITERS}`,
    schema: { headers: AsMemberHeaders },
    params: EvidenceParams,
    query: UtteranceListQuery,
    response: CursorEnvelope(Utterance),
    errors: ['evidence_not_found', 'not_a_meeting', 'invalid_cursor'],
    handler: async ({ params, query, principal, req, reply }, deps) => {
      const after = afterSeq(query.after);
      const db = deps.database.db;
      const { record } = await readableEvidence(db, principal, asMember(req), params.evidenceId);
      if (record.kind === 'note') throw notAMeeting();
      const limit = Math.min(query.limit ?? UTTERANCE_PAGE.default, UTTERANCE_PAGE.max);
      const rows = await pageLines(db, record, after, limit + 1);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const next = rows.length > limit && last ? [last.seq] : null;
      return reply.envelope(items.map(utteranceView), cursorMeta(limit, next));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/meetings/:evidenceId/participants',
    action: 'use',
    tags,
    summary: 'Add late joiners to the participants (listed after those already there; repeats skipped)',
    description: `1 to 100 names, each 1 to 200 characters trimmed. ${WRITERS}`,
    params: EvidenceParams,
    body: Command(ParticipantsInput),
    response: Envelope(Participants),
    errors: ['evidence_not_found', 'not_a_meeting', 'invalid_evidence_text'],
    run: (ctx, { params, body }) => addMeetingParticipants(ctx, params.evidenceId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/meetings/:evidenceId/speakers/assign',
    action: 'use',
    tags,
    summary: 'Name an unlabeled speaker for this meeting only (publishes evidence.speaker_attributed)',
    description: `label is a speaker of this meeting's lines (422 unknown_speaker); its lines then read name (other meetings with the same label are unchanged); a later assignment of the label replaces it. principal_id names the person, for attribution. ${WRITERS}`,
    params: EvidenceParams,
    body: Command(SpeakerAssignInput),
    response: Envelope(Speaker),
    errors: ['evidence_not_found', 'not_a_meeting', 'unknown_speaker', 'invalid_evidence_text'],
    run: (ctx, { params, body }) => assignMeetingSpeaker(ctx, params.evidenceId, body.data),
  }),
];
