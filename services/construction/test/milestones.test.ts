import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, figures, newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T12:00:00Z' });
});
afterAll(async () => h.close_());

type M = {
  id: string;
  project_id: string;
  driving_project_id: string | null;
  planned_date: string | null;
  forecast_date: string | null;
  actual_date: string | null;
  complete: boolean;
};

const add = (projectId: string, data: Record<string, unknown>) =>
  h.call('POST', projectUrl(projectId, '/milestones'), EDITOR, { data });
const list = async (projectId: string): Promise<M[]> => {
  const r = await h.call('GET', projectUrl(projectId, '/milestones'), READER);
  expect(r.status).toBe(200);
  return r.data;
};
const complete = (id: string, data: Record<string, unknown> = {}) =>
  h.call('POST', `/v1/milestones/${id}/complete`, EDITOR, { data });
const forecast = (id: string, forecast_date: string) =>
  h.call('PUT', `/v1/milestones/${id}/forecast`, EDITOR, { data: { forecast_date } });

describe('milestones', () => {
  it('17 CON-057 POST milestones adds a milestone that GET milestones lists', async () => {
    const p = await newProject(h);
    const r = await add(p.id, { name: 'Topping out', planned_date: '2026-05-01', forecast_date: '2026-05-15' });
    expect(r.status).toBe(201);
    const listed = await list(p.id);
    expect(listed).toEqual([
      expect.objectContaining({
        id: r.data.id,
        project_id: p.id,
        name: 'Topping out',
        planned_date: '2026-05-01',
        forecast_date: '2026-05-15',
        actual_date: null,
        complete: false,
        driving_project_id: null,
      }),
    ]);
    expect((await figures(h, p.id)).next_milestone_due).toBe('2026-05-15');
    const ev = await h.events('development_project.milestone_added');
    expect(ev.at(-1)?.payload.data).toMatchObject({ project_id: p.id, milestone_id: r.data.id });
  });

  it('17 CON-058 a milestone created with a driving project stores it', async () => {
    const p = await newProject(h);
    const driver = await newProject(h);
    const r = await add(p.id, { name: 'Utility connection', driving_project_id: driver.id });
    expect(r.status).toBe(201);
    expect(r.data.driving_project_id).toBe(driver.id);
    expect((await list(p.id))[0]?.driving_project_id).toBe(driver.id);
  });

  it('17 a driving project that does not exist is 404 project_not_found on driving_project_id and nothing is written', async () => {
    const p = await newProject(h);
    const before = await h.state();
    const r = await add(p.id, { name: 'X', driving_project_id: '00000000-0000-4000-8000-000000000009' });
    expect([r.status, r.errors[0]?.code, r.errors[0]?.field]).toEqual([404, 'project_not_found', 'driving_project_id']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-059 POST complete sets the actual date, which GET shows; default today', async () => {
    const p = await newProject(h);
    const a = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'A', planned_date: '2026-04-01' }, 201);
    const b = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'B', planned_date: '2026-06-01' }, 201);
    expect((await figures(h, p.id)).next_milestone_due).toBe('2026-04-01');
    const r = await complete(a.id, { actual_date: '2026-02-27' });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ actual_date: '2026-02-27', complete: true });
    const listed = await list(p.id);
    expect(listed.find((m) => m.id === a.id)?.actual_date).toBe('2026-02-27');
    expect((await figures(h, p.id)).next_milestone_due).toBe('2026-06-01');
    const r2 = await complete(b.id);
    expect(r2.data.actual_date).toBe('2026-03-02');
    expect((await list(p.id)).find((m) => m.id === b.id)?.actual_date).toBe('2026-03-02');
    expect((await figures(h, p.id)).next_milestone_due).toBeNull();
    const ev = await h.events('development_project.milestone_completed');
    expect(ev.at(-1)?.payload.data).toMatchObject({ milestone_id: b.id, actual_date: '2026-03-02' });
  });

  it('17 CON-060 a second complete answers 409 already_complete and the date is unchanged', async () => {
    const p = await newProject(h);
    const m = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'Handover' }, 201);
    await h.ok('POST', `/v1/milestones/${m.id}/complete`, { actual_date: '2026-02-20' });
    const before = await h.state();
    const r = await complete(m.id, { actual_date: '2026-02-28' });
    expect([r.status, r.errors[0]?.code]).toEqual([409, 'already_complete']);
    expect((await list(p.id))[0]?.actual_date).toBe('2026-02-20');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-060 two concurrent completes set the date once: one 200, one 409 already_complete', async () => {
    const p = await newProject(h);
    const m = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'Handover' }, 201);
    const rs = await Promise.all([
      complete(m.id, { actual_date: '2026-02-20' }),
      complete(m.id, { actual_date: '2026-02-21' }),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = rs.find((r) => r.status === 200);
    expect((await list(p.id))[0]?.actual_date).toBe(winner?.data.actual_date);
    const ev = (await h.events('development_project.milestone_completed')).filter(
      (e) => e.payload.data.milestone_id === m.id,
    );
    expect(ev).toHaveLength(1);
  });

  it('17 CON-061 PUT forecast moves the forecast, which GET shows, and the next milestone due follows', async () => {
    const p = await newProject(h);
    const m = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'A', planned_date: '2026-04-01' }, 201);
    const r = await forecast(m.id, '2026-04-20');
    expect(r.status).toBe(200);
    expect(r.data.forecast_date).toBe('2026-04-20');
    expect((await list(p.id))[0]).toMatchObject({ forecast_date: '2026-04-20', planned_date: '2026-04-01' });
    expect((await figures(h, p.id)).next_milestone_due).toBe('2026-04-20');
    const ev = await h.events('development_project.milestone_forecast_moved');
    expect(ev.at(-1)?.payload.data).toMatchObject({ milestone_id: m.id, from: null, to: '2026-04-20' });
  });

  it('17 a complete milestone keeps its forecast (409 already_complete); an unknown milestone is 404 milestone_not_found', async () => {
    const p = await newProject(h);
    const m = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'A', forecast_date: '2026-04-01' }, 201);
    await h.ok('POST', `/v1/milestones/${m.id}/complete`, {});
    const r = await forecast(m.id, '2026-05-01');
    expect([r.status, r.errors[0]?.code]).toEqual([409, 'already_complete']);
    expect((await list(p.id))[0]?.forecast_date).toBe('2026-04-01');
    const missing = '00000000-0000-4000-8000-000000000002';
    for (const x of [await complete(missing), await forecast(missing, '2026-05-01')]) {
      expect([x.status, x.errors[0]?.code]).toEqual([404, 'milestone_not_found']);
    }
  });

  it('17 CON-034 CON-035 a milestone of a completed or cancelled project is not added, completed or moved: 409 project_closed, nothing written', async () => {
    for (const status of ['completed', 'cancelled'] as const) {
      const p = await newProject(h);
      const m = await h.ok<M>('POST', projectUrl(p.id, '/milestones'), { name: 'A', forecast_date: '2026-04-01' }, 201);
      await closeProject(h, p.id, status);
      const before = await h.state();
      for (const r of [await add(p.id, { name: 'B' }), await complete(m.id), await forecast(m.id, '2026-05-01')]) {
        expect([status, r.status, r.errors[0]?.code]).toEqual([status, 409, 'project_closed']);
      }
      expect(await h.state()).toEqual(before);
      expect((await list(p.id))[0]).toMatchObject({ actual_date: null, forecast_date: '2026-04-01' });
    }
  });

  it('17 an actual date sent when adding a milestone is refused (422 validation_failed) and not stored', async () => {
    const p = await newProject(h);
    const r = await add(p.id, { name: 'A', actual_date: '2026-01-01' });
    expect([r.status, r.errors[0]?.code]).toEqual([422, 'validation_failed']);
    expect(await list(p.id)).toEqual([]);
  });
});
