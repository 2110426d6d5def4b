import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { relayHarness, TestBudgets } from '../../broker/test/relay-setup.ts';
import { httpBroker } from '../src/clients/broker.ts';
import { httpWorkspace } from '../src/clients/workspace.ts';
import { FakeCoachingWorkspace } from './fakes/coaching-workspace.ts';
import { ADMIN, type As, type Harness, harness, SERVICE_TOKEN } from './harness.ts';

/**
 * Weekly coaching end to end (issue 20, AGT-283..AGT-310): the agents app with the scheduler's
 * token, its workspace reads against a fake workspace speaking GET /v1/me/meetings and the
 * utterance pages, and its model calls through the broker's own app (relay) on the broker's fake
 * provider, scripted per test with failNext (a 200 with the reply the test wants, or a failure).
 */
const SCHEDULER = 'coaching-scheduler-token';
const ALICE = 'alice.smith@coach.test';
const BOB = 'bob.jones@coach.test';
const CARA = 'cara.lee@coach.test';
const MODEL = 'gpt-4.1-mini';
const NOW = '2026-03-11T15:00:00Z'; // a Wednesday: last week is 2026-03-02 .. 2026-03-08

let h: Harness;
let relay: Awaited<ReturnType<typeof relayHarness>>;
let ws: FakeCoachingWorkspace;
/** The broker's budget gate: it notes every actor a relayed call was checked for. */
const budgets = new TestBudgets();
const scheduler: As = { headers: { 'x-platform-scheduler-token': SCHEDULER } };

const ALICE_LINES = [
  'I think we should ship on Friday, but I am not sure.',
  'Let me summarise: we ship Friday and review on Monday.',
  'Sorry, I was rambling again.',
];
const CARA_LINES = ['Thanks Alice for the summary, great work.', 'Bob, I am worried the vendor slips.'];

function seed() {
  ws.names.set(ALICE, 'Alice S.');
  ws.names.set(BOB, 'Bob Jones');
  ws.names.set(CARA, 'Cara Lee');
  const all = [ALICE, BOB, CARA];
  // The weekly sync of four weeks: an hour each, no decisions; Alice speaks only in the last one.
  for (const [i, day] of ['2026-02-10', '2026-02-17', '2026-02-24'].entries()) {
    ws.add(all, {
      id: `00000000-0000-4000-8000-00000000000${i + 1}`,
      title: `Weekly sync ${i + 1}`,
      started_at: `${day}T14:00:00Z`,
      duration_ms: 3_600_000,
      decisions_count: 0,
      lines: [{ speaker: 'Bob Jones', text: 'Nothing new from me.' }],
    });
  }
  ws.add(all, {
    id: '00000000-0000-4000-8000-000000000004',
    title: 'Weekly sync 4',
    started_at: '2026-03-03T14:00:00Z',
    duration_ms: 3_600_000,
    decisions_count: 0,
    lines: [
      { speaker: 'Alice S.', text: ALICE_LINES[0] as string },
      { speaker: 'Bob Jones', text: 'Alice, we are waiting on you for the budget numbers.' },
      { speaker: 'Alice S.', text: ALICE_LINES[1] as string },
      { speaker: 'Cara Lee', text: CARA_LINES[0] as string },
      { speaker: 'Cara Lee', text: CARA_LINES[1] as string },
      { speaker: 'Alice S.', text: ALICE_LINES[2] as string },
    ],
  });
  // Bob and Cara's 1:1 (Sunday evening in New York, Monday in UTC: still last week).
  ws.add([BOB, CARA], {
    id: '00000000-0000-4000-8000-000000000005',
    title: '1:1',
    started_at: '2026-03-09T02:00:00Z',
    duration_ms: 1_800_000,
    decisions_count: 1,
    lines: [{ speaker: 'Bob Jones', text: 'Cara, thanks for the draft.' }],
  });
}

/** The next provider reply: a chat completion whose message is `content`. */
function script(content: string) {
  relay.fake.failNext({
    status: 200,
    body: JSON.stringify({
      id: 'chatcmpl-coaching',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    }),
  });
}

const chatCalls = () => relay.fake.requests.filter((r) => r.path === '/v1/chat/completions');
const userText = (r: { json: { messages: { role: string; content: string }[] } }) =>
  r.json.messages.find((m) => m.role === 'user')?.content ?? '';

const job = (query = '') => h.call('POST', `/internal/jobs/weekly-coaching${query}`, scheduler, undefined, null);
// biome-ignore lint/suspicious/noExplicitAny: reading answers
const coaching = async (as: As): Promise<any> => {
  const r = await h.call('GET', '/v1/me/coaching', as);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data;
};
const reportRows = () => h.db.selectFrom('coaching_reports').selectAll().orderBy('person_email').execute();

beforeAll(async () => {
  relay = await relayHarness({ budgets });
  ws = await new FakeCoachingWorkspace(SERVICE_TOKEN).start();
  seed();
  h = await harness({
    now: NOW,
    env: { SCHEDULER_TOKEN: SCHEDULER },
    app: {
      schedulerToken: SCHEDULER,
      broker: httpBroker({ baseUrl: relay.url, serviceToken: BROKER_SERVICE_TOKEN, timeoutMs: 5_000 }),
      workspace: httpWorkspace({ baseUrl: ws.url, serviceToken: SERVICE_TOKEN, timeoutMs: 5_000 }),
      coaching: { recipients: [ALICE, BOB, CARA], communication: [ALICE, CARA], model: MODEL, concurrency: 3 },
    },
  });
});

afterAll(async () => {
  await h?.close_();
  await relay?.close();
  await ws?.close();
});

beforeEach(async () => {
  await h.db.deleteFrom('coaching_feedback').execute();
  await h.db.deleteFrom('coaching_reports').execute();
  await h.db.deleteFrom('coaching_settings').execute();
  ws.failing.clear();
  ws.requests.length = 0;
  relay.fake.requests.length = 0;
  budgets.checks.length = 0;
});

describe('the weekly coaching job', () => {
  it('20 AGT-283 AGT-310 AGT-295 AGT-296 AGT-297 AGT-298 writes last week’s report for each recipient; the answer carries about_you and about_you_points', async () => {
    const r = await job();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toEqual({
      week: { start: '2026-03-02', end: '2026-03-08' },
      written: [ALICE, BOB, CARA],
      kept: [],
      skipped: [],
      failed: [],
      // Alice: waiting on her and credit; Bob: a concern; Cara: credit.
      about_you: 3,
      about_you_points: 4,
    });
    expect((await reportRows()).map((row) => [row.person_email, row.week_start])).toEqual([
      [ALICE, '2026-03-02'],
      [BOB, '2026-03-02'],
      [CARA, '2026-03-02'],
    ]);
    // Each person's meetings were read on their own behalf, over the four weeks.
    const reads = ws.requests.filter((q) => q.path === '/v1/me/meetings');
    expect(reads.map((q) => q.onBehalfOf).sort()).toEqual([ALICE, BOB, CARA]);
    for (const q of reads) expect([q.query.get('from'), q.query.get('to')]).toEqual(['2026-02-09', '2026-03-08']);

    const alice = (await coaching(ALICE)).report;
    expect(alice.week).toEqual({ start: '2026-03-02', end: '2026-03-08' });
    expect(alice.meeting_time).toEqual({
      summary: '1 meeting, 1 h in all; you spoke in 1 of them; 0 ended with a decision.',
      meetings: 1,
      minutes: 60,
      spoke_in: 1,
      series: [
        {
          id: 'series-1',
          title: 'Weekly sync 4',
          meetings: 4,
          minutes: 240,
          spoke_in: 1,
          decisions: 0,
          reasons: ['long_and_quiet', 'no_decisions'],
        },
      ],
    });
    // Bob spoke in every sync: raised only for having no decisions; his 1:1 is one meeting, no series.
    const bob = (await coaching(BOB)).report;
    expect(bob.meeting_time.series.map((s: { reasons: string[] }) => s.reasons)).toEqual([['no_decisions']]);
    expect(bob.meeting_time.summary).toBe(
      '2 meetings, 1 h 30 min in all; you spoke in 2 of them; 1 ended with a decision.',
    );
  });

  it('20 AGT-301 AGT-302 AGT-295 one model call per communication recipient holding only their own lines; none for others', async () => {
    expect((await job()).status).toBe(200);
    const calls = chatCalls();
    expect(calls).toHaveLength(2);
    // Each call went through the broker on behalf of the person served (billed to them).
    expect(budgets.checks.map((a) => a.email).sort()).toEqual([ALICE, CARA]);
    const inputs = calls.map((c) => userText(c)).sort();
    expect(inputs).toEqual([
      ALICE_LINES.map((l, i) => `[L${i + 1}] ${l}`).join('\n'),
      CARA_LINES.map((l, i) => `[L${i + 1}] ${l}`).join('\n'),
    ]);
    for (const c of calls) {
      const all = c.json.messages.map((m: { content: string }) => m.content).join('\n');
      for (const foreign of ['waiting on you', 'Nothing new', 'thanks for the draft', 'Weekly sync', 'Bob Jones']) {
        expect(all).not.toContain(foreign);
      }
    }
    // The fake provider's echo is no JSON: the code keeps no point from it.
    expect((await coaching(ALICE)).report.communication).toEqual({ points: [] });
    // Bob is not a communication recipient: no part, and his meeting time came with no call.
    const bob = (await coaching(BOB)).report;
    expect(bob.communication).toBeNull();
    expect(bob.meeting_time.meetings).toBe(2);
  });

  it('20 AGT-303 AGT-304 AGT-305 a scripted reply: invented quotes and a colleague’s name are dropped, three points at most', async () => {
    const point = (line: string, quote: string, observation = 'You hedge before deciding.') => ({
      line,
      quote,
      observation,
      suggestion: 'Say the decision first, then the doubt.',
    });
    script(
      JSON.stringify({
        points: [
          point('L1', 'we should ship on Thursday'),
          point('L1', 'ship on Friday, but I am not sure'),
          point('L2', 'Let me summarise', 'Unlike Bob, you summarise.'),
          point('L4', 'waiting on you for the budget numbers'),
          point('L2', 'we ship Friday and review on Monday'),
          point('L3', 'I was rambling again'),
          point('L3', 'Sorry'),
        ],
      }),
    );
    const r = await job(`?email=${encodeURIComponent(ALICE)}&regenerate=true`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(chatCalls()).toHaveLength(1);
    const points = (await coaching(ALICE)).report.communication.points;
    expect(points.map((p: { quote: string; seq: number }) => [p.seq, p.quote])).toEqual([
      [1, 'ship on Friday, but I am not sure'],
      [3, 'we ship Friday and review on Monday'],
      [6, 'I was rambling again'],
    ]);
    for (const p of points) {
      expect(ALICE_LINES.some((l) => l.includes(p.quote))).toBe(true);
      expect(JSON.stringify(p)).not.toMatch(/\b(Bob|Cara|Jones|Lee)\b/);
    }
  });

  it('20 AGT-306 AGT-307 AGT-308 AGT-309 about_you quotes colleagues’ lines naming the person with their speaker, one per kind, suggestions naming nobody', async () => {
    expect((await job()).status).toBe(200);
    const about = (await coaching(ALICE)).report.about_you.points;
    expect(about.map((p: { kind: string; speaker: string; quote: string }) => [p.kind, p.speaker, p.quote])).toEqual([
      ['waiting_on_you', 'Bob Jones', 'Alice, we are waiting on you for the budget numbers.'],
      ['credit', 'Cara Lee', 'Thanks Alice for the summary, great work.'],
    ]);
    for (const p of about) expect(p.suggestion).not.toMatch(/\b(Alice|Bob|Cara|Smith|Jones|Lee)\b/i);
    const bob = (await coaching(BOB)).report.about_you.points;
    expect(bob.map((p: { kind: string; speaker: string }) => [p.kind, p.speaker])).toEqual([['concern', 'Cara Lee']]);
  });

  it('20 AGT-285 AGT-286 AGT-287 email limits the job to one person, week takes any date of it, regenerate replaces the report', async () => {
    const r = await job(`?email=${encodeURIComponent(BOB)}&week=2026-02-26`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ week: { start: '2026-02-23', end: '2026-03-01' }, written: [BOB] });
    expect((await reportRows()).map((row) => [row.person_email, row.week_start])).toEqual([[BOB, '2026-02-23']]);
    // Its series look back from that week: 2026-02-02 .. 2026-03-01.
    const read = ws.requests.find((q) => q.path === '/v1/me/meetings');
    expect([read?.query.get('from'), read?.query.get('to')]).toEqual(['2026-02-02', '2026-03-01']);
    const first = (await coaching(BOB)).report;
    expect(first.meeting_time.series[0]).toMatchObject({ meetings: 3, reasons: ['no_decisions'] });
    await h.ok(
      'POST',
      '/v1/me/coaching/feedback',
      { report_id: first.id, point_id: 'series-1', useful: true },
      200,
      BOB,
    );

    // Again without regenerate: kept, nothing read.
    ws.requests.length = 0;
    const again = await job(`?email=${encodeURIComponent(BOB)}&week=2026-03-01`);
    expect(again.data).toMatchObject({ written: [], kept: [BOB] });
    expect(ws.requests).toEqual([]);
    expect((await coaching(BOB)).report.id).toBe(first.id);

    const regenerated = await job(`?email=${encodeURIComponent(BOB)}&week=2026-02-23&regenerate=true`);
    expect(regenerated.data).toMatchObject({ written: [BOB], kept: [] });
    const second = (await coaching(BOB)).report;
    expect(second.id).not.toBe(first.id);
    expect(second.feedback).toEqual([]);
    expect(await reportRows()).toHaveLength(1);
    expect(await h.db.selectFrom('coaching_feedback').selectAll().execute()).toEqual([]);
  });

  it('20 AGT-288 a person whose meetings or model call failed makes the job 503, naming them; the others are written', async () => {
    ws.failing.add(BOB);
    const r = await job();
    expect(r.status).toBe(503);
    const detail = r.errors[0];
    expect(detail.code).toBe('coaching_incomplete');
    expect(detail.value).toMatchObject({
      written: [ALICE, CARA],
      failed: [{ email: BOB, reason: 'workspace_unavailable' }],
      about_you: 2,
      about_you_points: 3,
    });
    expect((await reportRows()).map((row) => row.person_email)).toEqual([ALICE, CARA]);

    // The model call failing (the provider answers 500: the broker 502) fails that person too.
    ws.failing.clear();
    relay.fake.failNext({ status: 500 });
    const failed = await job(`?email=${encodeURIComponent(ALICE)}&regenerate=true`);
    expect(failed.status).toBe(503);
    expect(failed.errors[0]?.value.failed).toEqual([{ email: ALICE, reason: 'broker_unavailable' }]);
    // Alice's earlier report is left as it was.
    expect((await reportRows()).map((row) => row.person_email)).toEqual([ALICE, CARA]);
  });

  it('20 AGT-284 AGT-290 AGT-291 turning coaching off deletes every report and feedback and the job skips the person', async () => {
    expect((await job()).status).toBe(200);
    const report = (await coaching(ALICE)).report;
    await h.ok(
      'POST',
      '/v1/me/coaching/feedback',
      { report_id: report.id, point_id: 'about-1', useful: false },
      200,
      ALICE,
    );

    expect(await h.ok('PUT', '/v1/me/coaching/setting', { enabled: false }, 200, ALICE)).toEqual({ enabled: false });
    expect(await coaching(ALICE)).toEqual({ enabled: false, report: null });
    expect((await reportRows()).map((row) => row.person_email)).toEqual([BOB, CARA]);
    expect(await h.db.selectFrom('coaching_feedback').selectAll().execute()).toEqual([]);

    ws.requests.length = 0;
    relay.fake.requests.length = 0;
    const r = await job('?regenerate=true');
    expect(r.data).toMatchObject({ written: [BOB, CARA], skipped: [ALICE] });
    expect(ws.requests.some((q) => q.onBehalfOf === ALICE)).toBe(false);
    expect(chatCalls().every((c) => !userText(c).includes('rambling'))).toBe(true);
    expect((await reportRows()).map((row) => row.person_email)).toEqual([BOB, CARA]);

    expect(await h.ok('PUT', '/v1/me/coaching/setting', { enabled: true }, 200, ALICE)).toEqual({ enabled: true });
    expect(await coaching(ALICE)).toEqual({ enabled: true, report: null });
  });
});

describe('a person’s own coaching', () => {
  it('20 AGT-289 AGT-292 feedback is stored against a point of one’s own report and shown with it', async () => {
    expect(await coaching(ALICE)).toEqual({ enabled: true, report: null });
    expect((await job()).status).toBe(200);
    const report = (await coaching(ALICE)).report;
    const answer = await h.ok(
      'POST',
      '/v1/me/coaching/feedback',
      { report_id: report.id, point_id: 'series-1', useful: true },
      200,
      ALICE,
    );
    expect(answer).toEqual({ report_id: report.id, point_id: 'series-1', useful: true });
    await h.ok(
      'POST',
      '/v1/me/coaching/feedback',
      { report_id: report.id, point_id: 'about-2', useful: false },
      200,
      ALICE,
    );
    expect((await coaching(ALICE)).report.feedback).toEqual([
      { point_id: 'about-2', useful: false },
      { point_id: 'series-1', useful: true },
    ]);
    // A point the report does not have: 422, nothing stored.
    const before = await h.state();
    const unknown = await h.call('POST', '/v1/me/coaching/feedback', ALICE, {
      data: { report_id: report.id, point_id: 'comm-9', useful: true },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.errors?.[0]?.code).toBe('unknown_coaching_point');
    expect(await h.state()).toEqual(before);
  });

  it('20 AGT-293 AGT-294 feedback on another person’s report is 404; no route shows it to anyone else, admins included', async () => {
    expect((await job()).status).toBe(200);
    const alices = (await coaching(ALICE)).report;
    const before = await h.state();
    for (const who of [BOB, ADMIN]) {
      const r = await h.call('POST', '/v1/me/coaching/feedback', who, {
        data: { report_id: alices.id, point_id: 'series-1', useful: true },
      });
      expect(r.status).toBe(404);
      expect(r.errors?.[0]?.code).toBe('coaching_report_not_found');
    }
    expect(await h.state()).toEqual(before);
    // Each reads their own: Bob his, the admin none; the service token naming Alice is refused.
    expect((await coaching(BOB)).report.id).not.toBe(alices.id);
    expect(await coaching(ADMIN)).toEqual({ enabled: true, report: null });
    const service = await h.call('GET', '/v1/me/coaching', {
      headers: { 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-on-behalf-of': ALICE },
    });
    expect(service.status).toBe(403);
    expect(JSON.stringify(service.body)).not.toContain(alices.id);
    // The scheduler's answer names people, never what their reports say.
    const answer = JSON.stringify((await job('?regenerate=true')).body);
    for (const s of ['rambling', 'waiting on you', 'Weekly sync']) expect(answer).not.toContain(s);
  });
});

describe('the job’s callers and input', () => {
  it('20 AGT-283 only the scheduler runs it: no or a wrong token 401; a person (an admin too) or the service token 403', async () => {
    const before = await h.state();
    const callers: [As, number][] = [
      [null, 401],
      [{ headers: { 'x-platform-scheduler-token': 'wrong' } }, 401],
      [ADMIN, 403],
      [ALICE, 403],
      [{ service: null }, 403],
    ];
    for (const [as, status] of callers) {
      const r = await h.call('POST', '/internal/jobs/weekly-coaching', as, undefined, null);
      expect(r.status).toBe(status);
    }
    expect(await h.state()).toEqual(before);
    expect(ws.requests).toEqual([]);
  });

  it('20 AGT-286 AGT-285 a week that is not a date and an email not among the recipients are 422, nothing read or written', async () => {
    const before = await h.state();
    for (const [q, code] of [
      ['?week=2026-02-30', 'invalid_week'],
      ['?week=last', 'invalid_week'],
      [`?email=${encodeURIComponent('stranger@coach.test')}`, 'not_a_coaching_recipient'],
    ] as const) {
      const r = await job(q);
      expect(r.status).toBe(422);
      expect(r.errors?.[0]?.code).toBe(code);
    }
    expect(await h.state()).toEqual(before);
    expect(ws.requests).toEqual([]);
  });

  it('20 AGT-283 without SCHEDULER_TOKEN the job route is absent', async () => {
    const bare = await harness({ now: NOW });
    try {
      const r = await bare.call('POST', '/internal/jobs/weekly-coaching', scheduler, undefined, null);
      expect(r.status).toBe(404);
    } finally {
      await bare.close_();
    }
  });
});
