import { randomUUID } from 'node:crypto';
import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import { buildApp as buildDocuments } from '../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../documents/src/store/db.ts';
import { putBlob, testCatalog } from '../../documents/test/harness.ts';
import { HttpDocuments } from '../src/clients/documents.ts';
import { BrokerTranscriber, type Transcriber, type TranscriptionRequest } from '../src/clients/transcription.ts';
import { MAX_ATTEMPTS, RecordingTranscriber } from '../src/commands/recording-flow.ts';
import { findFileJob } from '../src/store/audio-slices.ts';
import { EDITOR, type Harness, harness, SERVICE_TOKEN, tag } from './harness.ts';

/**
 * The recording flow end to end (WS-441..446): the REAL model broker with its fake provider (every
 * provider call counted), the REAL documents service on an in-memory Azurite, and the workspace's
 * own file routes. A client asks a write URL, PUTs the bytes, registers the file, opens the
 * meeting live, posts its slices and makes the closing call with the recording's document_id and
 * live_slices. The fake provider "hears" audio bytes as `speaker: text` lines, five seconds each.
 */
let broker: RelayHarness;
let h: Harness;
let azurite: Azurite;
let documents: App;
let closeDocuments: () => Promise<void>;
let docsClient: HttpDocuments;
let generic: BrokerTranscriber;
let fast: BrokerTranscriber;
let current: Transcriber;
const switchable: Transcriber = {
  get way() {
    return current.way;
  },
  transcribe: (req: TranscriptionRequest) => current.transcribe(req),
};
/** The worker, on the harness's database, run by the tests (its timer is not started). */
let worker: RecordingTranscriber;
let workerNow = new Date();

beforeAll(async () => {
  broker = await relayHarness();
  const common = { baseUrl: broker.url, serviceToken: BROKER_SERVICE_TOKEN };
  generic = new BrokerTranscriber({ ...common, model: 'whisper-1' });
  fast = new BrokerTranscriber({ ...common, model: 'whisper-1', fastModel: 'gpt-4o-transcribe-diarize' });
  current = generic;
  azurite = await startAzurite({ port: 0, timeoutMs: 60_000 });
  const storage = new BlobStorage(testCatalog(azurite.blobEndpoint));
  await storage.ensureContainers();
  const database = await testDatabase<DocumentsDB>('documents', DOCUMENT_MIGRATIONS);
  documents = (await buildDocuments({ database, storage, logLevel: 'silent' })) as App;
  await documents.listen({ port: 0, host: '127.0.0.1' });
  const { port } = documents.server.address() as { port: number };
  closeDocuments = async () => {
    await documents.close();
    await database.drop();
  };
  docsClient = new HttpDocuments({
    baseUrl: `http://127.0.0.1:${port}`,
    serviceToken: SERVICE_TOKEN,
    storageAccount: 'local',
  });
  h = await harness({ app: { documents: docsClient, transcriber: switchable } });
  worker = new RecordingTranscriber(h.database.db, {
    transcriber: switchable,
    documents: docsClient,
    clock: () => workerNow,
  });
}, 180_000);
afterAll(async () => {
  await h?.close_();
  await closeDocuments?.();
  await azurite?.close();
  await broker?.close();
});

const transcriptions = () => broker.fake.requests.filter((r) => r.path === '/v1/audio/transcriptions');
function phoneRef(): string {
  const u = randomUUID().split('');
  u[14] = '7';
  u[19] = '8';
  return `phone:install-${tag()}:${u.join('')}`;
}

/** WS-441: write URL, the bytes to storage, the file registered: its document_id. */
async function storedFile(bytes: string, as = EDITOR): Promise<string> {
  const up = await h.call('POST', '/v1/files/upload-url', as, {
    data: { filename: 'site-walk.m4a', purpose: 'live_recording' },
  });
  h.expectStatus('upload-url', up, 201);
  const put = await putBlob(up.data.upload_url, bytes);
  expect(put.status).toBe(201);
  const reg = await h.call('POST', '/v1/files', as, { data: { upload_id: up.data.id } });
  h.expectStatus('register', reg, 201);
  return reg.data.document_id as string;
}

const open = (data: Record<string, unknown>, as = EDITOR) => h.call('POST', '/v1/meetings', as, { data });

async function sendSlice(id: string, index: number, audio: string, as = EDITOR) {
  const r = await h.app.inject({
    method: 'POST',
    url: `/v1/meetings/${id}/audio-slices?index=${index}&start_ms=${index * 60_000}`,
    headers: { 'x-dev-principal': as, 'content-type': 'audio/mp4' },
    payload: Buffer.from(audio),
  });
  expect(r.statusCode).toBe(200);
}

async function transcript(id: string) {
  const r = await h.call('GET', `/v1/meetings/${id}/utterances?limit=200`, EDITOR);
  h.expectStatus('utterances', r, 200);
  return (r.data as { speaker: string; text: string; start_ms: number }[]).map((l) => [l.speaker, l.text, l.start_ms]);
}
const evidence = async (id: string) => (await h.call('GET', `/v1/evidence/${id}`, EDITOR)).data;

const MINUTE_0 = 'Ann: Welcome to the site walk\nBob: Thanks';
const MINUTE_1 = 'Ann: The north wall needs bracing';
/** The whole recording as the file holds it (what the provider hears when it reads the file). */
const WHOLE = 'Ann: Welcome to the site walk\nBob: Thanks for having me\nAnn: The north wall needs bracing now';

/** A live recording: opened, then the slices given; answers its id and external_ref. */
async function liveRecording(slices: string[], indexes = slices.map((_, i) => i)) {
  const ref = phoneRef();
  const opened = await open({ source: 'phone', external_ref: ref, live: true, title: `Site walk ${tag()}` });
  h.expectStatus('open', opened, 201);
  const id = opened.data.id as string;
  for (const [k, audio] of slices.entries()) await sendSlice(id, indexes[k] as number, audio);
  return { id, ref };
}

describe('the recording flow', () => {
  it('19 WS-441 WS-442 write URL, upload, register, open the meeting, slices, then the closing call with the document and live_slices equal to the slices sent', async () => {
    const order: string[] = [];
    const documentId = await storedFile(WHOLE);
    order.push('file registered');
    const { id, ref } = await liveRecording([MINUTE_0, MINUTE_1]);
    order.push('meeting opened', 'slices sent');
    const closing = await open({ source: 'phone', external_ref: ref, document_id: documentId, live_slices: 2 });
    h.expectStatus('closing call', closing, 201);
    order.push('closing call');
    expect(order).toEqual(['file registered', 'meeting opened', 'slices sent', 'closing call']);
    expect(closing.data).toMatchObject({ id, document_id: documentId, live_slices: 2 });
    expect(closing.data.ended_at).not.toBeNull();
  });

  it('19 WS-443 every slice read: the live lines are the transcript and the file is not transcribed', async () => {
    const documentId = await storedFile(WHOLE);
    const { id, ref } = await liveRecording([MINUTE_0, MINUTE_1]);
    const live = await transcript(id);
    const calls = transcriptions().length;
    const closing = await open({ source: 'phone', external_ref: ref, document_id: documentId, live_slices: 2 });
    h.expectStatus('closing call', closing, 201);
    expect(closing.data.transcription_status).toBe('transcribed');
    expect(await findFileJob(h.database.db, id)).toBeUndefined();
    expect(await worker.run()).toEqual({ transcribed: 0, failed: 0, gaveUp: 0 });
    // No second transcription: the provider was not called for the file.
    expect(transcriptions().length).toBe(calls);
    expect(await transcript(id)).toEqual(live);
    expect(live).toEqual([
      ['Speaker', 'Welcome to the site walk', 0],
      ['Speaker', 'Thanks', 5000],
      ['Speaker', 'The north wall needs bracing', 60_000],
    ]);
  });

  it('19 WS-444 WS-446 one slice missing: the file is read through the documents service, transcribed whole (generic model) and its lines replace the live ones', async () => {
    const documentId = await storedFile(WHOLE);
    // Slice 1 never arrived: only 0 and 2 were read of the three sent.
    const { id, ref } = await liveRecording([MINUTE_0, 'Ann: and the roof'], [0, 2]);
    const closing = await open({ source: 'phone', external_ref: ref, document_id: documentId, live_slices: 3 });
    h.expectStatus('closing call', closing, 201);
    // The closing call answered at once: the file waits, durably, for the worker.
    expect(closing.data.transcription_status).toBe('pending');
    expect(await findFileJob(h.database.db, id)).toMatchObject({ evidence_id: id, attempts: 0 });
    const calls = transcriptions().length;
    expect(await worker.run()).toEqual({ transcribed: 1, failed: 0, gaveUp: 0 });
    const sent = transcriptions().slice(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.json).toMatchObject({ model: 'whisper-1', response_format: 'verbose_json' });
    expect(sent[0]?.json.file.text).toBe(WHOLE);
    expect(await transcript(id)).toEqual([
      ['Speaker', 'Welcome to the site walk', 0],
      ['Speaker', 'Thanks for having me', 5000],
      ['Speaker', 'The north wall needs bracing now', 10_000],
    ]);
    expect(await evidence(id)).toMatchObject({ transcription_status: 'transcribed', line_count: 3 });
    expect(await findFileJob(h.database.db, id)).toBeUndefined();
    // Done once: another run reads nothing.
    expect(await worker.run()).toEqual({ transcribed: 0, failed: 0, gaveUp: 0 });
    expect(transcriptions().length).toBe(calls + 1);
  });

  it('19 WS-445 with the fast speech provider configured, both paths use it: slices and the whole file get speaker numbers', async () => {
    current = fast;
    try {
      const documentId = await storedFile(WHOLE);
      const before = transcriptions().length;
      const { id, ref } = await liveRecording([MINUTE_0]);
      await open({ source: 'phone', external_ref: ref, document_id: documentId, live_slices: 2 });
      expect(await worker.run()).toEqual({ transcribed: 1, failed: 0, gaveUp: 0 });
      const sent = transcriptions().slice(before);
      expect(sent.map((r) => [r.json.model, r.json.response_format])).toEqual([
        ['gpt-4o-transcribe-diarize', 'diarized_json'],
        ['gpt-4o-transcribe-diarize', 'diarized_json'],
      ]);
      expect(await transcript(id)).toEqual([
        ['Speaker 1', 'Welcome to the site walk', 0],
        ['Speaker 2', 'Thanks for having me', 5000],
        ['Speaker 1', 'The north wall needs bracing now', 10_000],
      ]);
    } finally {
      current = generic;
    }
  });

  it('19 WS-444 a failed transcription of the file stays pending and is retried; a worker that died is taken over after its lease; after the attempts it is failed', async () => {
    const documentId = await storedFile(WHOLE);
    const { id, ref } = await liveRecording([]);
    await open({ source: 'phone', external_ref: ref, document_id: documentId, live_slices: 0 });
    broker.fake.failNext({ status: 500 });
    workerNow = new Date();
    expect(await worker.run()).toEqual({ transcribed: 0, failed: 1, gaveUp: 0 });
    expect(await findFileJob(h.database.db, id)).toMatchObject({ attempts: 1 });
    // Not due again until the retry time.
    expect(await worker.run()).toEqual({ transcribed: 0, failed: 0, gaveUp: 0 });
    workerNow = new Date(workerNow.getTime() + 61_000);
    expect(await worker.run()).toEqual({ transcribed: 1, failed: 0, gaveUp: 0 });
    expect(await transcript(id)).toHaveLength(3);

    // Every attempt failing: after MAX_ATTEMPTS the record is failed and the job gone.
    const other = await liveRecording([]);
    await open({ source: 'phone', external_ref: other.ref, document_id: documentId, live_slices: 0 });
    broker.fake.failNext({ status: 500 }, MAX_ATTEMPTS);
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      workerNow = new Date(workerNow.getTime() + 61_000);
      await worker.run();
    }
    expect(await evidence(other.id)).toMatchObject({ transcription_status: 'failed' });
    expect(await findFileJob(h.database.db, other.id)).toBeUndefined();
  });
});
