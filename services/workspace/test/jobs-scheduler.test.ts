import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, type Harness, harness } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

/** The committed schedule the platform scheduler runs (services/workspace/deploy/schedule.json). */
const schedule = JSON.parse(readFileSync(new URL('../deploy/schedule.json', import.meta.url), 'utf8')) as {
  header: string;
  timezone: string;
  jobs: { name: string; method: string; path: string; cron: string }[];
  manual: { name: string; path: string }[];
};
const cronOf = (path: string) => schedule.jobs.filter((j) => j.path.split('?')[0] === path).map((j) => j.cron);

const JOBS = [
  'expire-sessions',
  'expire-grants',
  'unblock-reminders',
  'person-context-refresh',
  'meeting-summaries',
  'goal-checkin-chat',
  'flow-tools-sync',
];

describe('the scheduler definition', () => {
  it('19 WS-478 expire-sessions is called every 15 minutes', () => {
    expect(cronOf('/internal/jobs/expire-sessions')).toEqual(['*/15 * * * *']);
    expect(schedule.header).toBe('X-Platform-Scheduler-Token');
    expect(schedule.timezone).toBe('UTC');
  });
  it('19 WS-480 expire-grants is called by the scheduler (its own entry, every 15 minutes)', () => {
    expect(cronOf('/internal/jobs/expire-grants')).toEqual(['*/15 * * * *']);
    const names = schedule.jobs.map((j) => j.name);
    expect(names.indexOf('expire-grants')).not.toBe(names.indexOf('expire-sessions'));
  });
  it('19 WS-487 unblock-reminders is called once a day', () => {
    const [cron] = cronOf('/internal/jobs/unblock-reminders');
    expect(cronOf('/internal/jobs/unblock-reminders')).toHaveLength(1);
    // minute hour: fixed; day, month, weekday: every.
    expect(cron).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
  });
  it('19 WS-489 WS-490 person-context-refresh runs half-hourly for changed sources and nightly for the 90-day window', () => {
    const runs = schedule.jobs.filter((j) => j.path.startsWith('/internal/jobs/person-context-refresh'));
    expect(runs.map((j) => [j.path, j.cron])).toEqual([
      ['/internal/jobs/person-context-refresh?mode=changed', '*/30 * * * *'],
      ['/internal/jobs/person-context-refresh?mode=nightly', expect.stringMatching(/^\d{1,2} \d{1,2} \* \* \*$/)],
    ]);
  });
  it('19 WS-498 meeting-summaries is called every two minutes', () => {
    expect(cronOf('/internal/jobs/meeting-summaries')).toEqual(['*/2 * * * *']);
  });
  it('19 WS-510 goal-checkin-chat is called at 13:00 UTC on weekdays', () => {
    expect(cronOf('/internal/jobs/goal-checkin-chat')).toEqual(['0 13 * * 1-5']);
  });
  it('19 WS-512 flow-tools-sync is run manually: no schedule calls it', () => {
    expect(cronOf('/internal/jobs/flow-tools-sync')).toEqual([]);
    expect(schedule.manual.map((m) => m.path)).toEqual(['/internal/jobs/flow-tools-sync']);
    // Every other job is scheduled, each with POST.
    const scheduled = new Set(schedule.jobs.map((j) => j.path.split('?')[0]?.replace('/internal/jobs/', '')));
    expect(JOBS.filter((j) => !scheduled.has(j))).toEqual(['flow-tools-sync']);
    expect(new Set(schedule.jobs.map((j) => j.method))).toEqual(new Set(['POST']));
  });
});

describe('without SCHEDULER_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ app: { jobs: { summarizer: true, questionMessaging: true } } });
  });
  afterAll(() => h.close_());

  it('19 WS-474 no internal job route is registered: 404 on every /internal/jobs/ route, whoever calls', async () => {
    for (const j of JOBS) {
      for (const as of [asScheduler, ADMIN, null]) {
        const r = await h.call('POST', `/internal/jobs/${j}`, as, {});
        expect([j, r.status]).toEqual([j, 404]);
      }
    }
  });
});

describe('with SCHEDULER_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ app: { schedulerToken: SCHEDULER } });
  });
  afterAll(() => h.close_());

  it('19 WS-473 a call without the scheduler token is refused (401) and the job does not run', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    expect(g.id).toBeTruthy();
    const before = await h.state();
    for (const j of [
      'expire-sessions',
      'expire-grants',
      'unblock-reminders',
      'person-context-refresh',
      'flow-tools-sync',
    ]) {
      const none = await h.call('POST', `/internal/jobs/${j}`, null, {});
      expect([j, none.status]).toEqual([j, 401]);
      const wrong = await h.call(
        'POST',
        `/internal/jobs/${j}`,
        { headers: { 'x-platform-scheduler-token': 'nope' } },
        {},
      );
      expect([j, wrong.status]).toEqual([j, 401]);
      // A signed-in person, a platform admin included, is no scheduler.
      for (const as of [EDITOR, ADMIN]) {
        const person = await h.call('POST', `/internal/jobs/${j}`, as, {});
        expect([j, as, person.status]).toEqual([j, as, 403]);
      }
    }
    expect(await h.state()).toEqual(before);
    const ok = await h.call('POST', '/internal/jobs/expire-sessions', asScheduler, {});
    expect(ok.status).toBe(200);
  });

  it('19 WS-473 the scheduler token opens nothing but the job routes', async () => {
    const r = await h.call('GET', '/v1/projects', asScheduler);
    expect(r.status).toBe(401);
  });

  it('19 WS-494 WS-499 meeting-summaries and goal-checkin-chat are not registered before their releases (404)', async () => {
    expect((await h.call('POST', '/internal/jobs/meeting-summaries', asScheduler, {})).status).toBe(404);
    expect((await h.call('POST', '/internal/jobs/goal-checkin-chat', asScheduler, {})).status).toBe(404);
  });
});
