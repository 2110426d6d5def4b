import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWARD, advanceTo, passGate } from './fixtures/projects.ts';
import { EDITOR, fid, type Harness, harness, READER } from './harness.ts';

/** The overview, plan and activity reads of a project. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const P = '/v1/development-projects';

/** A task of `projectId` (its primary link) written as the tasks area writes it, optionally linked to `also`. */
async function task(projectId: string, title: string, plannedStart: string | null, also?: string) {
  const id = randomUUID();
  const now = h.now();
  const by = fid(EDITOR);
  await sql`INSERT INTO tasks (id, project_id, title, planned_start, created_by, created_at, updated_at)
    VALUES (${id}, ${projectId}, ${title}, ${plannedStart}, ${by}, ${now}, ${now})`.execute(h.db);
  await sql`INSERT INTO task_links (task_id, project_id, relationship_type, created_by, created_at)
    VALUES (${id}, ${projectId}, 'primary', ${by}, ${now})`.execute(h.db);
  if (also) {
    await sql`INSERT INTO task_links (task_id, project_id, relationship_type, share, created_by, created_at)
      VALUES (${id}, ${also}, 'affects', 50, ${by}, ${now})`.execute(h.db);
  }
  return id;
}

describe('overview, plan and activity', () => {
  it('17 CON-036 GET overview answers 200 with the project, stages, packages, next milestones, latest update and budget', async () => {
    const p = await h.project({ region: 'West' });
    const pkg = await h.ok<{ id: string }>(
      'POST',
      `${P}/${p.id}/packages`,
      { name: 'Civil works', measure: 'report' },
      201,
    );
    for (const [i, date] of [
      '2026-05-01',
      '2026-04-01',
      '2026-06-01',
      '2026-07-01',
      '2026-08-01',
      '2026-09-01',
    ].entries()) {
      await h.ok('POST', `${P}/${p.id}/milestones`, { name: `M${i}`, planned_date: date }, 201);
    }
    await h.ok('POST', `${P}/${p.id}/updates`, { summary: 'First week' }, 201);
    h.setNow('2026-03-03T12:00:00Z');
    await h.ok('POST', `${P}/${p.id}/updates`, { summary: 'Second note' }, 201);
    h.setNow('2026-03-02T12:00:00Z');

    const r = await h.call('GET', `${P}/${p.id}/overview`, READER);
    expect(r.status).toBe(200);
    expect(r.data.project).toMatchObject({ id: p.id, region: 'West', stage: 'initiation', phase: 'planning' });
    expect(r.data.stages).toHaveLength(7);
    expect(r.data.packages).toEqual([{ id: pkg.id, name: 'Civil works', measure: 'report', weight: 1, progress: 0 }]);
    expect(r.data.next_milestones.map((m: { name: string }) => m.name)).toEqual(['M1', 'M0', 'M2', 'M3', 'M4']);
    expect(r.data.latest_update).toMatchObject({ summary: 'Second note' });
    expect(r.data.budget).toEqual({ budget_minor: 0, committed_minor: 0, actual_minor: 0 });
    expect(r.data.award).toBeNull();
    const missing = await h.call('GET', `${P}/${randomUUID()}/overview`, READER);
    expect(missing.status).toBe(404);
    expect(missing.errors[0].code).toBe('project_not_found');
  });

  it("17 CON-037 GET plan carries the project's stages, the tasks linked to it and its milestones", async () => {
    const p = await h.project();
    const other = await h.project();
    await h.ok('PUT', `${P}/${p.id}/stages/design/plan`, { planned_start: '2026-06-01' });
    const t1 = await task(p.id, 'Survey', '2026-04-01');
    const t2 = await task(other.id, 'Shared road', '2026-03-15', p.id);
    await task(other.id, 'Not ours', null);
    const m = await h.ok<{ id: string }>(
      'POST',
      `${P}/${p.id}/milestones`,
      { name: 'Permit', planned_date: '2026-07-01' },
      201,
    );
    await h.ok('POST', `${P}/${other.id}/milestones`, { name: 'Elsewhere', planned_date: '2026-07-01' }, 201);

    const r = await h.call('GET', `${P}/${p.id}/plan`, READER);
    expect(r.status).toBe(200);
    expect(r.data.stages).toHaveLength(7);
    expect(r.data.stages[2]).toMatchObject({ stage: 'design', planned_start: '2026-06-01' });
    expect(r.data.tasks.map((t: { id: string; relationship_type: string }) => [t.id, t.relationship_type])).toEqual([
      [t2, 'affects'],
      [t1, 'primary'],
    ]);
    expect(r.data.milestones.map((x: { id: string }) => x.id)).toEqual([m.id]);
  });

  it("17 CON-038 GET activity answers 200 with the project's recent activity, newest first, paged", async () => {
    const p = await h.project();
    h.setNow('2026-03-02T13:00:00Z');
    await h.ok('PUT', `${P}/${p.id}`, { name: 'Renamed' });
    h.setNow('2026-03-02T14:00:00Z');
    await h.ok('POST', `${P}/${p.id}/milestones`, { name: 'Kick-off', planned_date: '2026-04-01' }, 201);
    h.setNow('2026-03-02T15:00:00Z');
    await h.ok('POST', `${P}/${p.id}/advance`, { from_stage: 'initiation' });
    h.setNow('2026-03-02T12:00:00Z');
    // Another project's activity is not this one's.
    const other = await h.project();
    await h.ok('PUT', `${P}/${other.id}`, { name: 'Other' });

    const r = await h.call('GET', `${P}/${p.id}/activity`, READER);
    expect(r.status).toBe(200);
    expect(r.data.map((a: { type: string }) => a.type)).toEqual([
      'development_project.stage_advanced',
      'development_project.milestone_added',
      'development_project.updated',
      'development_project.created',
    ]);
    for (const a of r.data) expect(a).toMatchObject({ project_id: p.id, actor_fid: fid(EDITOR) });
    expect(r.data[0].data).toMatchObject({ from_stage: 'initiation', to_stage: 'feasibility' });
    expect(r.data[2].data).toMatchObject({ fields: ['name'] });
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, totalItems: 4 });
    const page2 = await h.call('GET', `${P}/${p.id}/activity?pagination[page]=2&pagination[pageSize]=3`, READER);
    expect(page2.data.map((a: { type: string }) => a.type)).toEqual(['development_project.created']);
    // Activity carries no emails.
    expect(JSON.stringify(r.data)).not.toContain('@');
  });

  it('17 CON-038 an award writes its activity in the same transaction as the advance', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'award');
    await passGate(h, p.id, 'award');
    await h.ok('POST', `${P}/${p.id}/advance`, { from_stage: 'award', award: AWARD });
    const r = await h.call('GET', `${P}/${p.id}/activity?pagination[pageSize]=200`, READER);
    const types = r.data.map((a: { type: string }) => a.type);
    expect(types).toContain('development_project.awarded');
    const counts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox
      WHERE payload::jsonb -> 'data' ->> 'project_id' = ${p.id}`.execute(h.db);
    expect(r.meta.pagination.totalItems).toBe(counts.rows[0]?.n);
  });
});
