/**
 * Speech to text for the recording flow (issue 19, WS-445..447), through the model broker only:
 * POST {BROKER_URL}/v1/relay/audio/transcriptions, OpenAI's multipart form, with the platform
 * service token on behalf of the recording's author (their budget pays). Two ways, chosen once by
 * configuration and the same on both paths (audio slices and the whole file):
 *   - the fast speech provider with speaker numbers (TRANSCRIPTION_FAST_MODEL, optionally
 *     TRANSCRIPTION_FAST_PROVIDER): response_format diarized_json, each segment's speaker turned
 *     into "Speaker 1", "Speaker 2", ... in order of first appearance;
 *   - otherwise the generic endpoint and model (TRANSCRIPTION_MODEL, optionally
 *     TRANSCRIPTION_PROVIDER): response_format verbose_json, segments with their start, one
 *     unlabeled speaker ("Speaker").
 * The hint (the form's prompt) is cut at 600 characters.
 */

export const HINT_MAX = 600;
/** The speaker of a line from the generic endpoint, which tells no speakers apart. */
export const UNLABELED_SPEAKER = 'Speaker';
export const DEFAULT_TRANSCRIPTION_TIMEOUT_MS = 120_000;

export interface TranscribedLine {
  speaker: string;
  text: string;
  /** Milliseconds from the start of the audio sent. */
  start_ms: number;
}

export interface TranscriptionRequest {
  audio: Buffer;
  /** The file name the provider sees (its extension names the format). */
  filename: string;
  contentType: string;
  /** Names and words to expect; cut at 600 characters. */
  hint: string;
  /** The person billed (X-Platform-On-Behalf-Of). */
  onBehalfOf: string;
}

export interface Transcriber {
  /** fast: the provider with speaker numbers; generic: the generic endpoint and model. */
  readonly way: 'fast' | 'generic';
  /** The lines heard, in order; throws TranscriptionError when the broker refuses or fails. */
  transcribe(req: TranscriptionRequest): Promise<TranscribedLine[]>;
}

export class TranscriptionError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface TranscriptionOptions {
  /** BROKER_URL. */
  baseUrl: string;
  serviceToken?: string;
  /** TRANSCRIPTION_MODEL / TRANSCRIPTION_PROVIDER: the generic way. */
  model?: string;
  provider?: string;
  /** TRANSCRIPTION_FAST_MODEL / TRANSCRIPTION_FAST_PROVIDER: the fast way, chosen when set. */
  fastModel?: string;
  fastProvider?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Whether the options configure transcription at all (else audio slices answer 503). */
export const transcriptionConfigured = (o: Partial<TranscriptionOptions>) =>
  Boolean(o.baseUrl && (o.fastModel || o.model));

export const cutHint = (hint: string) => hint.slice(0, HINT_MAX);

/** The file extension for an audio content type (the provider reads the format from the name). */
export function audioExtension(contentType: string | undefined): string {
  const t = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const known: Record<string, string> = {
    'audio/webm': 'webm',
    'audio/ogg': 'ogg',
    'audio/mpeg': 'mp3',
    'audio/mp3': 'mp3',
    'audio/mp4': 'm4a',
    'audio/m4a': 'm4a',
    'audio/x-m4a': 'm4a',
    'audio/aac': 'm4a',
    'audio/wav': 'wav',
    'audio/x-wav': 'wav',
    'audio/wave': 'wav',
    'audio/flac': 'flac',
  };
  return known[t] ?? 'm4a';
}

interface Segment {
  start?: unknown;
  text?: unknown;
  speaker?: unknown;
}

/** The lines of a transcription reply: its segments, else its whole text as one line at 0. */
export function linesOf(reply: unknown, way: 'fast' | 'generic'): TranscribedLine[] {
  const r = (reply && typeof reply === 'object' ? reply : {}) as { segments?: unknown; text?: unknown };
  const numbers = new Map<string, number>();
  const speakerOf = (s: unknown): string => {
    if (way === 'generic' || s === undefined || s === null) return UNLABELED_SPEAKER;
    const key = String(s);
    if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
    return `Speaker ${numbers.get(key)}`;
  };
  if (Array.isArray(r.segments) && r.segments.length > 0) {
    const out: TranscribedLine[] = [];
    for (const seg of r.segments as Segment[]) {
      const text = typeof seg?.text === 'string' ? seg.text.trim() : '';
      if (!text) continue;
      const start = typeof seg.start === 'number' && Number.isFinite(seg.start) && seg.start > 0 ? seg.start : 0;
      out.push({ speaker: speakerOf(seg.speaker), text, start_ms: Math.round(start * 1000) });
    }
    return out;
  }
  const text = typeof r.text === 'string' ? r.text.trim() : '';
  return text ? [{ speaker: speakerOf(undefined), text, start_ms: 0 }] : [];
}

/** The broker's transcription relay as a Transcriber. */
export class BrokerTranscriber implements Transcriber {
  readonly way: 'fast' | 'generic';

  constructor(private readonly o: TranscriptionOptions) {
    if (!transcriptionConfigured(o)) throw new Error('BrokerTranscriber needs BROKER_URL and a transcription model');
    this.way = o.fastModel ? 'fast' : 'generic';
  }

  async transcribe(req: TranscriptionRequest): Promise<TranscribedLine[]> {
    const fast = this.way === 'fast';
    const form = new FormData();
    form.append('file', new Blob([req.audio], { type: req.contentType }), req.filename);
    form.append('model', (fast ? this.o.fastModel : this.o.model) as string);
    const provider = fast ? this.o.fastProvider : this.o.provider;
    if (provider) form.append('provider', provider);
    const hint = cutHint(req.hint);
    if (hint) form.append('prompt', hint);
    if (fast) {
      form.append('response_format', 'diarized_json');
      form.append('chunking_strategy', 'auto');
    } else {
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'segment');
    }
    const doFetch = this.o.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(new URL('/v1/relay/audio/transcriptions', this.o.baseUrl), {
        method: 'POST',
        headers: {
          ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
          'x-platform-on-behalf-of': req.onBehalfOf,
        },
        body: form,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_TRANSCRIPTION_TIMEOUT_MS),
      });
    } catch (e) {
      throw new TranscriptionError(`The model broker cannot be reached: ${(e as Error).message}`, null);
    }
    const text = await res.text();
    if (!res.ok) {
      throw new TranscriptionError(`The model broker answered ${res.status}: ${text.slice(0, 300)}`, res.status);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TranscriptionError('The model broker answered something other than JSON', res.status);
    }
    return linesOf(json, this.way);
  }
}
