import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, figures, newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Line = { category: string; budget_minor: number; committed_minor: number; actual_minor: number };
const setLine = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('PUT', projectUrl(projectId, '/budget/lines'), as, { data });
const cost = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('POST', projectUrl(projectId, '/budget/costs'), as, { data });
const budget = async (projectId: string) => {
  const r = await h.call('GET', projectUrl(projectId, '/budget'), READER);
  expect(r.status).toBe(200);
  return r.data as { lines: Line[]; totals: { budget_minor: number; committed_minor: number; actual_minor: number } };
};
const costs = async (projectId: string, query = '') => {
  const r = await h.call('GET', `${projectUrl(projectId, '/budget/costs')}${query}`, READER);
  expect(r.status).toBe(200);
  return r;
};

describe('budget lines and cost events', () => {
  it('17 CON-066 GET budget returns each line with committed and actual, and the totals', async () => {
    const p = await newProject(h);
    await h.ok('PUT', projectUrl(p.id, '/budget/lines'), { category: 'construction', budget_minor: 1_000_000 });
    await h.ok('PUT', projectUrl(p.id, '/budget/lines'), { category: 'design', budget_minor: 200_000 });
    await cost(p.id, { category: 'construction', kind: 'committed', amount_minor: 600_000, occurred_on: '2026-02-01' });
    await cost(p.id, { category: 'construction', kind: 'actual', amount_minor: 150_000, occurred_on: '2026-02-10' });
    await cost(p.id, { category: 'design', kind: 'actual', amount_minor: 40_000, occurred_on: '2026-02-11' });
    const b = await budget(p.id);
    expect(b.lines).toEqual([
      expect.objectContaining({
        category: 'construction',
        budget_minor: 1_000_000,
        committed_minor: 600_000,
        actual_minor: 150_000,
      }),
      expect.objectContaining({ category: 'design', budget_minor: 200_000, committed_minor: 0, actual_minor: 40_000 }),
    ]);
    expect(b.totals).toEqual({ budget_minor: 1_200_000, committed_minor: 600_000, actual_minor: 190_000 });
    expect(await figures(h, p.id)).toMatchObject({
      budget_minor: 1_200_000,
      committed_minor: 600_000,
      actual_minor: 190_000,
    });
  });

  it('17 CON-067 PUT budget/lines adds a line for a new category', async () => {
    const p = await newProject(h);
    expect((await budget(p.id)).lines).toEqual([]);
    const r = await setLine(p.id, { category: 'contingency', budget_minor: 75_000 });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      category: 'contingency',
      budget_minor: 75_000,
      committed_minor: 0,
      actual_minor: 0,
    });
    expect((await budget(p.id)).lines).toEqual([
      expect.objectContaining({ category: 'contingency', budget_minor: 75_000 }),
    ]);
    const ev = await h.events('development_project.budget_line_set');
    expect(ev.at(-1)?.payload.data).toMatchObject({
      project_id: p.id,
      category: 'contingency',
      budget_minor: 75_000,
      previous_minor: null,
    });
  });

  it('17 CON-068 PUT budget/lines for an existing category changes its line and no second line exists', async () => {
    const p = await newProject(h);
    await h.ok('PUT', projectUrl(p.id, '/budget/lines'), { category: 'construction', budget_minor: 500_000 });
    await cost(p.id, { category: 'construction', kind: 'committed', amount_minor: 120_000, occurred_on: '2026-02-01' });
    const r = await setLine(p.id, { category: 'construction', budget_minor: 650_000 });
    expect(r.status).toBe(200);
    const b = await budget(p.id);
    expect(b.lines).toHaveLength(1);
    expect(b.lines[0]).toMatchObject({ category: 'construction', budget_minor: 650_000, committed_minor: 120_000 });
    expect(b.totals.budget_minor).toBe(650_000);
    const ev = await h.events('development_project.budget_line_set');
    expect(ev.at(-1)?.payload.data).toMatchObject({ budget_minor: 650_000, previous_minor: 500_000 });
    // The same budget again changes nothing and says nothing.
    const n = (await h.events('development_project.budget_line_set')).length;
    await h.ok('PUT', projectUrl(p.id, '/budget/lines'), { category: 'construction', budget_minor: 650_000 });
    expect(await h.events('development_project.budget_line_set')).toHaveLength(n);
  });

  it('17 CON-069 POST budget/costs records a cost event that GET budget/costs lists, newest first', async () => {
    const p = await newProject(h);
    const a = await cost(p.id, {
      category: 'construction',
      kind: 'committed',
      amount_minor: 90_000,
      occurred_on: '2026-01-15',
      description: 'PO 4411 groundworks',
    });
    expect(a.status).toBe(201);
    expect(a.data).toMatchObject({
      project_id: p.id,
      category: 'construction',
      kind: 'committed',
      amount_minor: 90_000,
      occurred_on: '2026-01-15',
      description: 'PO 4411 groundworks',
      reverses_id: null,
    });
    const b = await cost(p.id, { category: 'design', kind: 'actual', amount_minor: 12_500, occurred_on: '2026-02-01' });
    const all = await costs(p.id);
    expect(all.data.map((c: { id: string }) => c.id)).toEqual([b.data.id, a.data.id]);
    expect(all.meta.pagination).toMatchObject({ totalItems: 2 });
    const onlyActual = await costs(p.id, '?kind=actual');
    expect(onlyActual.data.map((c: { id: string }) => c.id)).toEqual([b.data.id]);
    const onlyConstruction = await costs(p.id, '?category=construction');
    expect(onlyConstruction.data.map((c: { id: string }) => c.id)).toEqual([a.data.id]);
    const ev = await h.events('development_project.cost_recorded');
    expect(ev.at(-1)?.payload.data).toMatchObject({ cost_event_id: b.data.id, kind: 'actual', amount_minor: 12_500 });
  });

  it('17 a cost event for a category with no line makes the line with budget 0', async () => {
    const p = await newProject(h);
    await cost(p.id, { category: 'legal', kind: 'actual', amount_minor: 3_000, occurred_on: '2026-02-01' });
    expect((await budget(p.id)).lines).toEqual([
      expect.objectContaining({ category: 'legal', budget_minor: 0, committed_minor: 0, actual_minor: 3_000 }),
    ]);
  });

  it('17 a correction is a reversing event: the line returns to its sum; a reversal is checked and made once', async () => {
    const p = await newProject(h);
    const wrong = await cost(p.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: 55_000,
      occurred_on: '2026-02-01',
    });
    const fix = await cost(p.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: -55_000,
      occurred_on: '2026-02-02',
      reverses_id: wrong.data.id,
    });
    expect(fix.status).toBe(201);
    expect(fix.data.reverses_id).toBe(wrong.data.id);
    expect((await budget(p.id)).lines[0]).toMatchObject({ actual_minor: 0 });
    const before = await h.state();
    const twice = await cost(p.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: -55_000,
      occurred_on: '2026-02-03',
      reverses_id: wrong.data.id,
    });
    expect([twice.status, twice.errors[0]?.code]).toEqual([409, 'already_reversed']);
    const other = await cost(p.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: 40_000,
      occurred_on: '2026-02-03',
    });
    const elsewhere = await newProject(h);
    const after = await h.state();
    for (const data of [
      { category: 'construction', kind: 'actual', amount_minor: 40_000, reverses_id: other.data.id },
      { category: 'design', kind: 'actual', amount_minor: -40_000, reverses_id: other.data.id },
      { category: 'construction', kind: 'committed', amount_minor: -40_000, reverses_id: other.data.id },
      { category: 'construction', kind: 'actual', amount_minor: 55_000, reverses_id: fix.data.id },
    ]) {
      const r = await cost(p.id, { ...data, occurred_on: '2026-02-04' });
      expect([r.status, r.errors[0]?.code]).toEqual([422, 'reversal_mismatch']);
    }
    const r = await cost(elsewhere.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: -40_000,
      occurred_on: '2026-02-04',
      reverses_id: other.data.id,
    });
    expect([r.status, r.errors[0]?.code]).toEqual([404, 'cost_event_not_found']);
    expect(await h.state()).toEqual(after);
    expect(after.cost_events).toBe(before.cost_events + 1);
  });

  it('17 a cost event sent twice with one Idempotency-Key is recorded once and counted once', async () => {
    const p = await newProject(h);
    const body = { data: { category: 'construction', kind: 'actual', amount_minor: 7_000, occurred_on: '2026-02-01' } };
    const first = await h.call('POST', projectUrl(p.id, '/budget/costs'), EDITOR, body, 'cost-once-1');
    const again = await h.call('POST', projectUrl(p.id, '/budget/costs'), EDITOR, body, 'cost-once-1');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.data.id).toBe(first.data.id);
    expect((await costs(p.id)).data).toHaveLength(1);
    expect((await budget(p.id)).lines[0]).toMatchObject({ actual_minor: 7_000 });
    expect((await figures(h, p.id)).actual_minor).toBe(7_000);
  });

  it('17 cost lists page at 50 by default and refuse a page size over 200 (422)', async () => {
    const p = await newProject(h);
    const r = await h.call('GET', `${projectUrl(p.id, '/budget/costs')}?pagination[pageSize]=201`, READER);
    expect([r.status, r.body.payload.errors[0].code]).toEqual([422, 'validation_failed']);
    const ok = await costs(p.id);
    expect(ok.meta.pagination).toMatchObject({ page: 1, pageSize: 50, totalItems: 0 });
  });

  it('17 cost events are append-only: the database refuses UPDATE and DELETE', async () => {
    const p = await newProject(h);
    const c = await cost(p.id, {
      category: 'construction',
      kind: 'actual',
      amount_minor: 1_000,
      occurred_on: '2026-02-01',
    });
    await expect(sql`UPDATE cost_events SET amount_minor = 2000 WHERE id = ${c.data.id}`.execute(h.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM cost_events WHERE id = ${c.data.id}`.execute(h.db)).rejects.toThrow(/append-only/);
    expect((await budget(p.id)).lines[0]?.actual_minor).toBe(1_000);
  });

  it('17 an unknown kind, a fractional amount or a negative budget is 422 validation_failed; nothing written', async () => {
    const p = await newProject(h);
    const before = await h.state();
    for (const r of [
      await cost(p.id, { category: 'x', kind: 'forecast', amount_minor: 1, occurred_on: '2026-02-01' }),
      await cost(p.id, { category: 'x', kind: 'actual', amount_minor: 1.5, occurred_on: '2026-02-01' }),
      await setLine(p.id, { category: 'x', budget_minor: -1 }),
    ]) {
      expect([r.status, r.errors[0]?.code]).toEqual([422, 'validation_failed']);
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-034 CON-035 a completed or cancelled project takes no budget line or cost (409 project_closed); readers may read, not write', async () => {
    const p = await newProject(h);
    expect((await setLine(p.id, { category: 'x', budget_minor: 1 }, READER)).status).toBe(403);
    expect(
      (await cost(p.id, { category: 'x', kind: 'actual', amount_minor: 1, occurred_on: '2026-02-01' }, READER)).status,
    ).toBe(403);
    for (const status of ['completed', 'cancelled'] as const) {
      const closed = await newProject(h);
      await closeProject(h, closed.id, status);
      const before = await h.state();
      for (const r of [
        await setLine(closed.id, { category: 'x', budget_minor: 1 }),
        await cost(closed.id, { category: 'x', kind: 'actual', amount_minor: 1, occurred_on: '2026-02-01' }),
      ]) {
        expect([status, r.status, r.errors[0]?.code]).toEqual([status, 409, 'project_closed']);
      }
      expect(await h.state()).toEqual(before);
      expect((await budget(closed.id)).lines).toEqual([]);
    }
    const missing = '00000000-0000-4000-8000-000000000005';
    for (const url of [projectUrl(missing, '/budget'), projectUrl(missing, '/budget/costs')]) {
      const r = await h.call('GET', url, READER);
      expect([r.status, r.body.payload.errors[0].code]).toEqual([404, 'project_not_found']);
    }
  });
});
