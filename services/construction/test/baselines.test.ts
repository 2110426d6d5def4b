import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBaseline, newProject, projectUrl } from './fixtures/plan-items.ts';
import { type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('baselines', () => {
  it('17 CON-065 GET baselines lists newest first (highest seq first)', async () => {
    const p = await newProject(h);
    const first = await addBaseline(h, p.id, 1, { amount_minor: 5_000_000, finish_date: '2027-01-31' });
    h.setNow('2026-03-03T12:00:00Z');
    const second = await addBaseline(h, p.id, 2, { amount_minor: 5_250_000, finish_date: '2027-02-28' });
    h.setNow('2026-03-04T12:00:00Z');
    const third = await addBaseline(h, p.id, 3, { amount_minor: 5_300_000, finish_date: '2027-03-15' });
    const r = await h.call('GET', projectUrl(p.id, '/baselines'), READER);
    expect(r.status).toBe(200);
    expect(r.data.map((b: { id: string }) => b.id)).toEqual([third, second, first]);
    expect(r.data.map((b: { seq: number }) => b.seq)).toEqual([3, 2, 1]);
    expect(r.data[2]).toMatchObject({ kind: 'award', amount_minor: 5_000_000, finish_date: '2027-01-31' });
    expect(r.meta.pagination).toMatchObject({ totalItems: 3 });
    const page2 = await h.call(
      'GET',
      `${projectUrl(p.id, '/baselines')}?pagination[pageSize]=2&pagination[page]=2`,
      READER,
    );
    expect(page2.data.map((b: { id: string }) => b.id)).toEqual([first]);
  });

  it('17 baselines of an unknown project are 404 project_not_found; a project without baselines lists none', async () => {
    const p = await newProject(h);
    const empty = await h.call('GET', projectUrl(p.id, '/baselines'), READER);
    expect([empty.status, empty.data]).toEqual([200, []]);
    const r = await h.call('GET', projectUrl('00000000-0000-4000-8000-000000000004', '/baselines'), READER);
    expect([r.status, r.body.payload.errors[0].code]).toEqual([404, 'project_not_found']);
  });
});
