import { randomUUID } from 'node:crypto';
import { commandChecks } from '@platform/kit/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

const DEFAULT_NOW = '2025-06-16T15:00:00Z';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

const checkinsUrl = (projectId: string, goalId: string) => `/v1/projects/${projectId}/goals/${goalId}/checkins`;
const post = (projectId: string, goalId: string, data: Record<string, unknown>, as = OWNER) =>
  h.call('POST', checkinsUrl(projectId, goalId), as, { data });
const goalStatus = async (projectId: string, goalId: string) =>
  (await h.call('GET', `/v1/projects/${projectId}/goals/${goalId}`, OWNER)).data.status;

/** Adds `n` check-ins straight into the table, one minute apart from `start` (test set-up for paging). */
async function seedCheckins(projectId: string, goalId: string, n: number, start: string) {
  await sql`
    INSERT INTO goal_checkins (id, goal_id, project_id, status_before, status, note, author, created_at)
    SELECT gen_random_uuid(), ${goalId}, ${projectId}, 'on_track', 'on_track', 'Seeded ' || i, ${fid(OWNER)},
           ${start}::timestamptz + make_interval(mins => i)
    FROM generate_series(1, ${n}) AS i`.execute(h.db);
}

describe('posting a check-in', () => {
  let shared: { projectId: string; goalId: string };
  beforeAll(async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    shared = { projectId: p.id, goalId: g.id };
  });

  commandChecks('POST .../checkins', {
    app: () => h.app,
    method: 'POST',
    url: () => checkinsUrl(shared.projectId, shared.goalId),
    body: { data: { status: 'at_risk', note: 'Slipping a bit' } },
    otherBody: { data: { status: 'on_track', note: 'Back on track' } },
    allowed: OWNER,
    state: () => h.counts(),
    rules: { missingKey: 'WS-206', replay: 'WS-206', unauthenticated: 'WS-206', conflict: 'WS-206' },
    expectedStatus: 201,
  });

  it('WS-206 WS-212 takes {data: {status, note}} and answers 201 with every field; status_before is the status before', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { status: 'at_risk' });
    h.setNow('2025-06-17T13:00:00Z');
    const r = await post(p.id, g.id, { status: 'off_track', note: 'Vendor is late' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.data).sort()).toEqual(
      ['author', 'created_at', 'goal_id', 'id', 'note', 'project_id', 'status', 'status_before'].sort(),
    );
    expect(r.data).toMatchObject({
      goal_id: g.id,
      project_id: p.id,
      status_before: 'at_risk',
      status: 'off_track',
      note: 'Vendor is late',
      author: fid(OWNER),
      created_at: '2025-06-17T13:00:00.000Z',
    });
    const list = await h.call('GET', checkinsUrl(p.id, g.id), VIEWER);
    expect(list.data).toEqual([r.data]);
  });

  it('WS-023 the owner and the goal lead may post check-ins (201 each)', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    expect((await post(p.id, g.id, { status: 'on_track', note: 'Owner says' }, OWNER)).status).toBe(201);
    const lead = await post(p.id, g.id, { status: 'at_risk', note: 'Lead says' }, VIEWER);
    expect(lead.status).toBe(201);
    expect(lead.data.author).toBe(fid(VIEWER));
    expect(await h.count('goal_checkins')).toBeGreaterThanOrEqual(2);
  });

  it('WS-024 anyone else is refused: 403 not_a_member and no check-in written (404 for people outside the project)', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const other = await h.goal(p.id, { lead: fid(OWNER) });
    const before = await h.counts();
    const seq = await h.seq(p.id);
    const viewer = await post(p.id, g.id, { status: 'on_track', note: 'Not mine' }, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.errors[0].code).toBe('not_a_member');
    // The lead of one goal is not the lead of another.
    const notLead = await post(p.id, other.id, { status: 'on_track', note: 'Not mine' }, EDITOR);
    expect(notLead.status).toBe(403);
    expect(notLead.errors[0].code).toBe('not_a_member');
    const outsider = await post(p.id, g.id, { status: 'on_track', note: 'Hi' }, OUTSIDER);
    expect(outsider.status).toBe(404);
    const limitedAdmin = await h.call(
      'POST',
      checkinsUrl(p.id, g.id),
      { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true', 'idempotency-key': randomUUID() } },
      { data: { status: 'on_track', note: 'Hi' } },
      null,
    );
    expect(limitedAdmin.status).toBe(404);
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
  });

  it('WS-207 the status is on_track, at_risk or off_track; anything else is refused and nothing written', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const before = await h.counts();
    for (const status of ['achieved', 'missed', 'dropped', 'done', '']) {
      const r = await post(p.id, g.id, { status, note: 'Closing by check-in' });
      expect(r.status).toBe(422);
      expect(r.errors[0].field).toContain('status');
    }
    expect((await post(p.id, g.id, { note: 'No status' })).status).toBe(422);
    expect((await post(p.id, g.id, { status: 'on_track', note: 'x', mood: 'good' })).status).toBe(422);
    expect(await h.counts()).toEqual(before);
    expect(await goalStatus(p.id, g.id)).toBe('on_track');
  });

  it('WS-208 the note is trimmed', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const r = await post(p.id, g.id, { status: 'on_track', note: ' \t Good week  \n' });
    expect(r.status).toBe(201);
    expect(r.data.note).toBe('Good week');
    expect((await h.call('GET', checkinsUrl(p.id, g.id), VIEWER)).data[0].note).toBe('Good week');
  });

  it('WS-209 the note is one line: a line break inside is 422 note_not_one_line and nothing written', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const before = await h.counts();
    for (const note of ['First line\nsecond line', 'Windows\r\nbreak', 'Old Mac\rbreak']) {
      const r = await post(p.id, g.id, { status: 'on_track', note });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'note_not_one_line', field: 'data/note' });
    }
    expect(await h.counts()).toEqual(before);
  });

  it('WS-210 the note is 1 to 500 characters after trimming: empty and 501 are refused, 500 accepted', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const before = await h.counts();
    for (const note of ['', '    ', 'x'.repeat(501)]) {
      const r = await post(p.id, g.id, { status: 'on_track', note });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'invalid_note', field: 'data/note' });
      expect(r.errors[0].message).toContain('500');
    }
    expect(await h.counts()).toEqual(before);
    const ok = await post(p.id, g.id, { status: 'on_track', note: `  ${'x'.repeat(500)}  ` });
    expect(ok.status).toBe(201);
    expect(ok.data.note).toHaveLength(500);
    expect((await post(p.id, g.id, { status: 'on_track', note: 'y' })).status).toBe(201);
  });

  it('WS-211 WS-173 a check-in sets the goal status to its own and takes one change number', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    for (const status of ['at_risk', 'off_track', 'off_track', 'on_track']) {
      const seq = await h.seq(p.id);
      const r = await post(p.id, g.id, { status, note: `Now ${status}` });
      expect(r.status).toBe(201);
      expect(await goalStatus(p.id, g.id)).toBe(status);
      expect(await h.seq(p.id)).toBe(seq + 1);
    }
  });

  it('WS-213 only an active goal takes check-ins: a closed goal is 422 goal_closed, nothing written', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const closed = await h.call('PATCH', `/v1/projects/${p.id}/goals/${g.id}`, OWNER, {
      data: { status: 'dropped', closing_note: 'Deprioritised' },
    });
    h.expectStatus('close', closed, 200);
    const before = await h.counts();
    for (const as of [OWNER, EDITOR]) {
      const r = await post(p.id, g.id, { status: 'on_track', note: 'Still going?' }, as);
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('goal_closed');
    }
    expect(await h.counts()).toEqual(before);
    expect(await goalStatus(p.id, g.id)).toBe('dropped');
  });

  it('WS-594 a check-in on an archived project is 409 project_archived, as is every goal write; nothing written', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const bare = await h.goal(p.id);
    const archive = await h.call('POST', `/v1/projects/${p.id}/status`, OWNER, { data: { action: 'archive' } });
    h.expectStatus('archive', archive, 200);
    const before = await h.counts();
    const seq = await h.seq(p.id);
    const writes = [
      await post(p.id, g.id, { status: 'on_track', note: 'Archived?' }, OWNER),
      await post(p.id, g.id, { status: 'on_track', note: 'Archived?' }, EDITOR),
      await h.call('POST', `/v1/projects/${p.id}/goals`, OWNER, { data: { title: 'More' } }),
      await h.call('PATCH', `/v1/projects/${p.id}/goals/${g.id}`, OWNER, { data: { title: 'Renamed' } }),
      await h.call('DELETE', `/v1/projects/${p.id}/goals/${bare.id}`, OWNER),
    ];
    for (const r of writes) {
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('project_archived');
    }
    expect(await h.counts()).toEqual(before);
    expect(await h.seq(p.id)).toBe(seq);
    // Reads still work.
    expect((await h.call('GET', checkinsUrl(p.id, g.id), VIEWER)).status).toBe(200);
  });
});

describe('check-ins are permanent', () => {
  it('WS-214 the database refuses an UPDATE or DELETE of a check-in row (and TRUNCATE)', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    const c = await h.checkin(p.id, g.id, { note: 'Keep me' });
    await expect(sql`UPDATE goal_checkins SET note = 'Changed' WHERE id = ${c.id}`.execute(h.db)).rejects.toThrow(
      /permanent/,
    );
    await expect(sql`DELETE FROM goal_checkins WHERE id = ${c.id}`.execute(h.db)).rejects.toThrow(/permanent/);
    await expect(sql`TRUNCATE goal_checkins CASCADE`.execute(h.db)).rejects.toThrow(/permanent/);
    const row = await sql<{ note: string }>`SELECT note FROM goal_checkins WHERE id = ${c.id}`.execute(h.db);
    expect(row.rows).toEqual([{ note: 'Keep me' }]);
  });
});

describe('listing check-ins', () => {
  it('WS-215 a viewer lists check-ins newest first', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    const ids = [];
    for (const [i, at] of ['2025-06-17T10:00:00Z', '2025-06-18T10:00:00Z', '2025-06-19T10:00:00Z'].entries()) {
      h.setNow(at);
      ids.push((await h.checkin(p.id, g.id, { note: `Week note ${i}` }, VIEWER)).id);
    }
    const r = await h.call('GET', checkinsUrl(p.id, g.id), VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    const times = r.data.map((c: { created_at: string }) => c.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('WS-216 WS-217 pages with pagination[page] and pagination[pageSize]; pageSize defaults to 25', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await seedCheckins(p.id, g.id, 30, '2025-06-17T00:00:00Z');
    const first = await h.call('GET', checkinsUrl(p.id, g.id), VIEWER);
    expect(first.data).toHaveLength(25);
    expect(first.meta.pagination).toEqual({ mode: 'page', page: 1, pageSize: 25, totalItems: 30, totalPages: 2 });
    expect(first.data[0].note).toBe('Seeded 30');
    const second = await h.call('GET', `${checkinsUrl(p.id, g.id)}?pagination[page]=2`, VIEWER);
    expect(second.data.map((c: { note: string }) => c.note)).toEqual([
      'Seeded 5',
      'Seeded 4',
      'Seeded 3',
      'Seeded 2',
      'Seeded 1',
    ]);
    const sized = await h.call('GET', `${checkinsUrl(p.id, g.id)}?pagination[page]=3&pagination[pageSize]=7`, VIEWER);
    expect(sized.meta.pagination).toEqual({ mode: 'page', page: 3, pageSize: 7, totalItems: 30, totalPages: 5 });
    expect(sized.data.map((c: { note: string }) => c.note)[0]).toBe('Seeded 16');
    const past = await h.call('GET', `${checkinsUrl(p.id, g.id)}?pagination[page]=9`, VIEWER);
    expect(past.data).toEqual([]);
    expect(past.meta.pagination.totalItems).toBe(30);
  });

  it('WS-218 pageSize is at most 100: 100 gives 100 of 105; 101 is refused with 422 naming the parameter', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await seedCheckins(p.id, g.id, 105, '2025-06-17T00:00:00Z');
    const full = await h.call('GET', `${checkinsUrl(p.id, g.id)}?pagination[pageSize]=100`, VIEWER);
    expect(full.data).toHaveLength(100);
    expect(full.meta.pagination).toMatchObject({ pageSize: 100, totalItems: 105, totalPages: 2 });
    for (const q of ['pagination[pageSize]=101', 'pagination[pageSize]=0', 'pagination[page]=0', 'limit=5']) {
      const r = await h.call('GET', `${checkinsUrl(p.id, g.id)}?${q}`, VIEWER);
      expect(r.status).toBe(422);
    }
    const over = await h.call('GET', `${checkinsUrl(p.id, g.id)}?pagination[pageSize]=101`, VIEWER);
    expect(over.errors[0].field).toContain('pagination[pageSize]');
  });
});
