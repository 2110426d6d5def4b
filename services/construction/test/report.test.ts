import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceTo, completedProject } from './fixtures/projects.ts';
import { fid, type Harness, harness, READER } from './harness.ts';

/** The weekly portfolio report (GET /v1/reports/portfolio) and its filters. */
let h: Harness;
const OWNER_A = fid('owner.a@construction.test');
const OWNER_B = fid('owner.b@construction.test');
type Row = Record<string, unknown> & { id: string; code: string; health: string; stage: string };

const report = async (query = '') => {
  const r = await h.call('GET', `/v1/reports/portfolio${query ? `?${query}` : ''}`, {
    gateway: 'someone@construction.test',
  });
  expect(r.status, query).toBe(200);
  return r.data as { as_of: string; projects: Row[]; totals: Record<string, unknown> & { projects: number } };
};

beforeAll(async () => {
  h = await harness();
  const kinds = ['master_plan', 'ground_up', 'conversion', 'capital_improvement'];
  for (let i = 0; i < 8; i++) {
    const p = await h.project({
      code: `RP-${i}`,
      kind: kinds[i % 4],
      owner_fid: i % 2 === 0 ? OWNER_A : OWNER_B,
      region: i < 4 ? 'North' : 'South',
    });
    if (i % 3 === 1) await advanceTo(h, p.id, 'permitting');
    if (i === 7) await h.ok('POST', `/v1/development-projects/${p.id}/status`, { status: 'on_hold' });
    await sql`UPDATE development_projects SET last_update_on = ${i % 2 === 0 ? '2026-02-28' : null},
      next_milestone_due = ${i === 3 ? '2026-01-01' : null}, progress = ${i * 10},
      budget_minor = ${1000 * (i + 1)}, committed_minor = ${500 * (i + 1)}, actual_minor = ${100 * (i + 1)}
      WHERE id = ${p.id}`.execute(h.db);
  }
  await completedProject(h, { code: 'RP-DONE', kind: 'conversion', owner_fid: OWNER_A, region: 'East' });
});
afterAll(async () => h.close_());

describe('weekly portfolio report', () => {
  it('17 CON-072 GET /v1/reports/portfolio returns the weekly report: per project its figures, totals by health and stage', async () => {
    const r = await report();
    expect(r.as_of).toBe('2026-03-02');
    expect(r.projects).toHaveLength(9);
    const p3 = r.projects.find((p) => p.code === 'RP-3');
    expect(p3).toMatchObject({
      stage: 'initiation',
      phase: 'planning',
      health: 'red',
      freshness: 'stale',
      progress: 30,
      next_milestone_due: '2026-01-01',
      budget_minor: 4000,
      committed_minor: 2000,
      actual_minor: 400,
    });
    expect(r.projects.find((p) => p.code === 'RP-0')).toMatchObject({ health: 'green', freshness: 'fresh' });
    expect(r.totals.projects).toBe(9);
    const byHealth = r.totals.by_health as Record<string, number>;
    for (const k of ['green', 'amber', 'red']) {
      expect(byHealth[k]).toBe(r.projects.filter((p) => p.health === k).length);
    }
    const byStage = r.totals.by_stage as Record<string, number>;
    expect(byStage).toMatchObject({ initiation: 5, permitting: 3, closeout: 1, design: 0 });
    expect(r.totals.budget_minor).toBe(r.projects.reduce((s, p) => s + (p.budget_minor as number), 0));
    // The same health the project read shows.
    const one = await h.call('GET', `/v1/development-projects/${p3?.id}`, READER);
    expect(one.data.health).toBe(p3?.health);
  });

  it('17 CON-073 the report filters by status', async () => {
    for (const [status, n] of [
      ['active', 7],
      ['on_hold', 1],
      ['completed', 1],
      ['cancelled', 0],
    ] as const) {
      const r = await report(`status=${status}`);
      expect(r.projects, status).toHaveLength(n);
      for (const p of r.projects) expect(p.status).toBe(status);
      expect(r.totals.projects).toBe(n);
    }
  });

  it('17 CON-074 the report filters by kind', async () => {
    for (const kind of ['master_plan', 'ground_up', 'conversion', 'capital_improvement']) {
      const r = await report(`kind=${kind}`);
      expect(r.projects.length).toBeGreaterThan(0);
      for (const p of r.projects) expect(p.kind).toBe(kind);
    }
  });

  it('17 CON-075 the report filters by stage', async () => {
    for (const [stage, n] of [
      ['initiation', 5],
      ['permitting', 3],
      ['closeout', 1],
    ] as const) {
      const r = await report(`stage=${stage}`);
      expect(r.projects, stage).toHaveLength(n);
      for (const p of r.projects) expect(p.stage).toBe(stage);
    }
  });

  it('17 CON-076 the report filters by owner_fid', async () => {
    for (const [owner, n] of [
      [OWNER_A, 5],
      [OWNER_B, 4],
    ] as const) {
      const r = await report(`owner_fid=${encodeURIComponent(owner)}`);
      expect(r.projects).toHaveLength(n);
      for (const p of r.projects) expect(p.owner_fid).toBe(owner);
    }
  });

  it('17 CON-077 the report filters by region', async () => {
    for (const [region, n] of [
      ['North', 4],
      ['South', 4],
      ['East', 1],
      ['West', 0],
    ] as const) {
      const r = await report(`region=${region}`);
      expect(r.projects).toHaveLength(n);
      for (const p of r.projects) expect(p.region).toBe(region);
    }
    // Filters combine.
    const both = await report('region=North&owner_fid=' + encodeURIComponent(OWNER_A));
    for (const p of both.projects) expect(p).toMatchObject({ region: 'North', owner_fid: OWNER_A });
    expect(both.projects).toHaveLength(2);
  });
});
