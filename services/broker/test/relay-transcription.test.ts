/**
 * POST /v1/relay/audio/transcriptions (issue 19): OpenAI's multipart transcription form through
 * the relay to the fake provider, through the OpenAI SDK and by hand; usage in seconds of audio.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESTIMATED_AUDIO_BYTES_PER_SECOND } from '../src/relay/relay.ts';
import { FAKE_SECONDS_PER_LINE } from './fakes/providers.ts';
import { fid, tag } from './harness.ts';
import { codes, type RelayHarness, relayHarness, type TestBudgets, type TestRouter } from './relay-setup.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await relayHarness();
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
const rowsOf = async (email: string) => (await h.usageRows()).filter((r) => r.actor_fid === fid(email));
const lastRequest = () => h.fake.requests[h.fake.requests.length - 1];
const PATH = '/v1/relay/audio/transcriptions';

/** A multipart form as OpenAI takes it; the audio is lines the fake "hears". */
function form(fields: Record<string, string>, audio = 'Ann: Good morning\nBob: Morning Ann') {
  const f = new FormData();
  f.append('file', new Blob([audio], { type: 'audio/webm' }), 'minute.webm');
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function postForm(f: FormData, headers: Record<string, string>) {
  const r = await fetch(h.url + PATH, { method: 'POST', headers, body: f });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, type: r.headers.get('content-type'), text, json: json as never };
}

describe('the transcription relay', () => {
  it('19 WS-446 the OpenAI SDK transcribes through the relay: the form reaches the provider, the reply comes back unchanged, usage in seconds', async () => {
    const me = person();
    const openai = new OpenAI({
      baseURL: `${h.url}/v1/relay`,
      apiKey: 'x',
      maxRetries: 0,
      defaultHeaders: { 'x-dev-principal': me, authorization: null },
    });
    const before = h.fake.requests.length;
    const t = await openai.audio.transcriptions.create({
      file: await toFile(Buffer.from('Ann: Hello there\nBob: Hi\nAnn: Shall we start'), 'call.m4a'),
      model: 'whisper-1',
      prompt: 'Ann, Bob, quarterly review',
      response_format: 'verbose_json',
    });
    expect(h.fake.requests.length).toBe(before + 1);
    const sent = lastRequest();
    expect(sent?.path).toBe('/v1/audio/transcriptions');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.json).toMatchObject({
      model: 'whisper-1',
      prompt: 'Ann, Bob, quarterly review',
      response_format: 'verbose_json',
      file: { name: 'call.m4a', text: 'Ann: Hello there\nBob: Hi\nAnn: Shall we start' },
    });
    expect(t.text).toBe('Hello there Hi Shall we start');
    expect((t as unknown as { segments: { start: number; text: string }[] }).segments.map((s) => s.start)).toEqual([
      0, 5, 10,
    ]);
    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: 'openai',
      model: 'whisper-1',
      request_kind: 'transcription',
      input_tokens: 3 * FAKE_SECONDS_PER_LINE,
      output_tokens: 0,
      // USD 0.006 a minute: 100 micro-dollars a second.
      cost_micros: 3 * FAKE_SECONDS_PER_LINE * 100,
      estimated: false,
    });
    expect((h.budgets as TestBudgets).spends.filter((s) => s.fid === fid(me))).toEqual([
      { fid: fid(me), micros: 1500 },
    ]);
  });

  it('19 WS-445 a named provider is stripped before forwarding; the diarizing model answers speaker labels', async () => {
    const me = person();
    const routed = (h.router as TestRouter).requests.length;
    const r = await postForm(
      form({ model: 'gpt-4o-transcribe-diarize', provider: 'openai', response_format: 'diarized_json' }),
      { 'x-dev-principal': me },
    );
    expect(r.status).toBe(200);
    const sent = lastRequest();
    expect(sent?.json.provider).toBeUndefined();
    expect(sent?.json.model).toBe('gpt-4o-transcribe-diarize');
    expect(sent?.json.file).toMatchObject({ name: 'minute.webm', text: 'Ann: Good morning\nBob: Morning Ann' });
    const segments = (r.json as { segments: { speaker: string; text: string }[] }).segments;
    expect(segments.map((s) => [s.speaker, s.text])).toEqual([
      ['A', 'Good morning'],
      ['B', 'Morning Ann'],
    ]);
    // Transcription is not routed.
    expect((h.router as TestRouter).requests.length).toBe(routed);
    expect((await rowsOf(me))[0]).toMatchObject({ model: 'gpt-4o-transcribe-diarize', input_tokens: 10 });
  });

  it('19 WS-446 a text reply names no duration: the seconds are estimated from the file size and marked estimated', async () => {
    const me = person();
    const audio = `Ann: ${'x'.repeat(3 * ESTIMATED_AUDIO_BYTES_PER_SECOND)}`;
    const r = await postForm(form({ model: 'whisper-1', response_format: 'text' }, audio), { 'x-dev-principal': me });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    const rows = await rowsOf(me);
    expect(rows[0]).toMatchObject({ request_kind: 'transcription', input_tokens: 4, estimated: true });
  });

  it('19 WS-446 refusals before any upstream call: not multipart, no file, an unknown model, over budget', async () => {
    const me = person();
    const before = h.fake.requests.length;
    const json = await h.post(PATH, { model: 'whisper-1' }, { 'x-dev-principal': me });
    expect(json.status).toBe(422);
    expect(codes(json)).toEqual(['validation_failed']);
    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    const r1 = await postForm(noFile, { 'x-dev-principal': me });
    expect(r1.status).toBe(422);
    expect(JSON.stringify(r1.json)).toContain('body/file');
    const r2 = await postForm(form({ model: 'gpt-4.1' }), { 'x-dev-principal': me });
    expect(r2.status).toBe(422);
    expect(JSON.stringify(r2.json)).toContain('unknown_model');
    (h.budgets as TestBudgets).over.add(me);
    const r3 = await postForm(form({ model: 'whisper-1' }), { 'x-dev-principal': me });
    expect(r3.status).toBe(402);
    expect(h.fake.requests.length).toBe(before);
    expect(await rowsOf(me)).toEqual([]);
  });

  it('19 WS-446 a provider error answers 502 upstream_failed with its message', async () => {
    h.fake.failNext({ status: 400, body: JSON.stringify({ error: { message: 'Audio file is too short' } }) });
    const r = await postForm(form({ model: 'whisper-1' }), { 'x-dev-principal': person() });
    expect(r.status).toBe(502);
    expect(r.text).toContain('Audio file is too short');
  });
});
