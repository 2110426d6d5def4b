import { cursorQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import {
  EVIDENCE_KINDS,
  LINE_TEXT_MAX,
  MEETING_KINDS,
  MEETING_SOURCES,
  NAME_MAX,
  NOTE_BODY_MAX,
  TITLE_MAX,
  TRANSCRIPT_MAX_LINES,
  TRANSCRIPTION_STATUSES,
  UTTERANCE_PAGE,
  UTTERANCES_PER_POST,
} from '../domain/evidence.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

export const EvidenceParams = Type.Object({ evidenceId: Uuid });

/** A record of any kind (GET /v1/evidence/{evidenceId}; every evidence command answers one). */
export const EvidenceView = Type.Object({
  id: Uuid,
  kind: literals(EVIDENCE_KINDS, 'note, meeting, thread or recording (importers also write email, file, chat, code)'),
  source: Type.String({
    description:
      'note; manual; zoom, teams, google_meet (video meetings); slack, email (threads); recorder (the hardware recorder); phone',
  }),
  external_ref: Type.Union([Type.String(), Type.Null()], {
    description: 'recorder:<serial>:<session_id>, phone:<install_id>:<uuidv7>, or the source’s own reference',
  }),
  document_id: Type.Union([Type.String(), Type.Null()], { description: 'The file in the documents service' }),
  device_serial: Type.Optional(
    Type.String({ description: "The recorder's serial; the key is absent for phone recordings and other sources" }),
  ),
  author: PrincipalId,
  title: Type.String(),
  body: Type.Union([Type.String(), Type.Null()], { description: "A note's text (its transcript); null otherwise" }),
  project_id: Type.Union([Uuid, Type.Null()], { description: 'null while unfiled' }),
  live: Type.Boolean({ description: 'Opened with live: true (audio slices follow until it ends)' }),
  live_slices: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'How many audio slices the client sent, from the closing call; null until then',
  }),
  transcription_status: literals(
    TRANSCRIPTION_STATUSES,
    'none (nothing to transcribe), live, pending, transcribing, transcribed, no_speech, failed',
  ),
  line_count: Type.Integer({ minimum: 0, description: 'Utterance lines of the current transcript' }),
  archived: Type.Boolean(),
  archived_at: Type.Union([Timestamp, Type.Null()]),
  contributes_to_knowledge: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  ended_at: Type.Union([Timestamp, Type.Null()], { description: 'When a live record ended' }),
  deleted: Type.Optional(
    Type.Boolean({
      description: 'true on the answer that deleted the meeting (a transcript with no lines); it reads 404 afterwards',
    }),
  ),
});
export type EvidenceView = Static<typeof EvidenceView>;

const Title = Type.String({ maxLength: TITLE_MAX, description: `0 to ${TITLE_MAX} characters, trimmed` });
const Body = Type.String({ minLength: 1, maxLength: NOTE_BODY_MAX });

export const NoteInput = Type.Object(
  {
    body: Body,
    title: Type.Optional(Title),
    project_id: Type.Optional(Uuid),
    contributes_to_knowledge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NoteInput = Static<typeof NoteInput>;

export const NotePatch = Type.Object(
  {
    body: Type.Optional(Body),
    title: Type.Optional(Title),
    archived: Type.Optional(Type.Boolean({ description: 'true archives the note, false restores it' })),
    contributes_to_knowledge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type NotePatch = Static<typeof NotePatch>;

export const LineInput = Type.Object(
  {
    speaker: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'A name, or a label such as Speaker 1' }),
    text: Type.String({ minLength: 1, maxLength: LINE_TEXT_MAX }),
    start_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'Milliseconds from the start of the recording' })),
  },
  { additionalProperties: false },
);
export type LineInput = Static<typeof LineInput>;

const Names = Type.Array(Type.String({ minLength: 1, maxLength: NAME_MAX }), { minItems: 1, maxItems: 100 });

export const MeetingInput = Type.Object(
  {
    source: literals(MEETING_SOURCES, 'manual, zoom, teams, google_meet, slack, email, recorder or phone'),
    kind: Type.Optional(
      literals(MEETING_KINDS, 'meeting, thread or recording; default from the source (recorder, phone: recording)'),
    ),
    external_ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'recorder:<serial>:<session_id> (source recorder), phone:<install_id>:<uuidv7> (source phone)',
      }),
    ),
    document_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    device_serial: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'recorder only: the serial of its external_ref' }),
    ),
    title: Type.Optional(Title),
    project_id: Type.Optional(Uuid),
    live: Type.Optional(Type.Boolean({ description: 'true: a recording about to send audio (status live)' })),
    live_slices: Type.Optional(
      Type.Integer({ minimum: 0, description: 'On the closing call: how many audio slices were sent' }),
    ),
    participants: Type.Optional(Names),
    transcript: Type.Optional(
      Type.Array(LineInput, {
        maxItems: UTTERANCES_PER_POST,
        description: 'The lines of a meeting written up at once; an empty list deletes the meeting',
      }),
    ),
    contributes_to_knowledge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type MeetingInput = Static<typeof MeetingInput>;

export const UtterancesInput = Type.Object(
  { lines: Type.Array(LineInput, { minItems: 1, maxItems: UTTERANCES_PER_POST }) },
  { additionalProperties: false },
);
export type UtterancesInput = Static<typeof UtterancesInput>;

export const Utterance = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  speaker: Type.String({ description: 'The name given to the label for this meeting, else the label' }),
  speaker_label: Type.String({ description: 'The speaker as the line was written' }),
  text: Type.String(),
  start_ms: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Timestamp,
});
export type Utterance = Static<typeof Utterance>;

export const AppendedLines = Type.Object({
  evidence_id: Uuid,
  first_seq: Type.Integer(),
  last_seq: Type.Integer(),
  line_count: Type.Integer({ minimum: 0 }),
});
export type AppendedLines = Static<typeof AppendedLines>;

export const UtteranceListQuery = Type.Object(
  cursorQuery({ limit: UTTERANCE_PAGE.default, maxLimit: UTTERANCE_PAGE.max }),
  {
    additionalProperties: false,
  },
);

export const TranscriptQuery = Type.Object(
  {
    format: Type.Optional(Type.Literal('markdown', { description: 'markdown (the only format)' })),
    max_lines: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: TRANSCRIPT_MAX_LINES,
        default: 0,
        description: `Stop after this many lines; 0 means the whole record up to ${TRANSCRIPT_MAX_LINES} lines`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const Transcript = Type.Object({
  evidence_id: Uuid,
  format: Type.Literal('markdown'),
  participants: Type.Array(Type.String()),
  lines: Type.Integer({ minimum: 0, description: 'Lines in markdown' }),
  total_lines: Type.Integer({ minimum: 0, description: 'Lines the whole record has' }),
  markdown: Type.String({
    description:
      'A line "Participants: a, b" then a blank line, then one "speaker: text" per line (a note: its body as written)',
  }),
  truncated: Type.Optional(
    Type.Object(
      {
        from_line: Type.Integer({ minimum: 1 }),
        to_line: Type.Integer({ minimum: 1 }),
        count: Type.Integer({ minimum: 1 }),
      },
      { description: 'Present only when lines were left out: lines from_line to to_line (1-based), count of them' },
    ),
  ),
});
export type Transcript = Static<typeof Transcript>;

export const ParticipantsInput = Type.Object({ names: Names }, { additionalProperties: false });
export type ParticipantsInput = Static<typeof ParticipantsInput>;

export const Participants = Type.Object({
  evidence_id: Uuid,
  participants: Type.Array(Type.String()),
  added: Type.Array(Type.String(), { description: 'The names this call added (already listed ones are skipped)' }),
});
export type Participants = Static<typeof Participants>;

export const SpeakerAssignInput = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: NAME_MAX, description: "A speaker label of this meeting's lines" }),
    name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
    principal_id: Type.Optional(PrincipalId),
  },
  { additionalProperties: false },
);
export type SpeakerAssignInput = Static<typeof SpeakerAssignInput>;

export const Speaker = Type.Object({
  evidence_id: Uuid,
  label: Type.String(),
  name: Type.String(),
  principal_id: Type.Union([PrincipalId, Type.Null()]),
});
export type Speaker = Static<typeof Speaker>;
