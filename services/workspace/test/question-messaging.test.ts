import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpPeople } from '../src/clients/people.ts';
import { HttpSlack } from '../src/clients/slack.ts';
import { recordActivity } from '../src/commands/activity.ts';
import { events } from '../src/events.ts';
import type { UnblockRequest } from '../src/schemas/unblock-requests.ts';
import { questionMessagingPass } from '../src/workers/question-messaging.ts';
import { type FakeIdentity, startFakeIdentity } from './fakes/identity.ts';
import { type FakeSlack, startFakeSlack } from './fakes/slack.ts';
import { EDITOR, fid, type Harness, harness, OWNER, SERVICE_TOKEN, VIEWER } from './harness.ts';

let h: Harness;
let fake: FakeSlack;
let identity: FakeIdentity;
let now = new Date('2026-03-10T14:00:00Z');
const clock = () => now;
let deps: Parameters<typeof questionMessagingPass>[0];
let viewerSlack: string;
let editorSlack: string;

beforeAll(async () => {
  h = await harness();
  fake = await startFakeSlack();
  identity = await startFakeIdentity({ serviceToken: SERVICE_TOKEN });
  identity.people.set(fid(VIEWER), VIEWER);
  identity.people.set(fid(EDITOR), EDITOR);
  viewerSlack = fake.addUser({ email: VIEWER }).id;
  editorSlack = fake.addUser({ email: EDITOR }).id;
  deps = {
    db: h.db,
    slack: new HttpSlack({ token: fake.token, baseUrl: fake.url }),
    people: new HttpPeople({ baseUrl: identity.url, serviceToken: SERVICE_TOKEN }),
    clock,
    source: { database: h.database, clock, events, onEmit: recordActivity },
  };
});
afterAll(async () => {
  await identity.close();
  await fake.close();
  await h.close_();
});
beforeEach(async () => {
  // Each test starts with no open question.
  await sql`UPDATE unblock_requests SET status = 'withdrawn' WHERE status IN ('open', 'answered')`.execute(h.db);
  now = new Date('2026-03-10T14:00:00Z');
});

const pass = () => questionMessagingPass(deps, { postHourUtc: 13 });

async function question(recipient = VIEWER, needed = 'Which bank account should the refund go to?') {
  const p = await h.team();
  const t = await h.task(p.id);
  const r = await h.call('POST', `/v1/projects/${p.id}/unblock-requests`, OWNER, {
    data: {
      recipient: fid(recipient),
      needed,
      why_now: 'The refund run closes on Friday',
      waiting_record: { type: 'task', id: t.id },
      answer_kind: 'explanation',
    },
  });
  h.expectStatus('unblock request', r, 201);
  return { projectId: p.id, request: r.data as UnblockRequest };
}

const readRequest = async (projectId: string, id: string) => {
  const r = await h.call('GET', `/v1/projects/${projectId}/unblock-requests/${id}`, OWNER);
  h.expectStatus('read', r, 200);
  return r.data as UnblockRequest & { answers: { answer: string; answered_by: string }[] };
};
const dmsTo = (slackUser: string) =>
  fake.messages.filter((m) => m.channel === `D${slackUser.slice(1)}` && !m.user && !m.thread_ts);

describe('question messaging', () => {
  it('19 WS-513 each open assigned question is messaged once a day to its recipient, again the next day while open', async () => {
    const a = await question(VIEWER, 'First question?');
    const b = await question(VIEWER, 'Second question?');
    const c = await question(EDITOR, 'Editor question?');
    const before = dmsTo(viewerSlack).length;
    // Before the posting hour nothing is sent.
    now = new Date('2026-03-10T09:00:00Z');
    expect((await pass()).posted).toBe(0);
    now = new Date('2026-03-10T14:00:00Z');
    const first = await pass();
    expect(first.posted).toBe(3);
    const toViewer = dmsTo(viewerSlack).slice(before);
    expect(toViewer.map((m) => m.text).filter((t) => t.includes('question?'))).toHaveLength(2);
    expect(toViewer.some((m) => m.text.includes('First question?'))).toBe(true);
    expect(dmsTo(editorSlack).some((m) => m.text.includes('Editor question?'))).toBe(true);
    // Later passes and concurrent passes the same day send nothing more.
    now = new Date('2026-03-10T18:00:00Z');
    const again = await Promise.all([pass(), pass()]);
    expect(again.map((r) => r.posted)).toEqual([0, 0]);
    expect(dmsTo(viewerSlack).slice(before)).toHaveLength(2);
    const rows = await sql<{ n: string }>`
      SELECT count(*) AS n FROM chat_question_messages WHERE request_id IN (${a.request.id}, ${b.request.id}, ${c.request.id})`.execute(
      h.db,
    );
    expect(Number(rows.rows[0]?.n)).toBe(3);
    // The next day, one message per question still open.
    now = new Date('2026-03-11T13:30:00Z');
    expect((await pass()).posted).toBe(3);
    // A failed post records nothing for the day, so a later pass sends it.
    now = new Date('2026-03-12T13:00:00Z');
    fake.failChannels.add(viewerSlack);
    const failing = await pass();
    expect(failing.failed).toBe(2);
    fake.failChannels.delete(viewerSlack);
    expect((await pass()).posted).toBe(2);
  });

  it('19 WS-514 a reply in the question message thread answers that question', async () => {
    const older = await question(VIEWER, 'Older question?');
    const asked = await question(VIEWER, 'Threaded question?');
    await pass();
    const msg = fake.messages.find((m) => m.text.includes('Older question?') && !m.user);
    expect(msg).toBeDefined();
    fake.say(msg!.channel, viewerSlack, 'Use the savings account', { thread_ts: msg!.ts });
    const report = await pass();
    expect(report.answered).toBe(1);
    const answered = await readRequest(older.projectId, older.request.id);
    expect(answered.status).toBe('answered');
    expect(JSON.stringify(answered)).toContain('Use the savings account');
    // The thread answered its own question, not the latest one.
    expect((await readRequest(asked.projectId, asked.request.id)).status).toBe('open');
    // The answer went through the request's own answer action: its event, as the recipient.
    const evts = await h.events('project.unblock_request_answered');
    expect(evts.some((e) => JSON.stringify(e).includes(older.request.id))).toBe(true);
    // Read again: applied once.
    expect((await pass()).answered).toBe(0);
  });

  it('19 WS-515 a message outside any thread answers the sender latest open question', async () => {
    h.setNow('2026-03-10T10:00:00Z');
    const first = await question(VIEWER, 'Earlier question?');
    h.setNow('2026-03-10T11:00:00Z');
    const latest = await question(VIEWER, 'Latest question?');
    await pass();
    const dm = `D${viewerSlack.slice(1)}`;
    fake.say(dm, viewerSlack, 'Friday works');
    const report = await pass();
    expect(report.answered).toBe(1);
    const read = await readRequest(latest.projectId, latest.request.id);
    expect(read.status).toBe('answered');
    expect(JSON.stringify(read)).toContain('Friday works');
    expect((await readRequest(first.projectId, first.request.id)).status).toBe('open');
    // The next plain message answers what is now the latest open one.
    fake.say(dm, viewerSlack, 'The blue one');
    expect((await pass()).answered).toBe(1);
    expect((await readRequest(first.projectId, first.request.id)).status).toBe('answered');
    // Nothing open: a further message answers nothing and is not applied twice.
    fake.say(dm, viewerSlack, 'anything else?');
    const idle = await pass();
    expect(idle.answered).toBe(0);
    expect(idle.notAnswered).toBe(1);
    expect((await pass()).notAnswered).toBe(0);
  });
});
