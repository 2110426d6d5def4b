import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceTo } from './fixtures/projects.ts';
import { EDITOR, fid, type Harness, harness, READER } from './harness.ts';

/**
 * The portfolio (GET /v1/development-projects) over a spread of projects: every kind, several
 * statuses, stages, owners, regions, and kept figures that make each health and freshness.
 */
let h: Harness;
const OWNER_A = fid('owner.a@construction.test');
const OWNER_B = fid('owner.b@construction.test');
type Row = Record<string, unknown> & { id: string; code: string; name: string };

const list = async (query: string, as = READER) => {
  const r = await h.call('GET', `/v1/development-projects?pagination[pageSize]=200&${query}`, as);
  expect(r.status, query).toBe(200);
  return r.data as Row[];
};

beforeAll(async () => {
  h = await harness();
  const kinds = ['master_plan', 'ground_up', 'conversion', 'capital_improvement'];
  for (let i = 0; i < 12; i++) {
    const p = await h.project({
      code: `PF-${String(i).padStart(2, '0')}`,
      name: i % 3 === 0 ? `Harbour Tower ${i}` : `Depot ${i}`,
      kind: kinds[i % 4],
      owner_fid: i % 2 === 0 ? OWNER_A : OWNER_B,
      region: ['North', 'South', 'East'][i % 3],
    });
    if (i % 4 === 1) await advanceTo(h, p.id, 'design');
    if (i % 4 === 2) await advanceTo(h, p.id, 'construction');
    if (i === 5) await h.ok('POST', `/v1/development-projects/${p.id}/status`, { status: 'on_hold' });
    if (i === 6) await h.ok('POST', `/v1/development-projects/${p.id}/status`, { status: 'cancelled' });
    // Figures: today is 2026-03-02. fresh / aging / stale updates; overdue milestones; over budget.
    const update = ['2026-03-01', '2026-02-20', '2026-01-10', null][i % 4];
    const due = i % 5 === 0 ? '2026-01-01' : i % 5 === 1 ? '2026-02-25' : '2026-06-01';
    await sql`UPDATE development_projects SET last_update_on = ${update}, next_milestone_due = ${due},
      budget_minor = 1000, committed_minor = ${i % 6 === 3 ? 1500 : 500}, actual_minor = ${i === 8 ? 2000 : 100}
      WHERE id = ${p.id}`.execute(h.db);
  }
});
afterAll(async () => h.close_());

describe('portfolio filters', () => {
  it('17 CON-019 the portfolio filters by status', async () => {
    for (const status of ['active', 'on_hold', 'cancelled']) {
      const rows = await list(`status=${status}`);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.status).toBe(status);
    }
    expect(await list('status=completed')).toEqual([]);
    expect((await h.call('GET', '/v1/development-projects?status=paused', READER)).status).toBe(422);
  });

  it('17 CON-020 the portfolio filters by kind', async () => {
    for (const kind of ['master_plan', 'ground_up', 'conversion', 'capital_improvement']) {
      const rows = await list(`kind=${kind}`);
      expect(rows).toHaveLength(3);
      for (const r of rows) expect(r.kind).toBe(kind);
    }
  });

  it('17 CON-021 the portfolio filters by stage', async () => {
    for (const [stage, n] of [
      ['initiation', 6],
      ['design', 3],
      ['construction', 3],
      ['award', 0],
    ] as const) {
      const rows = await list(`stage=${stage}`);
      expect(rows, stage).toHaveLength(n);
      for (const r of rows) expect(r.stage).toBe(stage);
    }
  });

  it('17 CON-022 the portfolio filters by phase', async () => {
    for (const [phase, n] of [
      ['planning', 6],
      ['pre_construction', 3],
      ['delivery', 3],
      ['closeout', 0],
    ] as const) {
      const rows = await list(`phase=${phase}`);
      expect(rows, phase).toHaveLength(n);
      for (const r of rows) expect(r.phase).toBe(phase);
    }
  });

  it('17 CON-023 the portfolio filters by owner_fid', async () => {
    for (const owner of [OWNER_A, OWNER_B]) {
      const rows = await list(`owner_fid=${encodeURIComponent(owner)}`);
      expect(rows).toHaveLength(6);
      for (const r of rows) expect(r.owner_fid).toBe(owner);
    }
    expect(await list(`owner_fid=${encodeURIComponent(fid(EDITOR))}`)).toEqual([]);
  });

  it('17 CON-024 the portfolio filters by region', async () => {
    for (const region of ['North', 'South', 'East']) {
      const rows = await list(`region=${region}`);
      expect(rows).toHaveLength(4);
      for (const r of rows) expect(r.region).toBe(region);
    }
  });

  it('17 CON-025 the portfolio filters by health, agreeing with the health each project shows', async () => {
    const all = await list('');
    let seen = 0;
    for (const health of ['green', 'amber', 'red']) {
      const rows = await list(`health=${health}`);
      expect(rows.length, health).toBeGreaterThan(0);
      for (const r of rows) expect(r.health).toBe(health);
      expect(rows.map((r) => r.id).sort()).toEqual(
        all
          .filter((r) => r.health === health)
          .map((r) => r.id)
          .sort(),
      );
      seen += rows.length;
    }
    expect(seen).toBe(all.length);
  });

  it('17 CON-026 the portfolio filters by freshness, agreeing with the freshness each project shows', async () => {
    const all = await list('');
    for (const freshness of ['fresh', 'aging', 'stale']) {
      const rows = await list(`freshness=${freshness}`);
      expect(rows.length, freshness).toBeGreaterThan(0);
      for (const r of rows) expect(r.freshness).toBe(freshness);
      expect(rows.map((r) => r.id).sort()).toEqual(
        all
          .filter((r) => r.freshness === freshness)
          .map((r) => r.id)
          .sort(),
      );
    }
    // A week later the fresh ones have aged.
    h.setNow('2026-03-12T12:00:00Z');
    for (const r of await list('freshness=aging')) expect(r.freshness).toBe('aging');
    expect(await list('freshness=fresh')).toEqual([]);
    h.setNow('2026-03-02T12:00:00Z');
  });

  it('17 CON-027 the portfolio filters by search on code or name, any case', async () => {
    const byName = await list('search=harbour');
    expect(byName).toHaveLength(4);
    for (const r of byName) expect(`${r.code} ${r.name}`.toLowerCase()).toContain('harbour');
    const byCode = await list('search=pf-1');
    expect(byCode.map((r) => r.code).sort()).toEqual(['PF-10', 'PF-11']);
    // LIKE wildcards are taken literally.
    expect(await list('search=%25')).toEqual([]);
    expect(await list('search=_')).toEqual([]);
  });

  it('17 CON-013 CON-019 filters combine, and the list pages under payload.meta.pagination', async () => {
    const rows = await list('status=active&region=North&kind=master_plan');
    for (const r of rows) expect(r).toMatchObject({ status: 'active', region: 'North', kind: 'master_plan' });
    const page = await h.call('GET', '/v1/development-projects?pagination[page]=2&pagination[pageSize]=5', READER);
    expect(page.meta.pagination).toEqual({ mode: 'page', page: 2, pageSize: 5, totalItems: 12, totalPages: 3 });
    expect(page.data.map((r: Row) => r.code)).toEqual(['PF-05', 'PF-06', 'PF-07', 'PF-08', 'PF-09']);
    expect((await h.call('GET', '/v1/development-projects?pagination[pageSize]=201', READER)).status).toBe(422);
  });
});
