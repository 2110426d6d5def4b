import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrokerModelClient } from '../src/clients/broker.ts';
import { findSummary } from '../src/store/meeting-summaries.ts';
import { type FakeRelay, startFakeRelay } from './fakes/broker-relay.ts';
import { fid, type Harness, harness, SERVICE_TOKEN, tag } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let relay: FakeRelay;
let h: Harness;
beforeAll(async () => {
  relay = await startFakeRelay({ serviceToken: SERVICE_TOKEN });
  h = await harness({
    now: '2025-06-16T15:00:00Z',
    app: {
      schedulerToken: SCHEDULER,
      jobs: { summarizer: true, questionMessaging: false },
      model: new BrokerModelClient({ baseUrl: relay.url, serviceToken: SERVICE_TOKEN }),
    },
  });
});
afterAll(async () => {
  await h.close_();
  await relay.close();
});
beforeEach(async () => {
  relay.answer = (r) => `Summary of ${r.body.messages[1]?.content.split('\n')[0]}`;
  // Each test starts with no meeting waiting: earlier ones are archived.
  await sql`UPDATE evidence SET archived_at = now() WHERE archived_at IS NULL`.execute(h.db);
});

/** A transcribed meeting (helper A's evidence tables) with a few lines. */
async function meeting(title = `Weekly sync ${tag()}`) {
  const id: string = randomUUID();
  const now = h.now();
  await h.db
    .insertInto('evidence')
    .values({
      id,
      kind: 'meeting',
      source: 'video_call',
      author: fid('host@ws.test'),
      title,
      transcription_status: 'transcribed',
      last_seq: 2,
      created_at: now,
      updated_at: now,
      ended_at: now,
    })
    .execute();
  await h.db
    .insertInto('evidence_utterances')
    .values([
      { evidence_id: id, seq: 1, speaker: 'Ana', text: 'We ship on Friday.', written_by: 'test', created_at: now },
      { evidence_id: id, seq: 2, speaker: 'Ben', text: 'I will write the notes.', written_by: 'test', created_at: now },
    ])
    .execute();
  return { id, title };
}

const run = () => h.call('POST', '/internal/jobs/meeting-summaries', asScheduler);

describe('meeting-summaries', () => {
  it('19 WS-494 the route is registered on the summarizer release and writes a summary through the broker with evidence.summary_ready', async () => {
    const m = await meeting();
    const r = await run();
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ written: 1, failed: 0, deferred: 0 });
    expect((await findSummary(h.db, m.id))?.summary).toBe(`Summary of Meeting: ${m.title}`);
    const sent = relay.requests.at(-1);
    expect(sent?.headers['x-platform-on-behalf-of']).toBe(fid('host@ws.test'));
    expect(sent?.body.messages[1]?.content).toContain('Ana: We ship on Friday.');
    const events = (await h.events('evidence.summary_ready')).filter((e) => e.payload.data.evidenceId === m.id);
    expect(events.map((e) => e.payload.data)).toEqual([
      { evidenceId: m.id, projectId: null, kind: 'meeting', source: 'video_call', actor: 'service:scheduler' },
    ]);
    // Written once: the next run finds nothing to do.
    expect((await run()).data).toEqual({ written: 0, failed: 0, deferred: 0 });
  });

  it('19 WS-495 at most five summaries a run', async () => {
    const ids = [];
    for (let i = 0; i < 7; i += 1) ids.push((await meeting()).id);
    const before = relay.requests.length;
    expect((await run()).data).toEqual({ written: 5, failed: 0, deferred: 0 });
    expect(relay.requests.length - before).toBe(5);
    expect((await run()).data).toEqual({ written: 2, failed: 0, deferred: 0 });
    for (const id of ids) expect((await findSummary(h.db, id))?.summary).toBeTruthy();
  });

  it('19 WS-496 no summary is started after four minutes', async () => {
    for (let i = 0; i < 5; i += 1) await meeting();
    // Each summary takes 100 seconds on the injected clock: they start at 0, 100 and 200 s; at 300 s the run stops.
    relay.answer = (r) => {
      h.setNow(new Date(h.now().getTime() + 100_000).toISOString());
      return `Summary ${r.body.messages[1]?.content.length}`;
    };
    const started = h.now().getTime();
    const before = relay.requests.length;
    const r = await run();
    expect(r.data).toEqual({ written: 3, failed: 0, deferred: 2 });
    expect(relay.requests.length - before).toBe(3);
    expect(h.now().getTime() - started).toBe(300_000);
  });

  it('19 WS-497 answers 502 when every summary in the run failed; a later run tries again', async () => {
    const a = await meeting();
    const b = await meeting();
    relay.answer = () => ({ status: 500 });
    const r = await run();
    expect(r.status).toBe(502);
    expect(r.errors[0]?.code).toBe('summaries_failed');
    expect(await findSummary(h.db, a.id)).toMatchObject({ summary: null, failed_attempts: 1 });
    expect(
      (await h.events('evidence.summary_ready')).filter((e) =>
        [a.id, b.id].includes(String(e.payload.data.evidenceId)),
      ),
    ).toEqual([]);
    // One failing, one written: not every summary failed.
    let calls = 0;
    relay.answer = () => (++calls === 1 ? { status: 500 } : 'Fine');
    const mixed = await run();
    expect(mixed.status).toBe(200);
    expect(mixed.data).toEqual({ written: 1, failed: 1, deferred: 0 });
  });
});
