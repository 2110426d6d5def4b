import { type App, AppError, Envelope, unprocessable } from '@platform/kit';
import { AUDIO_SLICE_MAX_BYTES, postAudioSlice } from '../commands/audio-slices.ts';
import { AudioSliceBody, AudioSliceQuery, SliceAnswer } from '../schemas/audio-slices.ts';
import { EvidenceParams } from '../schemas/evidence.ts';
import { asMember, type Routes, route } from './deps.ts';
import './transcription-deps.ts';

const tags = ['notes and meetings'];
export const AUDIO_SLICE_URL = '/v1/meetings/:evidenceId/audio-slices';

/** The body as the raw-body parser keeps it: the bytes behind a getter (the kit's input walk passes over it). */
export class AudioBytes {
  readonly #bytes: Buffer;
  constructor(
    bytes: Buffer,
    readonly contentType: string,
  ) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

/**
 * Raw audio bodies (application/octet-stream, audio/*) for the audio-slice route only: read as
 * bytes up to AUDIO_SLICE_MAX_BYTES (413 body_too_large beyond); any other route sent such a body
 * answers 415 as before.
 */
export function addAudioBodyParser(app: App): void {
  for (const type of ['application/octet-stream', /^audio\/[a-z0-9.+-]+/i]) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: AUDIO_SLICE_MAX_BYTES }, (req, body, done) => {
      if (req.routeOptions.url !== AUDIO_SLICE_URL) {
        done(new AppError(415, 'unsupported_media_type', 'The body is not application/json'), undefined);
        return;
      }
      done(null, new AudioBytes(body as Buffer, String(req.headers['content-type'] ?? 'application/octet-stream')));
    });
  }
}

export const audioSliceRoutes: Routes = [
  route({
    method: 'POST',
    url: AUDIO_SLICE_URL,
    action: 'use',
    tags,
    summary:
      'Post about one minute of a live recording’s audio: transcribed through the broker, appended as live lines',
    description:
      'The body is the raw audio (Content-Type application/octet-stream or audio/*, e.g. audio/webm; at most 16 MiB, ' +
      'else 413; empty: 422 validation_failed); index (from 0) and start_ms (where the slice starts in the ' +
      "recording) in the query. The recording's author only (others who can read it 403 not_recording_author, " +
      'the rest 404; nothing stored), and only while transcription_status is live (409 not_live, also after ' +
      'end-live or the closing call). The lines heard are appended with start_ms plus their offset. A resent index ' +
      'is answered from what was stored (the same answer, no second transcription), also while its first sending ' +
      'is still being transcribed (the resend waits for it; 409 slice_in_progress after 150 s). 503 ' +
      'transcription_not_configured without BROKER_URL and a transcription model; 502 transcription_failed when ' +
      'the broker fails (nothing stored: resend the index). The fast provider with speaker numbers labels lines ' +
      '"Speaker 1", "Speaker 2", ...; the generic model "Speaker". Not a command: the index is the request\'s key ' +
      '(no Idempotency-Key).',
    schema: { consumes: ['application/octet-stream', 'audio/*'] },
    params: EvidenceParams,
    query: AudioSliceQuery,
    body: AudioSliceBody,
    response: Envelope(SliceAnswer),
    errors: [
      'evidence_not_found',
      'not_a_meeting',
      'not_recording_author',
      'not_live',
      'slice_in_progress',
      'transcription_not_configured',
      'transcription_failed',
    ],
    command: false,
    handler: async ({ params, query, body, principal, req, reply }, deps) => {
      const audio = body instanceof AudioBytes ? body : undefined;
      if (!audio || audio.bytes.length === 0) {
        throw unprocessable('validation_failed', 'The body must be the raw audio of the slice', 'body');
      }
      const answer = await postAudioSlice(
        { db: deps.database.db, clock: deps.clock, transcriber: deps.transcriber },
        principal,
        asMember(req),
        {
          evidenceId: params.evidenceId,
          index: query.index,
          startMs: query.start_ms,
          audio: audio.bytes,
          contentType: audio.contentType,
        },
      );
      return reply.envelope(answer);
    },
  }),
];
