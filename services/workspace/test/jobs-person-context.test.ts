import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpIntelligence } from '../src/clients/intelligence.ts';
import { personAssignments, setPersonalization } from '../src/store/person-contexts.ts';
import { type FakeIntelligencePeople, startFakeIntelligencePeople } from './fakes/intelligence-people.ts';
import { type Harness, harness, SERVICE_TOKEN, tag } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let intel: FakeIntelligencePeople;
let h: Harness;
beforeAll(async () => {
  intel = await startFakeIntelligencePeople({ serviceToken: SERVICE_TOKEN });
  h = await harness({
    now: '2025-06-16T03:00:00Z',
    app: {
      schedulerToken: SCHEDULER,
      jobs: {
        summarizer: false,
        questionMessaging: false,
        peopleContext: new HttpIntelligence({ baseUrl: intel.url, serviceToken: SERVICE_TOKEN }),
      },
    },
  });
});
afterAll(async () => {
  await h.close_();
  await intel.close();
});

type Result = {
  mode: string;
  roster: string;
  roster_error?: string;
  people_added: number;
  refreshed: number;
  skipped_personalization_off: number;
  failed: number;
  sources_read: number;
  assignments_retired: number;
};
const run = async (mode?: 'changed' | 'nightly') => {
  const r = await h.call('POST', `/internal/jobs/person-context-refresh${mode ? `?mode=${mode}` : ''}`, asScheduler);
  h.expectStatus('person-context-refresh', r, 200);
  return r.data as Result;
};
/** The source ids each context read asked for this person, in order. */
const readsOf = (person: string) =>
  intel.calls
    .filter((c) => c.path === '/v1/people/context' && c.body.person_id === person)
    .map((c) => (c.body.source_ids as string[]).slice().sort());

const person = (name: string) => {
  const id = `p-${name}-${tag()}`;
  intel.roster.push({ person_id: id, email: `${name}-${id}@ws.test`, name });
  return id;
};
const source = (
  id: string,
  updated: string,
  assignments: { assignment_id: string; project_id: string; role: string }[] = [],
) => ({
  source_id: id,
  kind: 'project_membership',
  updated_at: updated,
  assignments,
});

describe('person-context-refresh', () => {
  it('19 WS-488 refreshes the people roster and the people already known', async () => {
    const known = `p-known-${tag()}`;
    await setPersonalization(h.db, known, true, h.now());
    const a = person('ana');
    const b = person('ben');
    const r = await run();
    expect(r).toMatchObject({ mode: 'changed', roster: 'read', failed: 0 });
    expect(r.people_added).toBeGreaterThanOrEqual(2);
    const rows = await h.db
      .selectFrom('person_contexts')
      .select(['person_id', 'email', 'refreshed_at'])
      .where('person_id', 'in', [known, a, b])
      .orderBy('person_id')
      .execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.refreshed_at).not.toBeNull();
    expect(rows.find((x) => x.person_id === a)?.email).toContain('ana-');
    // The known person was asked about too, though not on the roster.
    expect(intel.calls.some((c) => c.path === '/v1/people/sources' && c.body.person_id === known)).toBe(true);
  });

  it('19 WS-489 the half-hourly run rereads changed sources only', async () => {
    const a = person('cat');
    intel.sources.set(a, [source('s1', '2025-06-10T00:00:00Z'), source('s2', '2025-06-12T00:00:00Z')]);
    await run('changed');
    expect(readsOf(a)).toEqual([['s1', 's2']]);
    // Nothing changed: nothing reread.
    h.setNow('2025-06-16T03:30:00Z');
    await run('changed');
    expect(readsOf(a)).toEqual([['s1', 's2']]);
    // s2 changed: only s2 is reread.
    intel.sources.set(a, [source('s1', '2025-06-10T00:00:00Z'), source('s2', '2025-06-16T03:10:00Z')]);
    h.setNow('2025-06-16T04:00:00Z');
    await run('changed');
    expect(readsOf(a)).toEqual([['s1', 's2'], ['s2']]);
  });

  it('19 WS-490 the nightly run rereads every source of the 90-day window', async () => {
    h.setNow('2025-06-17T07:00:00Z');
    const a = person('dan');
    intel.sources.set(a, [
      source('recent', '2025-06-01T00:00:00Z'),
      source('edge', '2025-03-25T00:00:00Z'), // 84 days before the nightly run
      source('old', '2025-01-01T00:00:00Z'), // outside the window
    ]);
    await run('changed');
    expect(readsOf(a)).toEqual([['edge', 'recent']]);
    // Unchanged since, and still reread in full at night.
    h.setNow('2025-06-18T07:00:00Z');
    const r = await run('nightly');
    expect(r.mode).toBe('nightly');
    expect(readsOf(a)).toEqual([
      ['edge', 'recent'],
      ['edge', 'recent'],
    ]);
  });

  it('19 WS-491 the nightly run retires assignments its reread no longer shows', async () => {
    h.setNow('2025-06-19T07:00:00Z');
    const a = person('eve');
    const keep = { assignment_id: 'keep', project_id: 'proj-1', role: 'editor' };
    const gone = { assignment_id: 'gone', project_id: 'proj-2', role: 'owner' };
    intel.sources.set(a, [source('s1', '2025-06-10T00:00:00Z', [keep, gone])]);
    await run('nightly');
    expect((await personAssignments(h.db, a)).map((x) => [x.assignment_id, x.retired_at])).toEqual([
      ['gone', null],
      ['keep', null],
    ]);
    intel.sources.set(a, [source('s1', '2025-06-10T00:00:00Z', [keep])]);
    h.setNow('2025-06-20T07:00:00Z');
    const r = await run('nightly');
    expect(r.assignments_retired).toBeGreaterThanOrEqual(1);
    const after = await personAssignments(h.db, a);
    expect(after.find((x) => x.assignment_id === 'gone')?.retired_at).not.toBeNull();
    expect(after.find((x) => x.assignment_id === 'keep')?.retired_at).toBeNull();
  });

  it('19 WS-492 people who turned personalization off are skipped: nothing read or refreshed for them', async () => {
    h.setNow('2025-06-21T07:00:00Z');
    const a = person('fay');
    intel.sources.set(a, [source('s1', '2025-06-10T00:00:00Z')]);
    await setPersonalization(h.db, a, false, h.now());
    const r = await run('nightly');
    expect(r.skipped_personalization_off).toBeGreaterThanOrEqual(1);
    expect(intel.calls.filter((c) => c.body.person_id === a)).toEqual([]);
    const row = await h.db
      .selectFrom('person_contexts')
      .selectAll()
      .where('person_id', '=', a)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ personalization: false, refreshed_at: null });
    expect(await personAssignments(h.db, a)).toEqual([]);
  });

  it('19 WS-493 the answer says the roster could not be read when the intelligence service is down', async () => {
    intel.down = true;
    try {
      const r = await run();
      expect(r).toMatchObject({ roster: 'unavailable', roster_error: 'refused', people_added: 0, refreshed: 0 });
      expect(r.failed).toBeGreaterThan(0);
    } finally {
      intel.down = false;
    }
  });
});
