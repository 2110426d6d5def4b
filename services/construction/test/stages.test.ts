import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../src/domain/health.ts';
import { AWARD, advance, advanceTo, passGate, pendingGate, rejectedGate } from './fixtures/projects.ts';
import { EDITOR, fid, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const P = '/v1/development-projects';
type StageRow = { stage: string; status: string; gated: boolean } & Record<string, string | null>;
const stages = async (id: string) => (await h.call('GET', `${P}/${id}/stages`, READER)).data as StageRow[];
const stageOf = async (id: string) => (await h.call('GET', `${P}/${id}`, READER)).data.stage as string;
const adv = (id: string, data: unknown) => h.call('POST', `${P}/${id}/advance`, EDITOR, { data });

describe('stages', () => {
  it('17 CON-039 advance moves to the next stage when the gate allows (initiation has none)', async () => {
    const p = await h.project();
    const r = await adv(p.id, { from_stage: 'initiation' });
    expect(r.status).toBe(200);
    expect(r.data.project.stage).toBe('feasibility');
    expect(await stageOf(p.id)).toBe('feasibility');
    await passGate(h, p.id, 'feasibility');
    const r2 = await adv(p.id, { from_stage: 'feasibility' });
    expect(r2.status).toBe(200);
    expect(await stageOf(p.id)).toBe('design');
    const ev = (await h.events('development_project.stage_advanced')).filter((e) => e.payload.data.project_id === p.id);
    expect(ev.map((e) => [e.payload.data.from_stage, e.payload.data.to_stage])).toEqual([
      ['initiation', 'feasibility'],
      ['feasibility', 'design'],
    ]);
  });

  it('17 CON-039 a project moves through all seven stages, one at a time, passing each gate', async () => {
    const p = await h.project();
    for (const [i, s] of STAGES.slice(0, 6).entries()) {
      await advance(h, p.id, s);
      expect(await stageOf(p.id)).toBe(STAGES[i + 1]);
    }
  });

  it('17 CON-040 advancing records the actual dates: the stage left finishes, the next starts, that day', async () => {
    h.setNow('2026-03-02T12:00:00Z');
    const p = await h.project();
    h.setNow('2026-03-09T09:00:00Z');
    await adv(p.id, { from_stage: 'initiation' });
    const s = await stages(p.id);
    expect(s[0]).toMatchObject({
      stage: 'initiation',
      actual_start: '2026-03-02',
      actual_finish: '2026-03-09',
      status: 'done',
    });
    expect(s[1]).toMatchObject({
      stage: 'feasibility',
      actual_start: '2026-03-09',
      actual_finish: null,
      status: 'current',
    });
    expect(s[2]).toMatchObject({ actual_start: null, actual_finish: null, status: 'upcoming' });
    h.setNow('2026-03-02T12:00:00Z');
  });

  it('17 CON-041 advance from a gated stage without an approved stage_gate approval is 409 no_approved_gate, stage unchanged', async () => {
    const p = await h.project();
    await adv(p.id, { from_stage: 'initiation' });
    // A pending gate, a rejected one, an approved gate of another stage and one of another project do not open it.
    await pendingGate(h, p.id, 'feasibility');
    await rejectedGate(h, p.id, 'feasibility');
    await passGate(h, p.id, 'design');
    const other = await h.project();
    await passGate(h, other.id, 'feasibility');
    const before = await h.state();
    const r = await adv(p.id, { from_stage: 'feasibility' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('no_approved_gate');
    expect(await stageOf(p.id)).toBe('feasibility');
    expect(await h.state()).toEqual(before);
    for (const s of ['feasibility', 'design', 'award', 'construction']) {
      expect((await stages(p.id)).find((x) => x.stage === s)?.gated).toBe(true);
    }
    for (const s of ['initiation', 'permitting', 'closeout']) {
      expect((await stages(p.id)).find((x) => x.stage === s)?.gated).toBe(false);
    }
  });

  it('17 CON-042 advance with a from_stage that no longer matches is 409 stage_moved, stage unchanged', async () => {
    const p = await h.project();
    await adv(p.id, { from_stage: 'initiation' });
    const before = await h.state();
    const r = await adv(p.id, { from_stage: 'initiation' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('stage_moved');
    expect(await stageOf(p.id)).toBe('feasibility');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-042 two concurrent advances from one stage move it once; the other is 409 stage_moved', async () => {
    const p = await h.project();
    const answers = await Promise.all([
      adv(p.id, { from_stage: 'initiation' }),
      adv(p.id, { from_stage: 'initiation' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.errors[0].code).toBe('stage_moved');
    expect(await stageOf(p.id)).toBe('feasibility');
    const ev = (await h.events('development_project.stage_advanced')).filter((e) => e.payload.data.project_id === p.id);
    expect(ev).toHaveLength(1);
  });

  it('17 CON-043 advance in closeout is 409 last_stage, stage unchanged', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'closeout');
    const before = await h.state();
    const r = await adv(p.id, { from_stage: 'closeout' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('last_stage');
    expect(await stageOf(p.id)).toBe('closeout');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-044 leaving award with the award answers 2xx, stores it and writes the award baseline', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'award');
    await passGate(h, p.id, 'award');
    const vendor = '0190f1a2-0000-7000-8000-000000000001';
    const r = await adv(p.id, {
      from_stage: 'award',
      award: { ...AWARD, vendor_id: vendor, awarded_on: '2026-02-27' },
    });
    expect(r.status).toBe(200);
    expect(r.data.project.stage).toBe('construction');
    expect(r.data.award).toMatchObject({
      project_id: p.id,
      contract_sum_minor: AWARD.contract_sum_minor,
      completion_date: AWARD.completion_date,
      vendor_id: vendor,
      awarded_on: '2026-02-27',
      created_by: fid(EDITOR),
    });
    const b = await sql<Record<string, unknown>>`SELECT * FROM baselines WHERE project_id = ${p.id}`.execute(h.db);
    expect(b.rows).toHaveLength(1);
    expect(b.rows[0]).toMatchObject({
      id: r.data.award.baseline_id,
      seq: 1,
      kind: 'award',
      amount_minor: AWARD.contract_sum_minor,
      finish_date: AWARD.completion_date,
    });
    const overview = await h.call('GET', `${P}/${p.id}/overview`, READER);
    expect(overview.data.award.contract_sum_minor).toBe(AWARD.contract_sum_minor);
    const ev = (await h.events('development_project.awarded')).find((e) => e.payload.data.project_id === p.id);
    expect(ev?.payload.data).toMatchObject({ baseline_id: r.data.award.baseline_id, vendor_id: vendor });
  });

  it('17 CON-045 leaving award without the award is 422 award_required, stage unchanged, nothing written', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'award');
    await passGate(h, p.id, 'award');
    const before = await h.state();
    const r = await adv(p.id, { from_stage: 'award' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('award_required');
    expect(await stageOf(p.id)).toBe('award');
    expect(await h.state()).toEqual(before);
    // An incomplete award is refused by the schema.
    const partial = await adv(p.id, { from_stage: 'award', award: { contract_sum_minor: 10 } });
    expect(partial.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-046 complete in closeout makes the project completed and finishes closeout that day', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'closeout');
    h.setNow('2026-04-01T10:00:00Z');
    const r = await h.call('POST', `${P}/${p.id}/complete`, EDITOR, { data: {} });
    expect(r.status).toBe(200);
    expect((await h.call('GET', `${P}/${p.id}`, READER)).data.status).toBe('completed');
    const s = await stages(p.id);
    expect(s[6]).toMatchObject({ stage: 'closeout', actual_finish: '2026-04-01', status: 'done' });
    expect(s.every((x) => x.status === 'done')).toBe(true);
    h.setNow('2026-03-02T12:00:00Z');
    // The body may be left out.
    const q = await h.project();
    await advanceTo(h, q.id, 'closeout');
    const bare = await h.call('POST', `${P}/${q.id}/complete`, EDITOR);
    expect(bare.status).toBe(200);
    expect(bare.data.project.status).toBe('completed');
  });

  it('17 CON-047 complete in any stage but closeout is 409 not_in_closeout and nothing changes', async () => {
    const p = await h.project();
    for (const s of STAGES.slice(0, 6)) {
      const before = await h.state();
      const r = await h.call('POST', `${P}/${p.id}/complete`, EDITOR, { data: {} });
      expect(r.status, s).toBe(409);
      expect(r.errors[0].code).toBe('not_in_closeout');
      expect(await h.state()).toEqual(before);
      const got = (await h.call('GET', `${P}/${p.id}`, READER)).data;
      expect(got).toMatchObject({ stage: s, status: 'active' });
      await advance(h, p.id, s);
    }
  });

  it('17 CON-048 GET stages returns seven rows in order, each with its dates and status', async () => {
    const p = await h.project();
    await advanceTo(h, p.id, 'design');
    const s = await stages(p.id);
    expect(s).toHaveLength(7);
    expect(s.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(s.map((x) => x.status)).toEqual(['done', 'done', 'current', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    for (const x of s) {
      for (const k of [
        'planned_start',
        'planned_finish',
        'forecast_start',
        'forecast_finish',
        'actual_start',
        'actual_finish',
      ]) {
        expect(x).toHaveProperty(k);
        if (x[k] !== null) expect(x[k]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    const missing = await h.call('GET', `${P}/00000000-0000-4000-8000-000000000000/stages`, READER);
    expect(missing.status).toBe(404);
    expect(missing.errors[0].code).toBe('project_not_found');
  });

  it('17 CON-049 the plan route sets planned and forecast dates; GET stages shows them', async () => {
    const p = await h.project();
    const dates = {
      planned_start: '2026-05-01',
      planned_finish: '2026-08-31',
      forecast_start: '2026-05-15',
      forecast_finish: '2026-09-30',
    };
    const r = await h.call('PUT', `${P}/${p.id}/stages/design/plan`, EDITOR, { data: dates });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ stage: 'design', ...dates });
    expect((await stages(p.id)).find((x) => x.stage === 'design')).toMatchObject(dates);
    // Only the fields sent change; null clears one.
    await h.ok('PUT', `${P}/${p.id}/stages/design/plan`, { forecast_finish: null });
    expect((await stages(p.id)).find((x) => x.stage === 'design')).toMatchObject({ ...dates, forecast_finish: null });
    const unknown = await h.call('PUT', `${P}/${p.id}/stages/demolition/plan`, EDITOR, { data: dates });
    expect(unknown.status).toBe(404);
    expect(unknown.errors[0].code).toBe('stage_not_found');
  });

  it('17 CON-050 actual dates sent to the plan route are refused (422) and not stored', async () => {
    const p = await h.project();
    const before = await h.state();
    const r = await h.call('PUT', `${P}/${p.id}/stages/initiation/plan`, EDITOR, {
      data: { planned_start: '2026-01-01', actual_start: '2020-01-01', actual_finish: '2020-02-01' },
    });
    expect(r.status).toBe(422);
    expect(await h.state()).toEqual(before);
    const s = (await stages(p.id))[0];
    expect(s).toMatchObject({ actual_start: '2026-03-02', actual_finish: null, planned_start: null });
  });

  it('17 CON-031 an on-hold project does not advance or complete (409 project_on_hold) but takes its stage plan', async () => {
    const p = await h.project();
    await h.ok('POST', `${P}/${p.id}/status`, { status: 'on_hold' });
    const before = await h.state();
    const r = await adv(p.id, { from_stage: 'initiation' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('project_on_hold');
    expect(await h.state()).toEqual(before);
    const plan = await h.call('PUT', `${P}/${p.id}/stages/design/plan`, EDITOR, {
      data: { planned_start: '2026-06-01' },
    });
    expect(plan.status).toBe(200);
    await h.ok('POST', `${P}/${p.id}/status`, { status: 'active' });
    expect((await adv(p.id, { from_stage: 'initiation' })).status).toBe(200);
  });
});
