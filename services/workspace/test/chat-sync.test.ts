import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpSlack } from '../src/clients/slack.ts';
import { workspaceConfig } from '../src/config.ts';
import { type ChatSyncSettings, chatSyncPass, DISCOVERY_MODES, slackTs } from '../src/workers/chat-sync.ts';
import { startWorkers } from '../src/workers/index.ts';
import { type FakeSlack, startFakeSlack } from './fakes/slack.ts';
import { type Harness, harness } from './harness.ts';

let h: Harness;
let fake: FakeSlack;
let slack: HttpSlack;
let now = new Date('2026-03-10T12:00:00Z');
const clock = () => now;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await harness();
  fake = await startFakeSlack();
  slack = new HttpSlack({ token: fake.token, baseUrl: fake.url });
});
afterAll(async () => {
  await fake.close();
  await h.close_();
});
beforeEach(async () => {
  fake.channels.length = 0;
  fake.messages.length = 0;
  fake.calls.length = 0;
  await sql`DELETE FROM evidence WHERE source = 'slack'`.execute(h.db);
  await sql`DELETE FROM evidence_slack_sync_cursor`.execute(h.db);
  now = new Date('2026-03-10T12:00:00Z');
});

const settings = (s: Partial<ChatSyncSettings> = {}): ChatSyncSettings => ({
  allowlist: [],
  discovery: 'joined',
  joinCap: 5,
  budget: 1000,
  windowDays: 30,
  ...s,
});
const run = (s: Partial<ChatSyncSettings>) => chatSyncPass({ db: h.db, slack, clock }, settings(s));
/** A message `daysAgo` days before now, `n` seconds apart so each ts is distinct. */
let seq = 0;
const post = (channel: string, daysAgo: number, text: string) => {
  seq += 1;
  return fake.say(channel, 'U00000042', text, { ts: slackTs(new Date(now.getTime() - daysAgo * DAY + seq * 1000)) });
};
const chatEvidence = async () =>
  (
    await sql<{ external_ref: string; body: string; kind: string }>`
      SELECT external_ref, body, kind FROM evidence WHERE source = 'slack' ORDER BY external_ref`.execute(h.db)
  ).rows;

describe('chat sync', () => {
  it('19 WS-516 only allowlisted channels are read and stored, each message once even when run again', async () => {
    const general = fake.addChannel({ name: 'general', is_member: true });
    const secret = fake.addChannel({ name: 'hr-private', is_member: true });
    post(general.id, 1, 'ship it');
    post(general.id, 2, 'review please');
    post(secret.id, 1, 'salary talk');
    const report = await run({ allowlist: ['#general'] });
    expect(report.read).toEqual([general.id]);
    const stored = await chatEvidence();
    expect(stored.map((e) => e.body).sort()).toEqual(['review please', 'ship it']);
    expect(stored.every((e) => e.kind === 'chat' && e.external_ref.startsWith(`slack:${general.id}:`))).toBe(true);
    // Nothing from the channel outside the list was even asked for.
    expect(fake.calls.filter((c) => c.method === 'conversations.history').map((c) => c.args.channel)).toEqual([
      general.id,
    ]);
    // A second run reads after the cursor and stores no duplicate; an empty list is idle.
    await run({ allowlist: ['general'] });
    expect(await chatEvidence()).toHaveLength(2);
    const calls = fake.calls.length;
    expect(await run({ allowlist: [] })).toMatchObject({ read: [], fetched: 0 });
    expect(fake.calls.length).toBe(calls);
  });

  it('19 WS-517 the discovery mode is joined or public: joined never joins, public joins, any other value is refused', async () => {
    const a = fake.addChannel({ name: 'eng' });
    post(a.id, 1, 'hello eng');
    const joinedMode = await run({ allowlist: ['eng'], discovery: 'joined' });
    expect(joinedMode.joined).toEqual([]);
    expect(joinedMode.pendingJoins).toEqual([a.id]);
    expect(fake.calls.some((c) => c.method === 'conversations.join')).toBe(false);
    const publicMode = await run({ allowlist: ['eng'], discovery: 'public' });
    expect(publicMode.joined).toEqual([a.id]);
    expect(publicMode.read).toEqual([a.id]);
    expect(DISCOVERY_MODES).toEqual(['joined', 'public']);
    expect(workspaceConfig({ CHAT_SYNC_DISCOVERY: 'public' }).CHAT_SYNC_DISCOVERY).toBe('public');
    expect(workspaceConfig({}).CHAT_SYNC_DISCOVERY).toBe('joined');
    expect(() => workspaceConfig({ CHAT_SYNC_DISCOVERY: 'everything' })).toThrow(/CHAT_SYNC_DISCOVERY/);
  });

  it('19 WS-518 joins per run never exceed the join cap; the rest are pendingJoins and join on later runs', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const chans = names.map((name) => fake.addChannel({ name }));
    const first = await run({ allowlist: names, discovery: 'public', joinCap: 2 });
    expect(first.joined).toHaveLength(2);
    expect(first.pendingJoins).toHaveLength(3);
    expect(fake.calls.filter((c) => c.method === 'conversations.join')).toHaveLength(2);
    const second = await run({ allowlist: names, discovery: 'public', joinCap: 2 });
    expect(second.joined).toHaveLength(2);
    const third = await run({ allowlist: names, discovery: 'public', joinCap: 2 });
    expect(third.joined).toHaveLength(1);
    expect(third.pendingJoins).toEqual([]);
    expect(chans.every((c) => c.is_member)).toBe(true);
    expect(fake.calls.filter((c) => c.method === 'conversations.join')).toHaveLength(5);
  });

  it('19 WS-519 a run stops at its budget and reads only inside the window', async () => {
    const c = fake.addChannel({ name: 'busy', is_member: true });
    post(c.id, 45, 'too old');
    post(c.id, 31, 'just outside');
    for (let i = 0; i < 7; i++) post(c.id, 10 - i, `recent ${i}`);
    const report = await run({ allowlist: ['busy'], budget: 5, windowDays: 30 });
    expect(report.fetched).toBe(5);
    expect(await chatEvidence()).toHaveLength(5);
    // Slack was asked only for messages after the window's start.
    const asked = fake.calls.filter((x) => x.method === 'conversations.history').map((x) => Number(x.args.oldest));
    expect(asked.every((o) => o >= (now.getTime() - 30 * DAY) / 1000)).toBe(true);
    const next = await run({ allowlist: ['busy'], budget: 5, windowDays: 30 });
    expect(next.fetched).toBe(2);
    const bodies = (await chatEvidence()).map((e) => e.body);
    expect(bodies).toHaveLength(7);
    expect(bodies).not.toContain('too old');
    expect(bodies).not.toContain('just outside');
  });

  it('19 WS-520 WS-521 the cursor in evidence_slack_sync_cursor makes the next run resume; the report has revisit, stale and pendingJoins', async () => {
    const c = fake.addChannel({ name: 'log', is_member: true });
    const waiting = fake.addChannel({ name: 'later' });
    for (let i = 0; i < 6; i++) post(c.id, 5, `line ${i}`);
    const first = await run({ allowlist: ['log', 'later', 'gone-channel'], budget: 4 });
    expect(first).toHaveProperty('revisit');
    expect(first).toHaveProperty('stale');
    expect(first).toHaveProperty('pendingJoins');
    expect(first.revisit).toEqual([c.id]);
    expect(first.stale).toEqual(['gone-channel']);
    expect(first.pendingJoins).toEqual([waiting.id]);
    const cursor = (
      await sql<{ page_cursor: string | null; latest_ts: string | null }>`
        SELECT page_cursor, latest_ts FROM evidence_slack_sync_cursor WHERE channel_id = ${c.id}`.execute(h.db)
    ).rows[0];
    expect(cursor?.page_cursor).toBeTruthy();
    expect(cursor?.latest_ts).toBeNull();
    // The next run starts from the recorded page cursor (not from the newest message again).
    const second = await run({ allowlist: ['log'], budget: 4 });
    const resumed = fake.calls.filter((x) => x.method === 'conversations.history').at(-1);
    expect(resumed?.args.cursor).toBe(cursor?.page_cursor);
    expect(second.fetched).toBe(2);
    expect(second.revisit).toEqual([]);
    const after = (
      await sql<{ page_cursor: string | null; latest_ts: string | null }>`
        SELECT page_cursor, latest_ts FROM evidence_slack_sync_cursor WHERE channel_id = ${c.id}`.execute(h.db)
    ).rows[0];
    expect(after?.page_cursor).toBeNull();
    const newest = fake.messages.filter((m) => m.channel === c.id).at(-1)?.ts;
    expect(after?.latest_ts).toBe(newest);
    expect((await chatEvidence()).map((e) => e.body).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `line ${i}`));
    // A new message later: the next run asks only after the recorded latest ts.
    post(c.id, 0, 'new line');
    const third = await run({ allowlist: ['log'], budget: 4 });
    expect(fake.calls.filter((x) => x.method === 'conversations.history').at(-1)?.args.oldest).toBe(newest);
    expect(third.stored).toBe(1);
  });

  it('19 WS-516 the worker runs only when configured: without channels no Slack call; with them a run on start, and close waits for it', async () => {
    const c = fake.addChannel({ name: 'general', is_member: true });
    // The started worker reads on the real clock: a message written now.
    fake.say(c.id, 'U00000042', 'configured run');
    const logged: { o: object; msg: string }[] = [];
    const log = {
      info: (o: object, msg: string) => logged.push({ o, msg }),
      warn: (o: object, msg: string) => logged.push({ o, msg }),
    };
    const base = { SLACK_BOT_TOKEN: fake.token, SLACK_API_URL: fake.url };
    await startWorkers(workspaceConfig(base), h.database, log)();
    expect(fake.calls).toHaveLength(0);
    await startWorkers(workspaceConfig({ ...base, CHAT_SYNC_CHANNELS: 'general, #other' }), h.database, log)();
    expect(fake.calls.filter((x) => x.method === 'conversations.history').map((x) => x.args.channel)).toEqual([c.id]);
    expect((await chatEvidence()).map((e) => e.body)).toEqual(['configured run']);
    const report = logged.find((l) => l.msg === 'chat sync run')?.o;
    expect(report).toMatchObject({ stored: 1, revisit: [], stale: ['other'], pendingJoins: [] });
  });
});
