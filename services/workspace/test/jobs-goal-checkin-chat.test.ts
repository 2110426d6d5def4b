import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpPeople } from '../src/clients/people.ts';
import { HttpSlack, type Slack } from '../src/clients/slack.ts';
import type { JobSettings } from '../src/routes/jobs-deps.ts';
import { goalWindows } from '../src/store/goal-checkin-chat.ts';
import { type FakeIdentity, startFakeIdentity } from './fakes/identity.ts';
import { type FakeSlack, startFakeSlack } from './fakes/slack.ts';
import { fid, type Harness, harness, SERVICE_TOKEN, tag } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let slack: FakeSlack;
let identity: FakeIdentity;
let h: Harness;
beforeAll(async () => {
  slack = await startFakeSlack();
  identity = await startFakeIdentity({ serviceToken: SERVICE_TOKEN });
});
afterAll(async () => {
  await slack.close();
  await identity.close();
});

const people = () => new HttpPeople({ baseUrl: identity.url, serviceToken: SERVICE_TOKEN });
const realSlack = () => new HttpSlack({ token: slack.token, baseUrl: slack.url });

/** The settings the app runs the job with (the same object: a test may swap the Slack client). */
let settings: JobSettings;
beforeAll(async () => {
  settings = { summarizer: false, questionMessaging: true, slack: realSlack(), people: people() };
  h = await harness({ now: '2025-06-02T12:00:00Z', app: { schedulerToken: SCHEDULER, jobs: settings } });
});
afterAll(() => h.close_());
/** Each test starts with no open goal on an active project: the earlier ones' projects are archived. */
async function fresh(o: { slack?: Slack } = {}) {
  await sql`UPDATE projects SET status = 'archived'`.execute(h.db);
  settings.slack = o.slack ?? realSlack();
}
afterEach(() => {
  slack.failChannels.clear();
});

/** A lead known to identity and (unless said) to Slack. */
function lead(o: { chat?: boolean; email?: boolean } = {}) {
  const email = `lead-${tag()}@ws.test`;
  if (o.email !== false) identity.people.set(fid(email), email);
  const user = o.chat !== false ? slack.addUser({ email }) : undefined;
  return { email, user };
}

/** A goal created Monday 2025-06-02 on a Monday check-in project, led by `email` (a member). */
async function goalLedBy(email: string, project?: { id: string }) {
  h.setNow('2025-06-02T12:00:00Z');
  const p = project ?? (await h.team({ checkin_weekday: 1 }));
  await h.member(p.id, email, 'editor');
  const g = await h.goal(p.id, { lead: fid(email) });
  return { p, g };
}

const run = async () => {
  const r = await h.call('POST', '/internal/jobs/goal-checkin-chat', asScheduler);
  h.expectStatus('goal-checkin-chat', r, 200);
  return r.data as { sent: number; skipped: number; failed: number };
};
const messagesTo = (userId: string | undefined) => slack.messages.filter((m) => m.channel === `D${userId?.slice(1)}`);

// First due day of those goals: Monday 2025-06-09 (13:00 UTC is 09:00 in New York, a week after 08:00).
const DUE_MONDAY = '2025-06-09T13:00:00Z';

describe('goal-checkin-chat', () => {
  it('19 WS-499 on the question-messaging release the route is served (before it: 404, in jobs-scheduler.test.ts)', async () => {
    await fresh();
    expect((await h.call('POST', '/internal/jobs/goal-checkin-chat', asScheduler)).status).toBe(200);
  });

  it('19 WS-500 WS-507 messages the lead of every due or overdue goal on an active project, one each; answers {sent, skipped, failed}', async () => {
    await fresh();
    const dueLead = lead();
    const overdueLead = lead();
    const currentLead = lead();
    const closedLead = lead();
    const archivedLead = lead();
    const due = await goalLedBy(dueLead.email);
    // A Friday check-in project: on Monday 06-09 its goal is overdue since... its first due day is Friday 06-13: current.
    const current = await goalLedBy(currentLead.email, await h.team({ checkin_weekday: 5 }));
    // Overdue: created a week earlier, first due Monday 06-02 passed without a check-in... make it due on a Thursday.
    h.setNow('2025-05-26T12:00:00Z');
    const thursday = await h.team({ checkin_weekday: 4 });
    await h.member(thursday.id, overdueLead.email, 'editor');
    const overdue = await h.goal(thursday.id, { lead: fid(overdueLead.email) });
    const closed = await goalLedBy(closedLead.email);
    await sql`UPDATE goals SET status = 'achieved', closed_at = now() WHERE id = ${closed.g.id}`.execute(h.db);
    const archived = await goalLedBy(archivedLead.email);
    await sql`UPDATE projects SET status = 'archived' WHERE id = ${archived.p.id}`.execute(h.db);

    h.setNow(DUE_MONDAY);
    const r = await run();
    expect(r).toEqual({ sent: 2, skipped: 0, failed: 0 });
    expect(messagesTo(dueLead.user?.id)).toHaveLength(1);
    expect(messagesTo(dueLead.user?.id)[0]?.text).toContain(due.g.title);
    expect(messagesTo(overdueLead.user?.id)).toHaveLength(1);
    expect(messagesTo(overdueLead.user?.id)[0]?.text).toContain('overdue since 2025-06-05');
    for (const l of [currentLead, closedLead, archivedLead]) expect(messagesTo(l.user?.id)).toEqual([]);
    expect(await goalWindows(h.db, due.g.id)).toMatchObject([{ state: 'due', checkin_day: '2025-06-09' }]);
    expect(await goalWindows(h.db, overdue.id)).toMatchObject([{ state: 'overdue', checkin_day: '2025-06-05' }]);
    expect(await goalWindows(h.db, current.g.id)).toEqual([]);
  });

  it('19 WS-501 WS-505 a second run in the same window sends nothing for that goal: the lead is skipped as already messaged', async () => {
    await fresh();
    const l = lead();
    await goalLedBy(l.email);
    h.setNow(DUE_MONDAY);
    expect(await run()).toEqual({ sent: 1, skipped: 0, failed: 0 });
    h.setNow('2025-06-09T18:00:00Z');
    expect(await run()).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect(messagesTo(l.user?.id)).toHaveLength(1);
  });

  it('19 WS-502 never a third message for one goal in a week: due on the day, overdue once after it', async () => {
    await fresh();
    const l = lead();
    const { g } = await goalLedBy(l.email);
    for (const day of ['2025-06-09', '2025-06-10', '2025-06-11', '2025-06-12', '2025-06-13']) {
      h.setNow(`${day}T13:00:00Z`);
      await run();
    }
    expect(messagesTo(l.user?.id)).toHaveLength(2);
    expect((await goalWindows(h.db, g.id)).map((w) => [w.state, w.checkin_day])).toEqual([
      ['due', '2025-06-09'],
      ['overdue', '2025-06-09'],
    ]);
  });

  it('19 WS-503 a lead no longer on the project is skipped, with no message', async () => {
    await fresh();
    const l = lead();
    const { p } = await goalLedBy(l.email);
    await h.db
      .deleteFrom('project_members')
      .where('project_id', '=', p.id)
      .where('principal_id', '=', fid(l.email))
      .execute();
    h.setNow(DUE_MONDAY);
    expect(await run()).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect(messagesTo(l.user?.id)).toEqual([]);
  });

  it('19 WS-504 leads without a chat account (none in Slack, or no email known) are skipped, with no message', async () => {
    await fresh();
    const noChat = lead({ chat: false });
    const noEmail = lead({ email: false });
    await goalLedBy(noChat.email);
    await goalLedBy(noEmail.email);
    h.setNow(DUE_MONDAY);
    const before = slack.messages.length;
    expect(await run()).toEqual({ sent: 0, skipped: 2, failed: 0 });
    expect(slack.messages.length).toBe(before);
    const lookups = slack.calls.filter((c) => c.method === 'users.lookupByEmail').map((c) => c.args.email);
    expect(lookups).toContain(noChat.email);
  });

  it('19 WS-506 a failed send records no window and the next run tries again', async () => {
    await fresh();
    const l = lead();
    const { g } = await goalLedBy(l.email);
    slack.failChannels.add(l.user?.id ?? '');
    h.setNow(DUE_MONDAY);
    expect(await run()).toEqual({ sent: 0, skipped: 0, failed: 1 });
    expect(await goalWindows(h.db, g.id)).toEqual([]);
    slack.failChannels.clear();
    h.setNow('2025-06-09T13:30:00Z');
    expect(await run()).toEqual({ sent: 1, skipped: 0, failed: 0 });
    expect(await goalWindows(h.db, g.id)).toMatchObject([{ state: 'due', checkin_day: '2025-06-09' }]);
    expect(messagesTo(l.user?.id)).toHaveLength(1);
  });

  it('19 WS-508 the run allows itself fifteen minutes: no goal is started after them', async () => {
    // Each send takes six minutes on the injected clock.
    const real = realSlack();
    const slow: Slack = {
      lookupByEmail: (email) => real.lookupByEmail(email),
      postMessage: async (m) => {
        h.setNow(new Date(h.now().getTime() + 6 * 60_000).toISOString());
        return real.postMessage(m);
      },
    };
    await fresh({ slack: slow });
    const p = await h.team({ checkin_weekday: 1 });
    for (let i = 0; i < 5; i += 1) await goalLedBy(lead().email, p);
    h.setNow(DUE_MONDAY);
    const r = await run();
    // Sends start at 0, 6 and 12 minutes; at 18 minutes the run has ended.
    expect(r).toEqual({ sent: 3, skipped: 0, failed: 0 });
    expect(h.now().getTime() - new Date(DUE_MONDAY).getTime()).toBeLessThanOrEqual(18 * 60_000);
    // The rest go at the next run.
    h.setNow('2025-06-09T14:00:00Z');
    expect((await run()).sent).toBe(2);
  });

  it('19 WS-509 two concurrent runs are not prevented: a second run started during the first is not refused', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered: () => void = () => {};
    const inFirst = new Promise<void>((r) => {
      entered = r;
    });
    const real = realSlack();
    let held = false;
    const holding: Slack = {
      lookupByEmail: (email) => real.lookupByEmail(email),
      postMessage: async (m) => {
        if (!held) {
          held = true;
          entered();
          await gate;
        }
        return real.postMessage(m);
      },
    };
    await fresh({ slack: holding });
    const l = lead();
    const { g } = await goalLedBy(l.email);
    h.setNow(DUE_MONDAY);
    const first = h.call('POST', '/internal/jobs/goal-checkin-chat', asScheduler);
    await inFirst;
    // The first run is in the middle of its send: a second one starts and is answered.
    const second = await h.call('POST', '/internal/jobs/goal-checkin-chat', asScheduler);
    expect(second.status).toBe(200);
    release();
    expect((await first).status).toBe(200);
    // Not prevented, so each run may send (the window is recorded after the send): one window row.
    expect(second.data).toEqual({ sent: 1, skipped: 0, failed: 0 });
    expect(await goalWindows(h.db, g.id)).toHaveLength(1);
  });
});
