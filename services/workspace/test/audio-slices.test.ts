import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import {
  BrokerTranscriber,
  HINT_MAX,
  type Transcriber,
  type TranscriptionRequest,
} from '../src/clients/transcription.ts';
import { EDITOR, type Harness, harness, OUTSIDER, tag, VIEWER } from './harness.ts';

/**
 * Audio slices (WS-419..424) and the transcription client's choices (WS-445..447) against the
 * REAL model broker in-process, in front of its fake provider (which "hears" the audio bytes as
 * `speaker: text` lines, five seconds each): every provider call is counted at the provider.
 */
let broker: RelayHarness;
let h: Harness;
let bare: Harness;
let generic: BrokerTranscriber;
let fast: BrokerTranscriber;
/** The transcriber the app holds: the generic one unless a test switches to the fast one. */
let current: Transcriber;
const switchable: Transcriber = {
  get way() {
    return current.way;
  },
  transcribe: (req: TranscriptionRequest) => current.transcribe(req),
};

beforeAll(async () => {
  broker = await relayHarness();
  const common = { baseUrl: broker.url, serviceToken: BROKER_SERVICE_TOKEN };
  generic = new BrokerTranscriber({ ...common, model: 'whisper-1' });
  fast = new BrokerTranscriber({ ...common, model: 'whisper-1', fastModel: 'gpt-4o-transcribe-diarize' });
  current = generic;
  h = await harness({ app: { transcriber: switchable } });
  bare = await harness();
}, 120_000);
afterAll(async () => {
  await h?.close_();
  await bare?.close_();
  await broker?.close();
});

const phoneRef = () => `phone:install-${tag()}:${uuidv7ish()}`;
/** A v7-shaped uuid (the phone external_ref wants one). */
function uuidv7ish(): string {
  const u = randomUUID().split('');
  u[14] = '7';
  u[19] = '8';
  return u.join('');
}

/** Provider calls of the transcription endpoint so far. */
const transcriptions = () => broker.fake.requests.filter((r) => r.path === '/v1/audio/transcriptions');

async function openLive(as = EDITOR, extra: Record<string, unknown> = {}, on: Harness = h) {
  const r = await on.call('POST', '/v1/meetings', as, {
    data: { source: 'phone', external_ref: phoneRef(), live: true, title: `Site walk ${tag()}`, ...extra },
  });
  on.expectStatus('open live', r, 201);
  return r.data as { id: string; external_ref: string; transcription_status: string };
}

function slice(
  id: string,
  index: number,
  startMs: number,
  audio: string,
  as = EDITOR,
  on: Harness = h,
  type = 'audio/webm',
) {
  return on.app
    .inject({
      method: 'POST',
      url: `/v1/meetings/${id}/audio-slices?index=${index}&start_ms=${startMs}`,
      headers: { 'x-dev-principal': as, 'content-type': type },
      payload: Buffer.from(audio),
    })
    .then((r) => ({ status: r.statusCode, body: r.json() as { payload: { data: SliceData; errors?: Err[] } } }));
}
interface SliceData {
  evidence_id: string;
  index: number;
  start_ms: number;
  lines: { seq: number; speaker: string; text: string; start_ms: number }[];
}
interface Err {
  code: string;
}
const codes = (r: { body: { payload: { errors?: Err[] } } }) => (r.body.payload.errors ?? []).map((e) => e.code);

async function utterances(id: string, as = EDITOR) {
  const r = await h.call('GET', `/v1/meetings/${id}/utterances?limit=200`, as);
  h.expectStatus('utterances', r, 200);
  return (r.data as { speaker: string; text: string; start_ms: number }[]).map((l) => [l.speaker, l.text, l.start_ms]);
}

const sliceRows = async (on: Harness = h) =>
  Number(
    (
      await on.database.db
        .selectFrom('evidence_audio_slices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('audio slices', () => {
  it('19 WS-419 WS-446 a minute of raw audio with index and start_ms is transcribed through the broker (generic model) and appended as live lines at start_ms plus their offset', async () => {
    const m = await openLive();
    expect(m.transcription_status).toBe('live');
    const before = transcriptions().length;
    const first = await slice(m.id, 0, 0, 'Ann: Morning all\nBob: Morning');
    expect(first.status).toBe(200);
    expect(first.body.payload.data).toEqual({
      evidence_id: m.id,
      index: 0,
      start_ms: 0,
      lines: [
        { seq: 1, speaker: 'Speaker', text: 'Morning all', start_ms: 0 },
        { seq: 2, speaker: 'Speaker', text: 'Morning', start_ms: 5000 },
      ],
    });
    const second = await slice(m.id, 1, 60_000, 'Ann: First item is the roof');
    expect(second.status).toBe(200);
    expect(second.body.payload.data.lines).toEqual([
      { seq: 3, speaker: 'Speaker', text: 'First item is the roof', start_ms: 60_000 },
    ]);
    expect(await utterances(m.id)).toEqual([
      ['Speaker', 'Morning all', 0],
      ['Speaker', 'Morning', 5000],
      ['Speaker', 'First item is the roof', 60_000],
    ]);
    // Two provider calls, both the generic endpoint and model (WS-446), through the broker.
    const sent = transcriptions().slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.map((r) => [r.json.model, r.json.response_format])).toEqual([
      ['whisper-1', 'verbose_json'],
      ['whisper-1', 'verbose_json'],
    ]);
    expect(sent[0]?.json.file).toMatchObject({ name: 'slice-0.webm', text: 'Ann: Morning all\nBob: Morning' });
    // Billed to the author through the broker's usage.
    const rows = await broker.usageRows();
    expect(rows.filter((r) => r.request_kind === 'transcription').length).toBeGreaterThanOrEqual(2);
  });

  it('19 WS-420 only the author posts slices: a reader of the meeting is refused 403, anyone else 404; nothing stored, nothing transcribed', async () => {
    const p = await h.team();
    const m = await openLive(EDITOR, { project_id: p.id });
    const rows = await sliceRows();
    const calls = transcriptions().length;
    const reader = await slice(m.id, 0, 0, 'Vic: not mine', VIEWER);
    expect(reader.status).toBe(403);
    expect(codes(reader)).toEqual(['not_recording_author']);
    const stranger = await slice(m.id, 0, 0, 'Oz: not mine', OUTSIDER);
    expect(stranger.status).toBe(404);
    expect(codes(stranger)).toEqual(['evidence_not_found']);
    expect(await sliceRows()).toBe(rows);
    expect(transcriptions().length).toBe(calls);
    expect(await utterances(m.id)).toEqual([]);
  });

  it('19 WS-421 a meeting that is not live refuses slices 409 not_live; nothing stored', async () => {
    const r = await h.call('POST', '/v1/meetings', EDITOR, {
      data: { source: 'phone', external_ref: phoneRef(), title: 'Not live' },
    });
    h.expectStatus('open', r, 201);
    const rows = await sliceRows();
    const calls = transcriptions().length;
    const refused = await slice(r.data.id, 0, 0, 'Ann: hello');
    expect(refused.status).toBe(409);
    expect(codes(refused)).toEqual(['not_live']);
    expect(await sliceRows()).toBe(rows);
    expect(transcriptions().length).toBe(calls);
  });

  it('19 WS-422 a slice after the recording ended (end-live, or the closing call) is 409 not_live', async () => {
    const ended = await openLive();
    h.expectStatus('end-live', await h.call('POST', `/v1/evidence/${ended.id}/end-live`, EDITOR, {}), 200);
    const afterEnd = await slice(ended.id, 0, 0, 'Ann: too late');
    expect([afterEnd.status, codes(afterEnd)]).toEqual([409, ['not_live']]);

    const closed = await openLive();
    expect((await slice(closed.id, 0, 0, 'Ann: one')).status).toBe(200);
    const closing = await h.call('POST', '/v1/meetings', EDITOR, {
      data: { source: 'phone', external_ref: closed.external_ref, live_slices: 1 },
    });
    h.expectStatus('closing call', closing, 201);
    const afterClose = await slice(closed.id, 1, 60_000, 'Ann: two');
    expect([afterClose.status, codes(afterClose)]).toEqual([409, ['not_live']]);
    // A resent index after the end is refused the same way.
    expect((await slice(closed.id, 0, 0, 'Ann: one')).status).toBe(409);
  });

  it('19 WS-423 a resent index is answered from what was stored: the same answer, no second transcription', async () => {
    const m = await openLive();
    const first = await slice(m.id, 0, 0, 'Ann: Budget first\nBob: Agreed');
    expect(first.status).toBe(200);
    const calls = transcriptions().length;
    // Resent, even with other bytes: the stored answer, no provider call, no new lines.
    const again = await slice(m.id, 0, 0, 'Ann: Budget first\nBob: Agreed');
    const other = await slice(m.id, 0, 0, 'Zed: something else');
    // The same answer: status and payload (the envelope's header is per request).
    expect([again.status, again.body.payload]).toEqual([200, first.body.payload]);
    expect([other.status, other.body.payload]).toEqual([200, first.body.payload]);
    expect(transcriptions().length).toBe(calls);
    expect(await utterances(m.id)).toHaveLength(2);
  });

  it('19 WS-423 a slice index resent concurrently is transcribed once: every request gets the same answer', async () => {
    const m = await openLive();
    const calls = transcriptions().length;
    const sent = await Promise.all(
      Array.from({ length: 4 }, () => slice(m.id, 0, 0, 'Ann: Together now\nBob: Once only')),
    );
    expect(sent.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    for (const s of sent) expect(s.body.payload).toEqual(sent[0]?.body.payload);
    expect(transcriptions().length).toBe(calls + 1);
    expect(await utterances(m.id)).toEqual([
      ['Speaker', 'Together now', 0],
      ['Speaker', 'Once only', 5000],
    ]);
  });

  it('19 WS-424 without a configured transcription a slice is refused 503; nothing stored', async () => {
    const m = await openLive(EDITOR, {}, bare);
    const rows = await sliceRows(bare);
    const refused = await slice(m.id, 0, 0, 'Ann: hello', EDITOR, bare);
    expect(refused.status).toBe(503);
    expect(codes(refused)).toEqual(['transcription_not_configured']);
    expect(await sliceRows(bare)).toBe(rows);
  });

  it('19 WS-419 a slice body must be raw audio: empty or JSON is 422, and a broker failure stores nothing so the index can be resent', async () => {
    const m = await openLive();
    const empty = await slice(m.id, 0, 0, '');
    expect([empty.status, codes(empty)]).toEqual([422, ['validation_failed']]);
    const json = await h.app.inject({
      method: 'POST',
      url: `/v1/meetings/${m.id}/audio-slices?index=0&start_ms=0`,
      headers: { 'x-dev-principal': EDITOR, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(422);
    broker.fake.failNext({ status: 500 });
    const failed = await slice(m.id, 0, 0, 'Ann: retry me', EDITOR, h, 'application/octet-stream');
    expect([failed.status, codes(failed)]).toEqual([502, ['transcription_failed']]);
    expect(await utterances(m.id)).toEqual([]);
    const retried = await slice(m.id, 0, 0, 'Ann: retry me', EDITOR, h, 'application/octet-stream');
    expect(retried.status).toBe(200);
    expect(retried.body.payload.data.lines.map((l) => l.text)).toEqual(['retry me']);
  });
});

describe('the transcription provider', () => {
  it('19 WS-445 with the fast speech provider configured, slices go to it and its speakers become speaker numbers', async () => {
    current = fast;
    try {
      const m = await openLive();
      const before = transcriptions().length;
      const r = await slice(m.id, 0, 0, 'Ann: Hello\nBob: Hi Ann\nAnn: Shall we');
      expect(r.status).toBe(200);
      expect(r.body.payload.data.lines.map((l) => [l.speaker, l.text, l.start_ms])).toEqual([
        ['Speaker 1', 'Hello', 0],
        ['Speaker 2', 'Hi Ann', 5000],
        ['Speaker 1', 'Shall we', 10_000],
      ]);
      const sent = transcriptions().slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.json).toMatchObject({ model: 'gpt-4o-transcribe-diarize', response_format: 'diarized_json' });
    } finally {
      current = generic;
    }
  });

  it('19 WS-447 the hint sent to the provider is cut at 600 characters', async () => {
    // A long title, many participants and long earlier lines make a hint over 600 characters.
    const names = Array.from({ length: 40 }, (_, i) => `Participant number ${i} ${tag()}`);
    const m = await openLive(EDITOR, { title: `Quarterly review ${'of the east wing '.repeat(10)}`.slice(0, 200) });
    h.expectStatus(
      'participants',
      await h.call('POST', `/v1/meetings/${m.id}/participants`, EDITOR, { data: { names } }),
      200,
    );
    expect((await slice(m.id, 0, 0, `Ann: ${'long words '.repeat(80)}`)).status).toBe(200);
    const before = transcriptions().length;
    expect((await slice(m.id, 1, 60_000, 'Bob: next')).status).toBe(200);
    const prompt = transcriptions()[before]?.json.prompt as string;
    expect(prompt.length).toBeGreaterThan(0);
    expect(prompt.length).toBeLessThanOrEqual(HINT_MAX);
    expect(prompt.startsWith('Quarterly review')).toBe(true);

    // The client itself cuts any hint: 1,000 characters go as their first 600.
    const hint = 'x'.repeat(500) + 'y'.repeat(500);
    await generic.transcribe({
      audio: Buffer.from('Ann: hi'),
      filename: 'a.webm',
      contentType: 'audio/webm',
      hint,
      onBehalfOf: EDITOR,
    });
    const last = transcriptions().at(-1);
    expect(last?.json.prompt).toBe(hint.slice(0, 600));
  });
});
