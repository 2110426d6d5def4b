import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeProject, raiseRisk, registerProject } from './fixtures/registers.ts';
import { EDITOR, fid, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

type Row = Record<string, unknown>;
const getRisk = async (id: string) => {
  const r = await h.call('GET', `/v1/risks/${id}`, READER);
  expect(r.status).toBe(200);
  return r.data as Row;
};
const setStatus = (id: string, status: string) =>
  h.call('POST', `/v1/risks/${id}/status`, EDITOR, { data: { status } });

describe('17 risks', () => {
  it('17 CON-159 POST /v1/risks raises a risk shown by GET /v1/risks and GET /v1/risks/{id}', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project, {
      title: 'Contaminated ground',
      description: 'Old fuel depot',
      likelihood: 'medium',
      impact: 'high',
      owner_fid: fid(EDITOR),
    });
    expect(risk.status).toBe('open');
    const rows = (await h.call('GET', `/v1/risks?project_id=${project}`, READER)).data as Row[];
    expect(rows.map((r) => r.id)).toContain(risk.id);
    expect(await getRisk(risk.id)).toMatchObject({
      project_id: project,
      title: 'Contaminated ground',
      description: 'Old fuel depot',
      likelihood: 'medium',
      impact: 'high',
      owner_fid: fid(EDITOR),
      status: 'open',
    });
    expect((await h.call('GET', `/v1/risks/${crypto.randomUUID()}`, READER)).errors?.[0]?.code).toBe('risk_not_found');
  });

  it('17 CON-160 open, mitigated, closed and happened are accepted; any other status is refused, nothing written', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project);
    for (const status of ['mitigated', 'closed', 'happened', 'open']) {
      const r = await setStatus(risk.id, status);
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ status });
    }
    const before = await h.state();
    const bad = await setStatus(risk.id, 'escalated');
    expect(bad.status).toBe(422);
    expect(await h.state()).toEqual(before);
    const badRaise = await h.call('POST', '/v1/risks', EDITOR, {
      data: { project_id: project, title: 'x', impact: 'huge' },
    });
    expect(badRaise.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-161 POST /v1/risks/{id}/status sets the status shown by GET', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project);
    await setStatus(risk.id, 'mitigated');
    expect(await getRisk(risk.id)).toMatchObject({ status: 'mitigated' });
    const ev = (await h.events('risk.status_changed')).filter((e) => e.payload.data.risk_id === risk.id);
    expect(ev.at(-1)?.payload.data).toMatchObject({ from: 'open', to: 'mitigated' });
  });

  it('17 CON-162 setting the status a risk has is 409 same_status, nothing changes', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project);
    const before = await h.state();
    const r = await setStatus(risk.id, 'open');
    expect(r.status).toBe(409);
    expect(r.errors?.[0]?.code).toBe('same_status');
    expect(await h.state()).toEqual(before);
    expect(await getRisk(risk.id)).toMatchObject({ status: 'open', updated_at: risk.updated_at });
  });

  it('17 risks filter by status', async () => {
    const project = await registerProject(h);
    const a = await raiseRisk(h, project);
    await raiseRisk(h, project);
    await setStatus(a.id, 'happened');
    const rows = (await h.call('GET', `/v1/risks?project_id=${project}&status=happened`, READER)).data as Row[];
    expect(rows.map((r) => r.id)).toEqual([a.id]);
  });

  it('17 CON-034 risk writes on a cancelled project are 409 project_closed, nothing written', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project);
    await closeProject(h, project);
    const before = await h.state();
    expect(
      (await h.call('POST', '/v1/risks', EDITOR, { data: { project_id: project, title: 'x' } })).errors?.[0]?.code,
    ).toBe('project_closed');
    expect((await setStatus(risk.id, 'closed')).errors?.[0]?.code).toBe('project_closed');
    expect(await h.state()).toEqual(before);
  });

  it('17 a reader cannot set a risk status: 403, nothing written', async () => {
    const project = await registerProject(h);
    const risk = await raiseRisk(h, project);
    const before = await h.state();
    const r = await h.call('POST', `/v1/risks/${risk.id}/status`, READER, { data: { status: 'closed' } });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
  });
});
