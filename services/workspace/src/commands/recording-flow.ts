/**
 * The recording flow (spec 2, "Meeting recording"; issue 19, WS-441..447): what the transcript of
 * a recording is once its audio is complete, and the durable step that transcribes a file whole.
 *
 * The closing call (POST /v1/meetings with the recording's document_id and live_slices) decides in
 * its own transaction (closeRecording, through meetings.ts's hook):
 *   - every slice 0 .. live_slices-1 was read: the live lines are the transcript (transcribed; no
 *     lines at all: no_speech) and the file is not reread;
 *   - any slice missing, or no live audio at all, with a file: the record goes pending and a
 *     recording_transcriptions row is written beside it, so a crash after the answer loses
 *     nothing. The RecordingTranscriber (a worker started with the service) claims the row for a
 *     lease, reads the file through the documents service, transcribes it through the broker and,
 *     in one transaction, appends the file's lines and moves transcript_first_seq past the live
 *     ones: they replace them (the live lines stay stored, never rewritten). A claim whose worker
 *     died is taken again when its lease is over; after MAX_ATTEMPTS failures the record is failed.
 * Transcribing a whole file takes minutes on a long recording: inside the closing request it would
 * hold the client (and a crash would lose it), so it runs here, off the request.
 */
import type { Documents } from '../clients/documents.ts';
import { cutHint, type Transcriber } from '../clients/transcription.ts';
import { type EvidenceRecord, endedStatus, lineCount } from '../domain/evidence.ts';
import {
  claimFileJob,
  countReadSlices,
  deleteFileJob,
  failFileJob,
  queueFileTranscription,
} from '../store/audio-slices.ts';
import type { Db } from '../store/db.ts';
import { appendLines, findEvidence, listParticipants, lockEvidence, updateEvidence } from '../store/evidence.ts';
import type { CommandCtx } from './context.ts';

/** A recording file larger than this is not sent (the providers take 25 MB a file): the record fails. */
export const RECORDING_FILE_MAX_BYTES = 25 * 1024 * 1024;
export const MAX_ATTEMPTS = 5;
/** How long a worker holds a claimed file before another may take it. */
export const FILE_LEASE_MS = 15 * 60_000;
/** A failed attempt is retried after this long. */
export const RETRY_AFTER_MS = 60_000;
export const RECORDING_WORKER_INTERVAL_MS = 5_000;
/** The name the provider sees for a whole recording file (the format is read from the bytes). */
export const RECORDING_FILE_NAME = 'recording.m4a';
export const RECORDING_FILE_TYPE = 'audio/mp4';

/** The hint sent with a transcription: the title, the participants, then the latest text heard. */
export function transcriptionHint(title: string, participants: readonly string[], recent: readonly string[]): string {
  const head = [title.trim(), participants.length > 0 ? `Participants: ${participants.join(', ')}.` : '']
    .filter(Boolean)
    .join('. ');
  const tail = recent.join(' ').trim();
  if (!tail) return cutHint(head);
  const room = 600 - head.length - 1;
  // The words just before the audio matter most: keep the end of the recent text.
  return cutHint(room > 0 ? `${head} ${tail.slice(-room)}`.trim() : head);
}

/**
 * The recording's audio is complete (the closing call, or a recording opened with its file and no
 * live audio): decides its transcript in the caller's transaction.
 */
export async function closeRecording(ctx: CommandCtx, r: EvidenceRecord): Promise<EvidenceRecord> {
  const { trx, now } = ctx;
  const ended =
    r.ended_at === null && r.transcription_status === 'live' ? { ended_at: now, ended_by: ctx.principal.id } : {};
  const slices = r.live_slices ?? 0;
  const allRead = slices > 0 && (await countReadSlices(trx, r.id, slices)) === slices;
  if (allRead || !r.document_id) {
    // Every slice was read (the file is stored, not reread), or there is no file to read.
    const status = lineCount(r) > 0 ? 'transcribed' : endedStatus(r);
    return updateEvidence(trx, r.id, { transcription_status: status, ...ended }, now);
  }
  await queueFileTranscription(trx, r.id, now);
  return updateEvidence(trx, r.id, { transcription_status: 'pending', ...ended }, now);
}

export interface RecordingTranscriberOptions {
  transcriber?: Transcriber;
  documents?: Documents;
  clock?: () => Date;
  onError?: (e: unknown) => void;
}

/** What one run did: files transcribed, attempts that failed, records given up as failed. */
export interface RecordingRun {
  transcribed: number;
  failed: number;
  gaveUp: number;
}

/** The worker that transcribes recording files whole (one at a time per process). */
export class RecordingTranscriber {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Db,
    private readonly o: RecordingTranscriberOptions,
  ) {
    this.clock = o.clock ?? (() => new Date());
  }

  /** Works through every due file; answers what it did. */
  async run(): Promise<RecordingRun> {
    const out: RecordingRun = { transcribed: 0, failed: 0, gaveUp: 0 };
    const { transcriber, documents } = this.o;
    if (!transcriber || !documents) return out;
    for (;;) {
      const now = this.clock();
      const job = await this.db
        .transaction()
        .execute((trx) => claimFileJob(trx, now, new Date(now.getTime() + FILE_LEASE_MS)));
      if (!job) return out;
      const outcome = await this.transcribeFile(job.evidence_id, job.attempts, transcriber, documents);
      out[outcome] += 1;
    }
  }

  private async transcribeFile(
    id: string,
    attempts: number,
    transcriber: Transcriber,
    documents: Documents,
  ): Promise<keyof RecordingRun> {
    const record = await findEvidence(this.db, id);
    if (!record || !['pending', 'transcribing'].includes(record.transcription_status) || !record.document_id) {
      // Ended otherwise meanwhile (deleted, or its lines posted): nothing to do.
      await this.db.transaction().execute((trx) => deleteFileJob(trx, id));
      return 'transcribed';
    }
    try {
      if (record.transcription_status === 'pending') {
        await this.db
          .transaction()
          .execute((trx) => updateEvidence(trx, id, { transcription_status: 'transcribing' }, this.clock()));
      }
      const file = await documents.readBack(record.document_id, RECORDING_FILE_MAX_BYTES);
      if (!file.ok) throw new Error(`The documents service answered ${file.status} ${file.code}: ${file.message}`);
      const participants = await listParticipants(this.db, id);
      const lines = await transcriber.transcribe({
        audio: file.bytes,
        filename: RECORDING_FILE_NAME,
        contentType: RECORDING_FILE_TYPE,
        hint: transcriptionHint(record.title, participants, []),
        onBehalfOf: record.author,
      });
      await this.db.transaction().execute(async (trx) => {
        const now = this.clock();
        const locked = await lockEvidence(trx, id);
        if (!locked || !['pending', 'transcribing'].includes(locked.transcription_status)) {
          await deleteFileJob(trx, id);
          return;
        }
        const appended = await appendLines(trx, locked, lines, 'file', locked.author, now);
        await updateEvidence(
          trx,
          id,
          lines.length > 0
            ? { transcript_first_seq: appended.first, transcription_status: 'transcribed' }
            : { transcript_first_seq: locked.last_seq + 1, transcription_status: 'no_speech' },
          now,
        );
        await deleteFileJob(trx, id);
      });
      return 'transcribed';
    } catch (e) {
      this.o.onError?.(e);
      const message = (e as Error).message ?? String(e);
      const now = this.clock();
      if (attempts >= MAX_ATTEMPTS) {
        await this.db.transaction().execute(async (trx) => {
          await updateEvidence(trx, id, { transcription_status: 'failed' }, now);
          await deleteFileJob(trx, id);
        });
        return 'gaveUp';
      }
      await this.db
        .transaction()
        .execute((trx) => failFileJob(trx, id, message, new Date(now.getTime() + RETRY_AFTER_MS)));
      return 'failed';
    }
  }

  start(intervalMs: number = RECORDING_WORKER_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.run()
        .catch((e) => this.o.onError?.(e))
        .finally(() => {
          this.running = undefined;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
