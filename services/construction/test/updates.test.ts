import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, figures, newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-04T09:00:00Z' });
});
afterAll(async () => h.close_());

const post = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('POST', projectUrl(projectId, '/updates'), as, { data });
const list = async (projectId: string) => {
  const r = await h.call('GET', projectUrl(projectId, '/updates'), READER);
  expect(r.status).toBe(200);
  return r.data as { id: string; summary: string; week_of: string }[];
};

describe('weekly updates', () => {
  it('17 CON-062 POST updates records a weekly update that GET updates lists; the project was updated today', async () => {
    const p = await newProject(h);
    const r = await post(p.id, { summary: 'Foundations complete.\nSteel arrives Monday.' });
    expect(r.status).toBe(201);
    // 2026-03-04 is a Wednesday: the week is the one starting Monday 2026-03-02.
    expect(r.data).toMatchObject({ project_id: p.id, week_of: '2026-03-02' });
    expect(await list(p.id)).toEqual([
      expect.objectContaining({
        id: r.data.id,
        summary: 'Foundations complete.\nSteel arrives Monday.',
        week_of: '2026-03-02',
      }),
    ]);
    expect((await figures(h, p.id)).last_update_on).toBe('2026-03-04');
    const ev = await h.events('development_project.update_posted');
    expect(ev.at(-1)?.payload.data).toMatchObject({ project_id: p.id, update_id: r.data.id, week_of: '2026-03-02' });
  });

  it('17 CON-062 updates list newest first; week_of is stored as the Monday of the week given', async () => {
    const p = await newProject(h);
    h.setNow('2026-03-05T09:00:00Z');
    const a = await post(p.id, { summary: 'First', week_of: '2026-02-22' });
    h.setNow('2026-03-06T09:00:00Z');
    const b = await post(p.id, { summary: 'Second' });
    expect(a.data.week_of).toBe('2026-02-16');
    expect((await list(p.id)).map((u) => u.id)).toEqual([b.data.id, a.data.id]);
    expect((await figures(h, p.id)).last_update_on).toBe('2026-03-06');
  });

  it('17 a blank summary is 422 validation_failed; a reader may not post (403); a closed project 409 project_closed; nothing written', async () => {
    const p = await newProject(h);
    const before = await h.state();
    const blank = await post(p.id, { summary: '   ' });
    expect([blank.status, blank.errors[0]?.code]).toEqual([422, 'validation_failed']);
    expect((await post(p.id, { summary: 'x' }, READER)).status).toBe(403);
    await closeProject(h, p.id);
    const afterClose = await h.state();
    const closed = await post(p.id, { summary: 'Late' });
    expect([closed.status, closed.errors[0]?.code]).toEqual([409, 'project_closed']);
    expect(await h.state()).toEqual(afterClose);
    expect(afterClose).toEqual(before);
  });
});
