import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  awardedProject,
  closeProject,
  draft,
  passGate,
  price,
  registerProject,
  requestApproval,
  respond,
  submit,
  variationIn,
} from './fixtures/registers.ts';
import { EDITOR, fid, type Harness, harness, READER, SECOND_EDITOR } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

type Row = Record<string, unknown>;
const list = async (query: string) => {
  const r = await h.call('GET', `/v1/variations?${query}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row[];
};
const getVariation = async (id: string) => {
  const r = await h.call('GET', `/v1/variations/${id}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row & { current_baseline: Row | null; approval: (Row & { reviewers: Row[] }) | null };
};

describe('17 variations', () => {
  it('17 CON-126 POST /v1/variations drafts a variation listed as drafted', async () => {
    const project = await awardedProject(h);
    const v = await draft(h, project, 'Extra basement level');
    expect(v.status).toBe('drafted');
    const rows = await list(`project_id=${project}`);
    expect(rows.find((r) => r.id === v.id)).toMatchObject({ status: 'drafted', title: 'Extra basement level' });
    expect(await h.events('variation.drafted')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          payload: expect.objectContaining({ data: expect.objectContaining({ variation_id: v.id }) }),
        }),
      ]),
    );
  });

  it('17 CON-127 a variation on a project without the award baseline is 409 no_baseline, nothing written', async () => {
    const project = await registerProject(h);
    const before = await h.state();
    const r = await h.call('POST', '/v1/variations', EDITOR, { data: { project_id: project, title: 'Early' } });
    expect(r.status).toBe(409);
    expect(r.errors?.[0]?.code).toBe('no_baseline');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-128 GET /v1/variations?project_id lists only that project', async () => {
    const a = await awardedProject(h);
    const b = await awardedProject(h);
    await draft(h, a);
    await draft(h, b);
    const rows = await list(`project_id=${a}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.project_id === a)).toBe(true);
  });

  it('17 CON-129 GET /v1/variations?status lists only that status', async () => {
    const project = await awardedProject(h);
    await variationIn(h, project, 'drafted');
    await variationIn(h, project, 'priced');
    const rows = await list('status=priced');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'priced')).toBe(true);
    const both = await list(`status=drafted&project_id=${project}`);
    expect(both.map((r) => r.status)).toEqual(['drafted']);
    expect((await h.call('GET', '/v1/variations?status=pending', READER)).status).toBe(422);
  });

  it('17 CON-130 GET /v1/variations/{id} carries the variation beside the current (newest) baseline', async () => {
    const project = await awardedProject(h, 500_000, '2027-01-31');
    const v = await draft(h, project);
    const got = await getVariation(v.id);
    expect(got).toMatchObject({ id: v.id, status: 'drafted', approval: null });
    expect(got.current_baseline).toMatchObject({ project_id: project, seq: 1, kind: 'award', amount_minor: 500_000 });
    h.setNow('2026-03-03T12:00:00Z');
    const incorporated = await variationIn(h, project, 'incorporated', 1_000, 1);
    const after = await getVariation(v.id);
    expect(after.current_baseline).toMatchObject({ seq: 2, kind: 'variation', variation_id: incorporated.id });
    expect((await h.call('GET', `/v1/variations/${crypto.randomUUID()}`, READER)).status).toBe(404);
  });

  it('17 CON-131 PUT /v1/variations/{id}/price records the cost change and days', async () => {
    const project = await awardedProject(h);
    const v = await draft(h, project);
    await price(h, v.id, 40_000, 12);
    expect(await getVariation(v.id)).toMatchObject({ status: 'priced', cost_change_minor: 40_000, days: 12 });
    await price(h, v.id, -5_000, -3);
    expect(await getVariation(v.id)).toMatchObject({ status: 'priced', cost_change_minor: -5_000, days: -3 });
  });

  it('17 CON-132 CON-150 submit names the reviewers (lowercased) on the variation approval', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const submitted = await submit(h, v.id, [
      { email: 'Second.Editor@Construction.TEST', required: true },
      { email: 'someone@construction.test', required: false },
    ]);
    expect(submitted.status).toBe('submitted');
    const got = await getVariation(v.id);
    expect(got.status).toBe('submitted');
    expect(got.approval).toMatchObject({ subject_type: 'variation', subject_id: v.id, status: 'pending' });
    expect(got.approval?.reviewers.map((r) => [r.email, r.required]).sort()).toEqual([
      [SECOND_EDITOR, true],
      ['someone@construction.test', false],
    ]);
  });

  it('17 submitting a drafted (unpriced) variation is 422 variation_not_priced, nothing written', async () => {
    const project = await awardedProject(h);
    const v = await draft(h, project);
    const before = await h.state();
    const r = await h.call('POST', `/v1/variations/${v.id}/submit`, EDITOR, {
      data: { reviewers: [{ email: EDITOR, required: true }] },
    });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]?.code).toBe('variation_not_priced');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-149 submitting with no required reviewer is 422 required_reviewer_missing, nothing written', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const before = await h.state();
    const r = await h.call('POST', `/v1/variations/${v.id}/submit`, EDITOR, {
      data: { reviewers: [{ email: EDITOR, required: false }] },
    });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]?.code).toBe('required_reviewer_missing');
    expect(await h.state()).toEqual(before);
    expect((await getVariation(v.id)).status).toBe('priced');
  });

  it('17 CON-133 the variation is approved in the transaction of the last required approval', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const s = await submit(h, v.id, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    const first = await respond(h, s.approval_id as string, EDITOR, 'approved');
    expect(first.status).toBe(200);
    expect((await getVariation(v.id)).status).toBe('submitted');
    const last = await respond(h, s.approval_id as string, SECOND_EDITOR, 'approved');
    expect(last.status).toBe(200);
    expect(last.data).toMatchObject({ status: 'approved' });
    expect((await getVariation(v.id)).status).toBe('approved');
    // One transaction: the answer, the settled approval and the variation's move share their instant and outbox.
    const moved = (await h.events('variation.approved')).filter((e) => (e.payload.data as Row).variation_id === v.id);
    expect(moved).toHaveLength(1);
  });

  it('17 CON-134 the variation is rejected when the last required reviewer rejects', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const s = await submit(h, v.id, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    await respond(h, s.approval_id as string, EDITOR, 'approved');
    const last = await respond(h, s.approval_id as string, SECOND_EDITOR, 'rejected', 'Too dear');
    expect(last.status).toBe(200);
    expect(last.data).toMatchObject({ status: 'rejected' });
    expect((await getVariation(v.id)).status).toBe('rejected');
    expect(
      (await h.events('variation.rejected')).filter((e) => (e.payload.data as Row).variation_id === v.id),
    ).toHaveLength(1);
  });

  it('17 CON-133 an optional reviewer does not settle the variation', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const s = await submit(h, v.id, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: false },
    ]);
    await respond(h, s.approval_id as string, SECOND_EDITOR, 'rejected');
    expect((await getVariation(v.id)).status).toBe('submitted');
    await respond(h, s.approval_id as string, EDITOR, 'approved');
    expect((await getVariation(v.id)).status).toBe('approved');
  });

  it('17 CON-133 two last reviewers answering at once settle the variation once', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const s = await submit(h, v.id, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    const answers = await Promise.all([
      respond(h, s.approval_id as string, EDITOR, 'approved'),
      respond(h, s.approval_id as string, SECOND_EDITOR, 'approved'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await getVariation(v.id)).status).toBe('approved');
    const settled = (await h.events('approval.settled')).filter(
      (e) => (e.payload.data as Row).approval_id === s.approval_id,
    );
    expect(settled).toHaveLength(1);
    expect(
      (await h.events('variation.approved')).filter((e) => (e.payload.data as Row).variation_id === v.id),
    ).toHaveLength(1);
  });

  it('17 CON-135 incorporating an approved variation writes a new newest baseline', async () => {
    const project = await awardedProject(h, 1_000_000, '2027-06-30');
    const v = await variationIn(h, project, 'approved', 25_000, 10);
    h.setNow('2026-03-04T12:00:00Z');
    const r = await h.call('POST', `/v1/variations/${v.id}/incorporate`, EDITOR, { data: {} });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'incorporated' });
    const baselines = await h.call('GET', `/v1/development-projects/${project}/baselines`, READER);
    expect(baselines.status).toBe(200);
    const newest = (baselines.data as Row[])[0];
    expect(newest).toMatchObject({
      seq: 2,
      kind: 'variation',
      variation_id: v.id,
      amount_minor: 1_025_000,
      finish_date: '2027-07-10',
    });
    expect((await getVariation(v.id)).baseline_id).toBe(newest?.id);
  });

  it('17 CON-136 incorporating a variation that is not approved is 409 variation_not_approved, no baseline', async () => {
    const project = await awardedProject(h);
    for (const state of ['drafted', 'priced', 'submitted', 'rejected'] as const) {
      const v = await variationIn(h, project, state);
      const before = await h.state();
      const r = await h.call('POST', `/v1/variations/${v.id}/incorporate`, EDITOR, { data: {} });
      expect(r.status).toBe(409);
      expect(r.errors?.[0]?.code).toBe('variation_not_approved');
      expect(await h.state()).toEqual(before);
      expect((await getVariation(v.id)).status).toBe(state);
    }
  });

  it('17 CON-137 pricing or submitting a variation no longer drafted or priced is 409 variation_not_open', async () => {
    const project = await awardedProject(h);
    for (const state of ['submitted', 'approved', 'rejected', 'incorporated'] as const) {
      const v = await variationIn(h, project, state);
      const before = await h.state();
      const priced = await h.call('PUT', `/v1/variations/${v.id}/price`, EDITOR, {
        data: { cost_change_minor: 1, days: 1 },
      });
      expect(priced.status).toBe(409);
      expect(priced.errors?.[0]?.code).toBe('variation_not_open');
      const submitted = await h.call('POST', `/v1/variations/${v.id}/submit`, EDITOR, {
        data: { reviewers: [{ email: EDITOR, required: true }] },
      });
      expect(submitted.status).toBe(409);
      expect(submitted.errors?.[0]?.code).toBe('variation_not_open');
      expect(await h.state()).toEqual(before);
    }
  });

  it('17 CON-137 an answer on a variation approval once the variation left submitted is 409 variation_not_pending', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'priced');
    const s = await submit(h, v.id, [{ email: EDITOR, required: true }]);
    // A second review of the same submitted variation, then the first settles it.
    const second = await requestApproval(h, {
      project_id: project,
      subject_type: 'variation',
      subject_id: v.id,
      reviewers: [{ email: SECOND_EDITOR, required: true }],
    });
    await respond(h, s.approval_id as string, EDITOR, 'approved');
    const before = await h.state();
    const late = await respond(h, second.id, SECOND_EDITOR, 'rejected');
    expect(late.status).toBe(409);
    expect(late.errors?.[0]?.code).toBe('variation_not_pending');
    expect(await h.state()).toEqual(before);
    expect((await getVariation(v.id)).status).toBe('approved');
    // Requesting review of a variation that is not submitted is refused the same way.
    const again = await h.call('POST', '/v1/approvals', EDITOR, {
      data: {
        project_id: project,
        subject_type: 'variation',
        subject_id: v.id,
        reviewers: [{ email: EDITOR, required: true }],
      },
    });
    expect(again.status).toBe(409);
    expect(again.errors?.[0]?.code).toBe('variation_not_pending');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-034 a variation write on a cancelled project is 409 project_closed, nothing written', async () => {
    const project = await awardedProject(h);
    const v = await draft(h, project);
    await closeProject(h, project);
    const before = await h.state();
    const created = await h.call('POST', '/v1/variations', EDITOR, { data: { project_id: project, title: 'Late' } });
    expect(created.status).toBe(409);
    expect(created.errors?.[0]?.code).toBe('project_closed');
    const priced = await h.call('PUT', `/v1/variations/${v.id}/price`, EDITOR, {
      data: { cost_change_minor: 1, days: 0 },
    });
    expect(priced.errors?.[0]?.code).toBe('project_closed');
    expect(await h.state()).toEqual(before);
  });

  it('17 variation writes need an editor: a reader is 403, nothing written', async () => {
    const project = await awardedProject(h);
    const before = await h.state();
    const r = await h.call('POST', '/v1/variations', READER, { data: { project_id: project, title: 'No' } });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });

  it('17 a variation carries its drafter and an unknown one is 404 variation_not_found', async () => {
    const project = await awardedProject(h);
    const v = await draft(h, project);
    expect((await getVariation(v.id)).created_by).toBe(fid(EDITOR));
    const r = await h.call('PUT', `/v1/variations/${crypto.randomUUID()}/price`, EDITOR, {
      data: { cost_change_minor: 1, days: 1 },
    });
    expect(r.status).toBe(404);
    expect(r.errors?.[0]?.code).toBe('variation_not_found');
  });

  it('17 baselines stay immutable: the database refuses to change one', async () => {
    const project = await awardedProject(h);
    await expect(
      sql`UPDATE baselines SET amount_minor = 1 WHERE project_id = ${project}`.execute(h.db),
    ).rejects.toThrow();
  });
  it('17 CON-127 CON-135 through the stage routes: gates passed by approvals, the award baseline, then a variation incorporated', async () => {
    const project = await h.project();
    const advance = (from_stage: string, extra: Record<string, unknown> = {}) =>
      h.ok('POST', `/v1/development-projects/${project.id}/advance`, { from_stage, ...extra });
    const early = await h.call('POST', '/v1/variations', EDITOR, {
      data: { project_id: project.id, title: 'Too early' },
    });
    expect(early.errors?.[0]?.code).toBe('no_baseline');
    await advance('initiation');
    for (const stage of ['feasibility', 'design']) {
      await passGate(h, project.id, stage);
      await advance(stage);
    }
    await advance('permitting');
    await passGate(h, project.id, 'award');
    await advance('award', { award: { contract_sum_minor: 2_000_000, completion_date: '2027-12-31' } });
    const v = await variationIn(h, project.id, 'approved', -50_000, 31);
    h.setNow('2026-03-05T12:00:00Z');
    await h.ok('POST', `/v1/variations/${v.id}/incorporate`, {});
    const got = await getVariation(v.id);
    expect(got.current_baseline).toMatchObject({
      seq: 2,
      kind: 'variation',
      amount_minor: 1_950_000,
      finish_date: '2028-01-31',
    });
  });
  it('17 CON-133 CON-134 the answer and the variation move commit together: a failed move leaves the answer unwritten', async () => {
    const project = await awardedProject(h);
    const v = await variationIn(h, project, 'submitted');
    await sql`
      CREATE FUNCTION h5_refuse_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'move refused by the test'; END $$`.execute(h.db);
    await sql`
      CREATE TRIGGER h5_refuse_move BEFORE UPDATE ON variations FOR EACH ROW
      WHEN (NEW.status <> OLD.status) EXECUTE FUNCTION h5_refuse_move()`.execute(h.db);
    try {
      const before = await h.state();
      const r = await respond(h, v.approval_id as string, EDITOR, 'approved');
      expect(r.status).toBe(500);
      expect(await h.state()).toEqual(before);
      const got = await getVariation(v.id);
      expect(got.status).toBe('submitted');
      expect(got.approval).toMatchObject({ status: 'pending' });
      expect(got.approval?.reviewers.every((x) => x.response === null)).toBe(true);
    } finally {
      await sql`DROP TRIGGER h5_refuse_move ON variations`.execute(h.db);
      await sql`DROP FUNCTION h5_refuse_move()`.execute(h.db);
    }
    expect((await respond(h, v.approval_id as string, EDITOR, 'approved')).data).toMatchObject({ status: 'approved' });
    expect((await getVariation(v.id)).status).toBe('approved');
  });
});
