import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, openDecision, registerProject } from './fixtures/registers.ts';
import { EDITOR, fid, type Harness, harness, READER, SECOND_EDITOR } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

type Row = Record<string, unknown>;
const getDecision = async (id: string) => {
  const r = await h.call('GET', `/v1/decisions/${id}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row & { alternatives: Row[]; participant_fids: string[] };
};
const listDecisions = async (query = '') => {
  const r = await h.call('GET', `/v1/decisions?${query}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row[];
};
const outcome = (id: string, data: Record<string, unknown>) =>
  h.call('POST', `/v1/decisions/${id}/outcome`, EDITOR, { data });

describe('17 decisions', () => {
  it('17 CON-142 POST /v1/decisions opens a question listed in GET /v1/decisions', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project, { question: 'Which facade system?' });
    const rows = await listDecisions(`project_id=${project}`);
    expect(rows.find((r) => r.id === d.id)).toMatchObject({ question: 'Which facade system?', status: 'open' });
    expect((await h.events('decision.opened')).some((e) => e.payload.data.decision_id === d.id)).toBe(true);
  });

  it('17 CON-143 GET /v1/decisions/{id} carries alternatives and participants', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project, {
      alternatives: [{ title: 'Brick', description: 'Load-bearing', cost_minor: 120_000 }, { title: 'Glass' }],
      participant_fids: [fid(EDITOR), fid(SECOND_EDITOR), fid(EDITOR)],
    });
    const got = await getDecision(d.id);
    expect(got.alternatives).toEqual([
      expect.objectContaining({ seq: 1, title: 'Brick', description: 'Load-bearing', cost_minor: 120_000 }),
      expect.objectContaining({ seq: 2, title: 'Glass', description: '', cost_minor: null }),
    ]);
    expect([...got.participant_fids].sort()).toEqual([fid(EDITOR), fid(SECOND_EDITOR)].sort());
    expect((await h.call('GET', `/v1/decisions/${crypto.randomUUID()}`, READER)).errors?.[0]?.code).toBe(
      'decision_not_found',
    );
  });

  it('17 CON-144 POST /v1/decisions/{id}/outcome records the outcome and cost', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project);
    const chosen = d.alternatives[1]?.id;
    const r = await outcome(d.id, { alternative_id: chosen, outcome: 'Glass curtain wall', cost_minor: 95_000 });
    expect(r.status).toBe(200);
    expect(await getDecision(d.id)).toMatchObject({
      status: 'decided',
      outcome: 'Glass curtain wall',
      cost_minor: 95_000,
      alternative_id: chosen,
      decided_by: fid(EDITOR),
    });
    const plain = await openDecision(h, project);
    expect((await outcome(plain.id, { outcome: 'Deferred', cost_minor: 0 })).status).toBe(200);
    expect(await getDecision(plain.id)).toMatchObject({ outcome: 'Deferred', cost_minor: 0, alternative_id: null });
  });

  it('17 CON-145 an outcome naming an alternative of another decision is 422, nothing written', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project);
    const other = await openDecision(h, project);
    const before = await h.state();
    const r = await outcome(d.id, { alternative_id: other.alternatives[0]?.id, outcome: 'Brick', cost_minor: 1 });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]?.code).toBe('alternative_of_another_decision');
    expect(await h.state()).toEqual(before);
    expect((await getDecision(d.id)).status).toBe('open');
  });

  it('17 CON-146 a settled decision takes no outcome: 409 already_decided, nothing changes', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project);
    await outcome(d.id, { outcome: 'Brick', cost_minor: 100 });
    const before = await h.state();
    const again = await outcome(d.id, { outcome: 'Glass', cost_minor: 200 });
    expect(again.status).toBe(409);
    expect(again.errors?.[0]?.code).toBe('already_decided');
    expect(await h.state()).toEqual(before);
    expect(await getDecision(d.id)).toMatchObject({ outcome: 'Brick', cost_minor: 100 });
  });

  it('17 CON-034 decision writes on a completed project are 409 project_closed, nothing written', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project);
    await closeProject(h, project, 'completed');
    const before = await h.state();
    const opened = await h.call('POST', '/v1/decisions', EDITOR, { data: { project_id: project, question: 'Late?' } });
    expect(opened.errors?.[0]?.code).toBe('project_closed');
    expect((await outcome(d.id, { outcome: 'x', cost_minor: 0 })).errors?.[0]?.code).toBe('project_closed');
    expect(await h.state()).toEqual(before);
  });

  it('17 a reader cannot open a decision: 403, nothing written', async () => {
    const project = await registerProject(h);
    const before = await h.state();
    const r = await h.call('POST', '/v1/decisions', READER, { data: { project_id: project, question: 'Mine?' } });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });
});

describe('17 registers', () => {
  it('17 CON-138 every decision, approval and risk carries exactly one project', async () => {
    const project = await registerProject(h);
    const d = await openDecision(h, project);
    const a = await h.ok<Row>(
      'POST',
      '/v1/approvals',
      {
        project_id: project,
        subject_type: 'decision',
        subject_id: d.id,
        reviewers: [{ email: EDITOR, required: true }],
      },
      201,
    );
    const risk = await h.ok<Row>('POST', '/v1/risks', { project_id: project, title: 'Ground water' }, 201);
    for (const url of [`/v1/decisions/${d.id}`, `/v1/approvals/${a.id}`, `/v1/risks/${risk.id}`]) {
      expect(((await h.call('GET', url, READER)).data as Row).project_id).toBe(project);
    }
    const noProject = await h.call('POST', '/v1/risks', EDITOR, { data: { title: 'Orphan' } });
    expect(noProject.status).toBe(422);
  });

  it('17 CON-139 CON-140 register lists take project_id, and span every project without it', async () => {
    const a = await registerProject(h);
    const b = await registerProject(h);
    for (const p of [a, b]) {
      await openDecision(h, p);
      await h.ok('POST', '/v1/risks', { project_id: p, title: 'Crane' }, 201);
      await h.ok(
        'POST',
        '/v1/approvals',
        { project_id: p, subject_type: 'budget', reviewers: [{ email: EDITOR, required: true }] },
        201,
      );
    }
    for (const path of ['/v1/decisions', '/v1/approvals', '/v1/risks']) {
      const one = (await h.call('GET', `${path}?project_id=${a}`, READER)).data as Row[];
      expect(one.length).toBeGreaterThan(0);
      expect(one.every((r) => r.project_id === a)).toBe(true);
      const all = await h.call('GET', `${path}?pagination[pageSize]=200`, READER);
      const projects = new Set((all.data as Row[]).map((r) => r.project_id));
      expect(projects.has(a) && projects.has(b)).toBe(true);
      expect(all.meta).toMatchObject({ pagination: { mode: 'page', page: 1, pageSize: 200 } });
    }
  });

  it('17 CON-141 register list rows omit alternatives, participants and reviewers', async () => {
    const project = await registerProject(h);
    await openDecision(h, project);
    await h.ok(
      'POST',
      '/v1/approvals',
      { project_id: project, subject_type: 'budget', reviewers: [{ email: EDITOR, required: true }] },
      201,
    );
    for (const path of ['/v1/decisions', '/v1/approvals']) {
      const rows = (await h.call('GET', `${path}?project_id=${project}`, READER)).data as Row[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).not.toHaveProperty('alternatives');
        expect(row).not.toHaveProperty('participant_fids');
        expect(row).not.toHaveProperty('reviewers');
      }
    }
  });

  it('17 register lists page: pageSize over 200 is 422', async () => {
    expect((await h.call('GET', '/v1/decisions?pagination[pageSize]=201', READER)).status).toBe(422);
    const project = await registerProject(h);
    await openDecision(h, project);
    h.setNow('2026-03-02T12:00:01Z');
    await openDecision(h, project);
    const page = await h.call(
      'GET',
      `/v1/decisions?project_id=${project}&pagination[pageSize]=1&pagination[page]=2`,
      READER,
    );
    expect((page.data as Row[]).length).toBe(1);
    expect(page.meta).toMatchObject({ pagination: { totalItems: 2, totalPages: 2 } });
  });
});
