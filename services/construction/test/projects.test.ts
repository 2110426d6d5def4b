import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelledProject, completedProject } from './fixtures/projects.ts';
import { EDITOR, fid, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const P = '/v1/development-projects';

describe('development projects', () => {
  it('17 CON-014 each of the four kinds is accepted on create; any other kind is 422 with nothing written', async () => {
    for (const kind of ['master_plan', 'ground_up', 'conversion', 'capital_improvement']) {
      const p = await h.project({ kind });
      expect(p.kind).toBe(kind);
    }
    const before = await h.state();
    const r = await h.call('POST', P, EDITOR, { data: { code: `X-${tag()}`, name: 'Other', kind: 'warehouse' } });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('validation_failed');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-015 CON-016 a new project has seven stages and starts in initiation, active', async () => {
    const p = await h.project();
    expect(p.stage).toBe('initiation');
    expect(p.status).toBe('active');
    const r = await h.call('GET', `${P}/${p.id}/stages`, READER);
    expect(r.status).toBe(200);
    expect(r.data.map((s: { stage: string }) => s.stage)).toEqual([
      'initiation',
      'feasibility',
      'design',
      'permitting',
      'award',
      'construction',
      'closeout',
    ]);
    expect(r.data[0].status).toBe('current');
    const ev = (await h.events('development_project.created')).find((e) => e.payload.data.project_id === p.id);
    expect(ev?.payload.data).toEqual({ project_id: p.id, code: p.code, kind: 'ground_up', actor_fid: fid(EDITOR) });
  });

  it('17 CON-017 every project status is active, on_hold, cancelled or completed', async () => {
    const a = await h.project();
    const b = await h.project();
    await h.ok('POST', `${P}/${b.id}/status`, { status: 'on_hold' });
    await cancelledProject(h);
    await completedProject(h);
    const r = await h.call('GET', `${P}?pagination[pageSize]=200`, READER);
    expect(r.status).toBe(200);
    const statuses = new Set(r.data.map((p: { status: string }) => p.status));
    for (const s of statuses) expect(['active', 'on_hold', 'cancelled', 'completed']).toContain(s);
    expect(statuses).toEqual(new Set(['active', 'on_hold', 'cancelled', 'completed']));
    expect(a.status).toBe('active');
    // The database holds to it too.
    await expect(
      sql`UPDATE development_projects SET status = 'paused' WHERE id = ${a.id}`.execute(h.db),
    ).rejects.toThrow();
  });

  it('17 CON-018 CON-028 GET a project returns owner_fid, region, health, phase, freshness and progress', async () => {
    const owner = fid('owner@construction.test');
    const p = await h.project({ owner_fid: owner, region: 'North', description: 'A tower' });
    const r = await h.call('GET', `${P}/${p.id}`, READER);
    expect(r.status).toBe(200);
    expect(r.body).toHaveProperty('header');
    expect(r.data).toMatchObject({
      id: p.id,
      owner_fid: owner,
      region: 'North',
      description: 'A tower',
      phase: 'planning',
      progress: 0,
      // No update yet: stale, and so amber.
      freshness: 'stale',
      health: 'amber',
      budget_minor: 0,
      committed_minor: 0,
      actual_minor: 0,
      next_milestone_due: null,
      last_update_on: null,
    });
  });

  it('17 CON-018 health, freshness and progress follow the kept figures as of today', async () => {
    const p = await h.project();
    await sql`UPDATE development_projects SET last_update_on = '2026-03-01', progress = 42.5,
      next_milestone_due = '2026-02-10', budget_minor = 1000, actual_minor = 900 WHERE id = ${p.id}`.execute(h.db);
    const r = await h.call('GET', `${P}/${p.id}`, READER);
    expect(r.data).toMatchObject({ freshness: 'fresh', progress: 42.5, health: 'red' });
    const missing = await h.call('GET', `${P}/00000000-0000-4000-8000-000000000000`, READER);
    expect(missing.status).toBe(404);
    expect(missing.errors[0].code).toBe('project_not_found');
  });

  it('17 CON-029 PUT changes details and GET then shows them', async () => {
    const p = await h.project();
    const code = `NEW-${tag()}`;
    const put = await h.call('PUT', `${P}/${p.id}`, EDITOR, {
      data: { code, name: 'Renamed', kind: 'conversion', owner_fid: fid(EDITOR), region: 'South', description: 'd' },
    });
    expect(put.status).toBe(200);
    const r = await h.call('GET', `${P}/${p.id}`, READER);
    expect(r.data).toMatchObject({
      code,
      name: 'Renamed',
      kind: 'conversion',
      owner_fid: fid(EDITOR),
      region: 'South',
      description: 'd',
      stage: 'initiation',
      status: 'active',
    });
    // null clears owner and region; stage and status are not taken.
    const clear = await h.call('PUT', `${P}/${p.id}`, EDITOR, { data: { owner_fid: null, region: null } });
    expect(clear.data).toMatchObject({ owner_fid: null, region: null, name: 'Renamed' });
    const stage = await h.call('PUT', `${P}/${p.id}`, EDITOR, { data: { stage: 'design' } });
    expect(stage.status).toBe(422);
    const ev = (await h.events('development_project.updated')).filter((e) => e.payload.data.project_id === p.id);
    expect(ev.map((e) => e.payload.data.fields)).toEqual([
      ['code', 'name', 'kind', 'owner_fid', 'region', 'description'],
      ['owner_fid', 'region'],
    ]);
  });

  it('17 CON-030 a code another project holds (any case) is 409 code_taken on create and on PUT, nothing written', async () => {
    const code = `UNIQ-${tag()}`;
    await h.project({ code });
    const before = await h.state();
    const dup = await h.call('POST', P, EDITOR, { data: { code: code.toLowerCase(), name: 'Dup', kind: 'ground_up' } });
    expect(dup.status).toBe(409);
    expect(dup.errors[0].code).toBe('code_taken');
    expect(await h.state()).toEqual(before);

    const other = await h.project();
    const before2 = await h.state();
    const put = await h.call('PUT', `${P}/${other.id}`, EDITOR, { data: { code: code.toUpperCase() } });
    expect(put.status).toBe(409);
    expect(put.errors[0].code).toBe('code_taken');
    expect(await h.state()).toEqual(before2);
    expect((await h.call('GET', `${P}/${other.id}`, READER)).data.code).toBe(other.code);
    // Its own code, another case: no conflict.
    const own = await h.call('PUT', `${P}/${other.id}`, EDITOR, { data: { code: other.code.toLowerCase() } });
    expect(own.status).toBe(200);
  });

  it('17 CON-031 CON-032 CON-033 the status route puts on hold, back to active, and cancels', async () => {
    const p = await h.project();
    const hold = await h.call('POST', `${P}/${p.id}/status`, EDITOR, { data: { status: 'on_hold' } });
    expect(hold.status).toBe(200);
    expect((await h.call('GET', `${P}/${p.id}`, READER)).data.status).toBe('on_hold');
    const back = await h.call('POST', `${P}/${p.id}/status`, EDITOR, { data: { status: 'active' } });
    expect(back.status).toBe(200);
    expect((await h.call('GET', `${P}/${p.id}`, READER)).data.status).toBe('active');
    const cancel = await h.call('POST', `${P}/${p.id}/status`, EDITOR, { data: { status: 'cancelled' } });
    expect(cancel.status).toBe(200);
    expect((await h.call('GET', `${P}/${p.id}`, READER)).data.status).toBe('cancelled');
    // Cancel from on hold too.
    const q = await h.project();
    await h.ok('POST', `${P}/${q.id}/status`, { status: 'on_hold' });
    expect((await h.call('POST', `${P}/${q.id}/status`, EDITOR, { data: { status: 'cancelled' } })).data.status).toBe(
      'cancelled',
    );
    // completed is not set by this route.
    const done = await h.call('POST', `${P}/${q.id}/status`, EDITOR, { data: { status: 'completed' } });
    expect(done.status).toBe(422);
  });

  it('17 CON-034 a completed project takes no more work: writes are 409 project_closed, nothing written', async () => {
    const p = await completedProject(h);
    const before = await h.state();
    for (const [method, url, data] of [
      ['PUT', `${P}/${p.id}`, { name: 'Again' }],
      ['POST', `${P}/${p.id}/status`, { status: 'active' }],
      ['POST', `${P}/${p.id}/status`, { status: 'cancelled' }],
      ['POST', `${P}/${p.id}/advance`, { from_stage: 'closeout' }],
      ['POST', `${P}/${p.id}/complete`, {}],
      ['PUT', `${P}/${p.id}/stages/design/plan`, { planned_start: '2026-05-01' }],
    ] as const) {
      const r = await h.call(method, url, EDITOR, { data });
      expect(r.status, `${method} ${url}`).toBe(409);
      expect(r.errors[0].code).toBe('project_closed');
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-035 a cancelled project takes no more work: writes are 409 project_closed, nothing written', async () => {
    const p = await cancelledProject(h);
    const before = await h.state();
    for (const [method, url, data] of [
      ['PUT', `${P}/${p.id}`, { name: 'Again' }],
      ['POST', `${P}/${p.id}/status`, { status: 'active' }],
      ['POST', `${P}/${p.id}/status`, { status: 'on_hold' }],
      ['POST', `${P}/${p.id}/advance`, { from_stage: 'initiation' }],
      ['POST', `${P}/${p.id}/complete`, {}],
      ['PUT', `${P}/${p.id}/stages/design/plan`, { planned_start: '2026-05-01' }],
    ] as const) {
      const r = await h.call(method, url, EDITOR, { data });
      expect(r.status, `${method} ${url}`).toBe(409);
      expect(r.errors[0].code).toBe('project_closed');
    }
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-030 concurrent retries of one create with one Idempotency-Key land once', async () => {
    const code = `RETRY-${tag()}`;
    const key = `key-${tag()}`;
    const body = { data: { code, name: 'Retried', kind: 'ground_up' } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.call('POST', P, EDITOR, body, key)));
    for (const a of answers) expect([201, 409]).toContain(a.status);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => a.data.id)).size).toBe(1);
    const rows = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM development_projects WHERE code = ${code}`.execute(h.db);
    expect(rows.rows[0]?.n).toBe(1);
    const stages = await sql<{ n: number }>`SELECT count(*)::int AS n FROM project_stages s
      JOIN development_projects d ON d.id = s.project_id WHERE d.code = ${code}`.execute(h.db);
    expect(stages.rows[0]?.n).toBe(7);
  });

  it('17 CON-030 concurrent creates of one code with different keys make one project; the others 409 code_taken', async () => {
    const code = `RACE-${tag()}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.call('POST', P, EDITOR, { data: { code, name: `Race ${i}`, kind: 'ground_up' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.errors[0].code).toBe('code_taken');
    }
  });

  it('17 CON-015 a failing outbox insert mid-command leaves no project, no stage and no activity row', async () => {
    await sql`CREATE FUNCTION fail_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'outbox refused for the test'; END $$`.execute(h.db);
    await sql`CREATE TRIGGER fail_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION fail_outbox()`.execute(
      h.db,
    );
    try {
      const before = await h.state();
      const code = `FAIL-${tag()}`;
      const r = await h.call('POST', P, EDITOR, { data: { code, name: 'Fails', kind: 'ground_up' } });
      expect(r.status).toBe(500);
      expect(await h.state()).toEqual(before);
    } finally {
      await sql`DROP TRIGGER fail_outbox ON outbox`.execute(h.db);
      await sql`DROP FUNCTION fail_outbox()`.execute(h.db);
    }
  });

  it('17 CON-031 a reader may not change the status (403), nothing written', async () => {
    const p = await h.project();
    const before = await h.state();
    const r = await h.call('POST', `${P}/${p.id}/status`, READER, { data: { status: 'on_hold' } });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });
});
