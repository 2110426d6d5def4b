import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  awardedProject,
  closeProject,
  openDecision,
  passGate,
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
type Reviewer = {
  email: string;
  required: boolean;
  response: string | null;
  note: string | null;
  responded_by: string | null;
};
const getApproval = async (id: string) => {
  const r = await h.call('GET', `/v1/approvals/${id}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row & { reviewers: Reviewer[] };
};
const listApprovals = async (query = '') => {
  const r = await h.call('GET', `/v1/approvals?${query}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row[];
};
const gate = (projectId: string, reviewers = [{ email: EDITOR, required: true }]) =>
  requestApproval(h, { project_id: projectId, subject_type: 'stage_gate', stage: 'feasibility', reviewers });

describe('17 approvals', () => {
  it('17 CON-147 POST /v1/approvals requests review and it appears in GET /v1/approvals', async () => {
    const project = await registerProject(h);
    const a = await gate(project);
    expect(a.status).toBe('pending');
    const rows = await listApprovals(`project_id=${project}`);
    expect(rows.map((r) => r.id)).toContain(a.id);
    expect((await h.events('approval.requested')).some((e) => e.payload.data.approval_id === a.id)).toBe(true);
  });

  it('17 CON-148 a stage gate, a decision, a budget and a variation are each accepted as the subject', async () => {
    const project = await awardedProject(h);
    const decision = await openDecision(h, project);
    const variation = await variationIn(h, project, 'submitted');
    const reviewers = [{ email: EDITOR, required: true }];
    const subjects = [
      { subject_type: 'stage_gate', stage: 'design' },
      { subject_type: 'decision', subject_id: decision.id },
      { subject_type: 'budget' },
      { subject_type: 'variation', subject_id: variation.id },
    ];
    for (const s of subjects) {
      const a = await requestApproval(h, { project_id: project, reviewers, ...s });
      expect(await getApproval(a.id)).toMatchObject({ ...s, status: 'pending', project_id: project });
    }
    const r = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'contract', reviewers },
    });
    expect(r.status).toBe(422);
  });

  it('17 CON-148 a subject of another project, or missing its stage or record, is refused and nothing is written', async () => {
    const project = await registerProject(h);
    const other = await registerProject(h);
    const decision = await openDecision(h, other);
    const reviewers = [{ email: EDITOR, required: true }];
    const before = await h.state();
    const foreign = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'decision', subject_id: decision.id, reviewers },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.errors?.[0]?.code).toBe('decision_not_found');
    const noStage = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'stage_gate', reviewers },
    });
    expect(noStage.status).toBe(422);
    const noSubject = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'variation', reviewers },
    });
    expect(noSubject.status).toBe(422);
    const unknownVariation = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'variation', subject_id: crypto.randomUUID(), reviewers },
    });
    expect(unknownVariation.errors?.[0]?.code).toBe('variation_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-149 an approval with no required reviewer is 422 required_reviewer_missing, nothing written', async () => {
    const project = await registerProject(h);
    const before = await h.state();
    const r = await h.call('POST', '/v1/approvals', EDITOR, {
      data: {
        project_id: project,
        subject_type: 'budget',
        reviewers: [
          { email: EDITOR, required: false },
          { email: SECOND_EDITOR, required: false },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.errors?.[0]?.code).toBe('required_reviewer_missing');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-150 a reviewer sent in mixed case is stored lowercased', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [{ email: 'Editor@Construction.TEST', required: true }]);
    expect((await getApproval(a.id)).reviewers.map((r) => r.email)).toEqual([EDITOR]);
  });

  it('17 CON-151 GET /v1/approvals/{id} carries the reviewers', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: false },
    ]);
    const got = await getApproval(a.id);
    expect(got.reviewers).toEqual([
      expect.objectContaining({ email: EDITOR, required: true, response: null }),
      expect.objectContaining({ email: SECOND_EDITOR, required: false, response: null }),
    ]);
    expect((await h.call('GET', `/v1/approvals/${crypto.randomUUID()}`, READER)).errors?.[0]?.code).toBe(
      'approval_not_found',
    );
  });

  it('17 CON-152 CON-153 the response is recorded with its note on the caller’s own reviewer row only', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    const r = await respond(h, a.id, SECOND_EDITOR, 'approved', 'Checked the cost plan');
    expect(r.status).toBe(200);
    const got = await getApproval(a.id);
    const mine = got.reviewers.find((x) => x.email === SECOND_EDITOR);
    const other = got.reviewers.find((x) => x.email === EDITOR);
    expect(mine).toMatchObject({
      response: 'approved',
      note: 'Checked the cost plan',
      responded_by: fid(SECOND_EDITOR),
    });
    expect(other).toMatchObject({ response: null, note: null, responded_by: null });
    expect(got.status).toBe('pending');
  });

  it('17 CON-154 a caller not named as a reviewer is 403, nothing written', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [{ email: EDITOR, required: true }]);
    const before = await h.state();
    const r = await respond(h, a.id, SECOND_EDITOR, 'approved');
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-155 a reviewer whose sign-in email differs only in case may answer', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [{ email: 'second.editor@construction.test', required: true }]);
    const r = await h.call(
      'POST',
      `/v1/approvals/${a.id}/response`,
      { gateway: 'Second.Editor@Construction.Test' },
      {
        data: { response: 'approved' },
      },
    );
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'approved' });
    const dev = await gate(project, [{ email: EDITOR, required: true }]);
    expect((await respond(h, dev.id, 'EDITOR@Construction.Test', 'approved')).status).toBe(200);
  });

  it('17 CON-156 a named reviewer who is not an editor is 403, nothing written', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: READER, required: true },
      { email: EDITOR, required: true },
    ]);
    const before = await h.state();
    const r = await respond(h, a.id, READER, 'approved');
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
    expect((await getApproval(a.id)).reviewers.every((x) => x.response === null)).toBe(true);
  });

  it('17 CON-157 a reviewer answers once: a second answer is 409 already_answered, nothing changes', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    await respond(h, a.id, EDITOR, 'approved');
    const before = await h.state();
    const again = await respond(h, a.id, EDITOR, 'rejected');
    expect(again.status).toBe(409);
    expect(again.errors?.[0]?.code).toBe('already_answered');
    expect(await h.state()).toEqual(before);
    expect((await getApproval(a.id)).reviewers.find((x) => x.email === EDITOR)?.response).toBe('approved');
  });

  it('17 CON-158 a settled approval takes no answer: 409 already_decided, nothing changes', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: false },
    ]);
    expect((await respond(h, a.id, EDITOR, 'rejected')).data).toMatchObject({ status: 'rejected' });
    const before = await h.state();
    const late = await respond(h, a.id, SECOND_EDITOR, 'approved');
    expect(late.status).toBe(409);
    expect(late.errors?.[0]?.code).toBe('already_decided');
    expect(await h.state()).toEqual(before);
    expect((await getApproval(a.id)).status).toBe('rejected');
  });

  it('17 an approval settles when the last required reviewer answers: approved only if every required one approved', async () => {
    const project = await registerProject(h);
    const a = await gate(project, [
      { email: EDITOR, required: true },
      { email: SECOND_EDITOR, required: true },
    ]);
    expect((await respond(h, a.id, EDITOR, 'rejected')).data).toMatchObject({ status: 'pending' });
    const last = await respond(h, a.id, SECOND_EDITOR, 'approved');
    expect(last.data).toMatchObject({ status: 'rejected' });
    expect((await getApproval(a.id)).decided_at).toBe(h.now().toISOString());
  });

  it('17 passGate gives the stage its approved stage_gate approval', async () => {
    const project = await registerProject(h);
    const id = await passGate(h, project, 'feasibility');
    expect(await getApproval(id)).toMatchObject({
      subject_type: 'stage_gate',
      stage: 'feasibility',
      status: 'approved',
    });
  });

  it('17 CON-034 approval writes on a cancelled project are 409 project_closed, nothing written', async () => {
    const project = await registerProject(h);
    const a = await gate(project);
    await closeProject(h, project);
    const before = await h.state();
    expect((await respond(h, a.id, EDITOR, 'approved')).errors?.[0]?.code).toBe('project_closed');
    const r = await h.call('POST', '/v1/approvals', EDITOR, {
      data: { project_id: project, subject_type: 'budget', reviewers: [{ email: EDITOR, required: true }] },
    });
    expect(r.errors?.[0]?.code).toBe('project_closed');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-141 CON-138 approval list rows carry one project and no reviewers', async () => {
    const project = await registerProject(h);
    await gate(project);
    const rows = await listApprovals(`project_id=${project}`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).not.toHaveProperty('reviewers');
      expect(row.project_id).toBe(project);
    }
  });

  it('17 approvals filter by subject_type and status', async () => {
    const project = await awardedProject(h);
    await requestApproval(h, {
      project_id: project,
      subject_type: 'budget',
      reviewers: [{ email: EDITOR, required: true }],
    });
    const v = await variationIn(h, project, 'priced');
    await submit(h, v.id);
    const budget = await listApprovals(`project_id=${project}&subject_type=budget`);
    expect(budget.length).toBe(1);
    expect(budget.every((r) => r.subject_type === 'budget')).toBe(true);
    expect((await listApprovals(`project_id=${project}&status=approved`)).length).toBe(0);
  });
});
