import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, figures, newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, fid, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const addPackage = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('POST', projectUrl(projectId, '/packages'), as, { data });
const report = (projectId: string, packageId: string, data: Record<string, unknown>) =>
  h.call('POST', projectUrl(projectId, `/packages/${packageId}/reports`), EDITOR, { data });
const listPackages = async (projectId: string) => {
  const r = await h.call('GET', projectUrl(projectId, '/packages'), READER);
  expect(r.status).toBe(200);
  return r.data as { id: string; progress: number; measure: string; name: string; weight: number }[];
};

describe('packages', () => {
  it('17 CON-051 POST packages adds a package measured by report: stored with measure report', async () => {
    const p = await newProject(h);
    const r = await addPackage(p.id, { name: 'Civil works', measure: 'report' });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ project_id: p.id, name: 'Civil works', measure: 'report', weight: 1, progress: 0 });
    expect(r.data.created_by).toBe(fid(EDITOR));
    const listed = await listPackages(p.id);
    expect(listed.map((x) => [x.id, x.measure])).toEqual([[r.data.id, 'report']]);
    const events = await h.events('development_project.package_added');
    expect(events.at(-1)?.payload.data).toMatchObject({ project_id: p.id, package_id: r.data.id, measure: 'report' });
  });

  it('17 CON-052 POST packages adds a package measured by tasks: stored with measure tasks', async () => {
    const p = await newProject(h);
    const r = await addPackage(p.id, { name: 'Fit-out', measure: 'tasks', weight: 3 });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ measure: 'tasks', weight: 3 });
    const listed = await listPackages(p.id);
    expect(listed).toEqual([expect.objectContaining({ id: r.data.id, measure: 'tasks', weight: 3 })]);
  });

  it('17 CON-053 GET packages lists each package with its progress', async () => {
    const p = await newProject(h);
    const a = await h.ok<{ id: string }>('POST', projectUrl(p.id, '/packages'), { name: 'A', measure: 'report' }, 201);
    const b = await h.ok<{ id: string }>('POST', projectUrl(p.id, '/packages'), { name: 'B', measure: 'tasks' }, 201);
    await h.ok('POST', projectUrl(p.id, `/packages/${a.id}/reports`), { percent: 40, reported_on: '2026-02-27' }, 201);
    const listed = await listPackages(p.id);
    expect(Object.fromEntries(listed.map((x) => [x.id, x.progress]))).toEqual({ [a.id]: 40, [b.id]: 0 });
    for (const row of listed) expect(typeof row.progress).toBe('number');
    const r = await h.call('GET', projectUrl(p.id, '/packages'), READER);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50, totalItems: 2 });
  });

  it('17 CON-054 a reported percentage with a date becomes the package progress (latest by date), and the project progress follows', async () => {
    const p = await newProject(h);
    const a = await h.ok<{ id: string }>('POST', projectUrl(p.id, '/packages'), { name: 'A', measure: 'report' }, 201);
    const b = await h.ok<{ id: string }>(
      'POST',
      projectUrl(p.id, '/packages'),
      { name: 'B', measure: 'report', weight: 3 },
      201,
    );
    const r1 = await report(p.id, a.id, { percent: 62.5, reported_on: '2026-02-20', note: 'Slab poured' });
    expect(r1.status).toBe(201);
    expect(r1.data).toMatchObject({ package_id: a.id, percent: 62.5, reported_on: '2026-02-20', note: 'Slab poured' });
    expect(r1.data.package_progress).toBe(62.5);
    // An older report filed later does not replace the newer figure.
    const r2 = await report(p.id, a.id, { percent: 30, reported_on: '2026-02-10' });
    expect(r2.data.package_progress).toBe(62.5);
    await report(p.id, b.id, { percent: 10, reported_on: '2026-02-21' });
    const listed = await listPackages(p.id);
    expect(listed.find((x) => x.id === a.id)?.progress).toBe(62.5);
    // Weighted mean: (62.5 * 1 + 10 * 3) / 4 = 23.125 → 23.13
    expect((await figures(h, p.id)).progress).toBe(23.13);
    const ev = await h.events('development_project.progress_reported');
    expect(ev.at(-1)?.payload.data).toMatchObject({
      project_id: p.id,
      package_id: b.id,
      percent: 10,
      project_progress: 23.13,
    });
  });

  it('17 CON-055 a reported figure on a package measured by tasks is 422 package_measured_by_tasks and nothing is written', async () => {
    const p = await newProject(h);
    const t = await h.ok<{ id: string }>('POST', projectUrl(p.id, '/packages'), { name: 'T', measure: 'tasks' }, 201);
    const before = await h.state();
    const r = await report(p.id, t.id, { percent: 50, reported_on: '2026-02-27' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('package_measured_by_tasks');
    expect(await h.state()).toEqual(before);
    expect((await listPackages(p.id))[0]?.progress).toBe(0);
  });

  it('17 CON-056 a report naming a package of another project is 422 package_of_another_project and nothing is written', async () => {
    const p = await newProject(h);
    const other = await newProject(h);
    const theirs = await h.ok<{ id: string }>(
      'POST',
      projectUrl(other.id, '/packages'),
      { name: 'Theirs', measure: 'report' },
      201,
    );
    const before = await h.state();
    const r = await report(p.id, theirs.id, { percent: 50, reported_on: '2026-02-27' });
    expect(r.status).toBe(422);
    expect(r.errors[0]?.code).toBe('package_of_another_project');
    expect(await h.state()).toEqual(before);
    expect((await listPackages(other.id))[0]?.progress).toBe(0);
  });

  it('17 a report on an unknown package is 404 package_not_found; on an unknown project 404 project_not_found', async () => {
    const p = await newProject(h);
    const missing = '00000000-0000-4000-8000-000000000001';
    const r = await report(p.id, missing, { percent: 5, reported_on: '2026-02-27' });
    expect([r.status, r.errors[0]?.code]).toEqual([404, 'package_not_found']);
    const q = await addPackage(missing, { name: 'X', measure: 'report' });
    expect([q.status, q.errors[0]?.code]).toEqual([404, 'project_not_found']);
    const g = await h.call('GET', projectUrl(missing, '/packages'), READER);
    expect([g.status, g.body.payload.errors[0].code]).toEqual([404, 'project_not_found']);
  });

  it('17 a percent over 100, an unknown measure or a missing date is 422 validation_failed and nothing is written', async () => {
    const p = await newProject(h);
    const a = await h.ok<{ id: string }>('POST', projectUrl(p.id, '/packages'), { name: 'A', measure: 'report' }, 201);
    const before = await h.state();
    for (const [url, data] of [
      [projectUrl(p.id, `/packages/${a.id}/reports`), { percent: 101, reported_on: '2026-02-27' }],
      [projectUrl(p.id, `/packages/${a.id}/reports`), { percent: 5 }],
      [projectUrl(p.id, '/packages'), { name: 'B', measure: 'estimate' }],
    ] as const) {
      const r = await h.call('POST', url, EDITOR, { data });
      expect([r.status, r.errors[0]?.code]).toEqual([422, 'validation_failed']);
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-034 CON-035 a completed or cancelled project takes no more packages or reports: 409 project_closed, nothing written', async () => {
    for (const status of ['completed', 'cancelled'] as const) {
      const p = await newProject(h);
      const a = await h.ok<{ id: string }>(
        'POST',
        projectUrl(p.id, '/packages'),
        { name: 'A', measure: 'report' },
        201,
      );
      await closeProject(h, p.id, status);
      const before = await h.state();
      const r1 = await addPackage(p.id, { name: 'B', measure: 'report' });
      const r2 = await report(p.id, a.id, { percent: 20, reported_on: '2026-02-27' });
      expect([r1.status, r1.errors[0]?.code]).toEqual([409, 'project_closed']);
      expect([r2.status, r2.errors[0]?.code]).toEqual([409, 'project_closed']);
      expect(await h.state()).toEqual(before);
    }
  });

  it('17 a reader may list packages but not add one (403)', async () => {
    const p = await newProject(h);
    const r = await addPackage(p.id, { name: 'A', measure: 'report' }, READER);
    expect(r.status).toBe(403);
    expect(await listPackages(p.id)).toEqual([]);
  });
});
