/**
 * POST /v1/meetings/{id}/audio-slices (spec 2, "Meeting recording"; WS-419..424): about one minute
 * of a live recording's audio, transcribed through the broker and appended as live lines.
 *
 * Not a kit command: the transcription is an outside call that must not run inside a transaction.
 * Instead (evidence, index) is the request's key: a first transaction claims the index (the
 * record's lock orders concurrent claims), the broker is called with no transaction open, and a
 * second transaction appends the lines and stores the answer. A resent index, even one sent
 * while the first is still being transcribed, is answered from that row: one transcription. A
 * failed transcription lets its claim go (nothing stored) so the client may resend; a claim left
 * by a request that died is taken over once it is older than the transcription timeout.
 */
import { AppError, type Principal } from '@platform/kit';
import { audioExtension, type Transcriber, TranscriptionError } from '../clients/transcription.ts';
import { notAMeeting, notLive } from '../domain/evidence.ts';
import {
  claimSlice,
  findSlice,
  lastLineTexts,
  markSliceRead,
  releaseClaim,
  retakeStaleClaim,
} from '../store/audio-slices.ts';
import type { Db } from '../store/db.ts';
import { appendLines, listParticipants, lockEvidence } from '../store/evidence.ts';
import { readableEvidence } from './evidence.ts';
import { transcriptionHint } from './recording-flow.ts';

/** The largest slice body taken: a minute of 48 kHz stereo 16-bit WAV is 11.5 MB. */
export const AUDIO_SLICE_MAX_BYTES = 16 * 1024 * 1024;
/** How long a resent index waits for the transcription of its first sending. */
export const SLICE_WAIT_MS = 150_000;
const SLICE_POLL_MS = 50;

export interface SliceLine {
  seq: number;
  speaker: string;
  text: string;
  start_ms: number;
}

export interface SliceAnswer {
  evidence_id: string;
  index: number;
  start_ms: number;
  /** The lines this slice added (none for silence), in order. */
  lines: SliceLine[];
}

export interface SliceRequest {
  evidenceId: string;
  index: number;
  startMs: number;
  audio: Buffer;
  contentType: string;
}

export interface SliceDeps {
  db: Db;
  clock: () => Date;
  transcriber?: Transcriber;
  /** A claim older than this is its dead request's: taken over (the transcription timeout, plus margin). */
  staleClaimMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const transcriptionNotConfigured = () =>
  new AppError(
    503,
    'transcription_not_configured',
    'Transcription is not configured (BROKER_URL and TRANSCRIPTION_MODEL or TRANSCRIPTION_FAST_MODEL)',
  );

const notAuthor = () =>
  new AppError(403, 'not_recording_author', "Only the recording's author posts its audio slices", [
    { code: 'not_recording_author', message: "Only the recording's author posts its audio slices" },
  ]);

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Claimed = { kind: 'answer'; answer: SliceAnswer } | { kind: 'wait' } | { kind: 'mine'; hint: string };

/** The slice's answer: the stored one for an index already read, else a new transcription. */
export async function postAudioSlice(
  deps: SliceDeps,
  principal: Principal,
  asMember: boolean,
  req: SliceRequest,
): Promise<SliceAnswer> {
  const { transcriber } = deps;
  if (!transcriber) throw transcriptionNotConfigured();
  const sleep = deps.sleep ?? wait;
  const staleMs = deps.staleClaimMs ?? SLICE_WAIT_MS;
  const started = Date.now();
  for (;;) {
    const claimed = await deps.db.transaction().execute((trx) => claim(trx, deps, principal, asMember, req, staleMs));
    if (claimed.kind === 'answer') return claimed.answer;
    if (claimed.kind === 'mine') return transcribeSlice(deps, transcriber, principal, req, claimed.hint);
    // Another request holds the index: its answer will be this one's.
    if (Date.now() - started > SLICE_WAIT_MS) {
      throw new AppError(409, 'slice_in_progress', `Slice ${req.index} is still being transcribed`);
    }
    await sleep(SLICE_POLL_MS);
  }
}

async function claim(
  trx: Db,
  deps: SliceDeps,
  principal: Principal,
  asMember: boolean,
  req: SliceRequest,
  staleMs: number,
): Promise<Claimed> {
  const { record } = await readableEvidence(trx, principal, asMember, req.evidenceId, { lock: true });
  if (record.kind === 'note') throw notAMeeting();
  if (record.author !== principal.id) throw notAuthor();
  if (record.transcription_status !== 'live') throw notLive();
  const now = deps.clock();
  const stored = await findSlice(trx, record.id, req.index);
  if (stored?.status === 'read') return { kind: 'answer', answer: stored.answer as SliceAnswer };
  const slice = { evidenceId: record.id, index: req.index, startMs: req.startMs, bytes: req.audio.length };
  const mine = stored
    ? await retakeStaleClaim(trx, record.id, req.index, new Date(now.getTime() - staleMs), now, slice)
    : await claimSlice(trx, slice, now);
  if (!mine) return { kind: 'wait' };
  const participants = await listParticipants(trx, record.id);
  const recent = await lastLineTexts(trx, record.id, 5);
  return { kind: 'mine', hint: transcriptionHint(record.title, participants, recent) };
}

async function transcribeSlice(
  deps: SliceDeps,
  transcriber: Transcriber,
  principal: Principal,
  req: SliceRequest,
  hint: string,
): Promise<SliceAnswer> {
  let heard: Awaited<ReturnType<Transcriber['transcribe']>>;
  try {
    heard = await transcriber.transcribe({
      audio: req.audio,
      filename: `slice-${req.index}.${audioExtension(req.contentType)}`,
      contentType: req.contentType,
      hint,
      onBehalfOf: principal.id,
    });
  } catch (e) {
    await deps.db.transaction().execute((trx) => releaseClaim(trx, req.evidenceId, req.index));
    const detail = e instanceof TranscriptionError ? e.message : String((e as Error).message ?? e);
    throw new AppError(502, 'transcription_failed', `The slice was not transcribed: ${detail.slice(0, 300)}`);
  }
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock();
    const record = await lockEvidence(trx, req.evidenceId);
    if (record?.transcription_status !== 'live') {
      // Ended while this slice was transcribed: the closing call counted it missing.
      if (record) await releaseClaim(trx, req.evidenceId, req.index);
      throw notLive();
    }
    const lines = heard.map((l) => ({ speaker: l.speaker, text: l.text, start_ms: req.startMs + l.start_ms }));
    const appended = await appendLines(trx, record, lines, 'live', principal.id, now);
    const answer: SliceAnswer = {
      evidence_id: record.id,
      index: req.index,
      start_ms: req.startMs,
      lines: lines.map((l, i) => ({ seq: appended.first + i, ...l })),
    };
    await markSliceRead(trx, record.id, req.index, answer, now);
    return answer;
  });
}
