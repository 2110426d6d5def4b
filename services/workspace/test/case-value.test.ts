import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case, CaseValue } from '../src/schemas/cases.ts';
import { EDITOR, type Harness, harness, OUTSIDER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

let openedAt = Date.parse('2025-06-16T15:00:00Z');

/** Opens a case on `subject`, a minute after the previous one (so "first opened" is well defined). */
async function open(projectId: string, subject: string, data: Record<string, unknown> = {}): Promise<Case> {
  openedAt += 60_000;
  h.setNow(new Date(openedAt).toISOString());
  const r = await h.call('POST', `/v1/projects/${projectId}/cases`, EDITOR, {
    data: { title: `Finding on ${subject}`, subject, proposed_correction: 'Correct the billing', ...data },
  });
  h.expectStatus('open case', r, 201);
  return r.data as Case;
}
async function moveTo(projectId: string, caseId: string, ...steps: string[]) {
  for (const status of steps) {
    const data: Record<string, unknown> = { status };
    if (status === 'dismissed') data.reason = `Dismissed: ${caseId.slice(-6)} was a billing test`;
    if (status === 'verified') data.method = 'Ledger matched';
    const r = await h.call('POST', `/v1/projects/${projectId}/cases/${caseId}/transition`, EDITOR, { data });
    h.expectStatus(`move to ${status}`, r, 200);
  }
}
async function amount(
  projectId: string,
  caseId: string,
  stage: string,
  value: number,
  currency = 'USD',
  tied?: boolean,
) {
  const r = await h.call('POST', `/v1/projects/${projectId}/cases/${caseId}/amounts`, EDITOR, {
    data: { stage, amount: value, currency, ...(tied === undefined ? {} : { tied_to_correction: tied }) },
  });
  h.expectStatus(`amount ${stage}`, r, 201);
}
async function report(projectId: string, as = VIEWER): Promise<CaseValue> {
  const r = await h.call('GET', `/v1/projects/${projectId}/case-value`, as);
  h.expectStatus('case-value', r, 200);
  return r.data as CaseValue;
}
const total = (v: CaseValue, stage: 'identified' | 'approved' | 'posted', currency = 'USD') =>
  v.stages[stage].totals.find((t) => t.currency === currency)?.amount;

describe('GET /v1/projects/{id}/case-value', () => {
  it('16 WS-304 returns one total per stage (per currency)', async () => {
    const p = await h.team();
    const a = await open(p.id, 'Lease 1');
    await moveTo(p.id, a.id, 'accepted', 'in_progress');
    await amount(p.id, a.id, 'identified', 10_000);
    await amount(p.id, a.id, 'identified', 2_500);
    await amount(p.id, a.id, 'approved', 9_000);
    await amount(p.id, a.id, 'posted', 8_000);
    await amount(p.id, a.id, 'collected', 5_000, 'USD', true);
    await amount(p.id, a.id, 'collected', 1_000, 'USD', false);
    const b = await open(p.id, 'Lease 2');
    await amount(p.id, b.id, 'identified', 700, 'EUR');

    const v = await report(p.id);
    expect(Object.keys(v.stages).sort()).toEqual(['approved', 'collected', 'identified', 'posted']);
    expect(v.stages.identified.totals).toEqual([
      { currency: 'EUR', amount: 700 },
      { currency: 'USD', amount: 12_500 },
    ]);
    expect(v.stages.approved.totals).toEqual([{ currency: 'USD', amount: 9_000 }]);
    expect(v.stages.posted.totals).toEqual([{ currency: 'USD', amount: 8_000 }]);
    expect(v.stages.collected.status).toBe('observed');
    expect(v.stages.collected.totals).toEqual([
      { currency: 'EUR', amount: 'pending', tied_to_correction: 'pending', not_tied: 'pending' },
      { currency: 'USD', amount: 6_000, tied_to_correction: 5_000, not_tied: 1_000 },
    ]);
    expect(v.counted_cases).toBe(2);
    // Viewers read; people outside the project do not see it.
    expect((await h.call('GET', `/v1/projects/${p.id}/case-value`, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-305 holds no single recovered-revenue total: stages are never added together', async () => {
    const p = await h.team();
    const a = await open(p.id, 'Invoice 77');
    await moveTo(p.id, a.id, 'accepted', 'in_progress');
    await amount(p.id, a.id, 'identified', 1_000);
    await amount(p.id, a.id, 'approved', 1_000);
    await amount(p.id, a.id, 'posted', 1_000);
    await amount(p.id, a.id, 'collected', 1_000, 'USD', true);
    const v = await report(p.id);
    expect(Object.keys(v).sort()).toEqual(
      ['counted_cases', 'dismissed', 'duplicates', 'expected_value', 'project_id', 'stages'].sort(),
    );
    const text = JSON.stringify(v);
    expect(text).not.toMatch(/recovered|revenue|grand_total|"total"/);
    // No number anywhere in the report is the sum across stages.
    const numbers = text.match(/\d+/g)?.map(Number) ?? [];
    expect(numbers).not.toContain(4_000);
    expect(numbers).not.toContain(3_000);
  });

  it('16 WS-306 expected value, recurring projection included, is reported apart and in no stage total', async () => {
    const p = await h.team();
    const a = await open(p.id, 'Lease 9', {
      expected_value: { currency: 'USD', one_off: 50_000, recurring_monthly: 2_000, recurring_months: 12 },
    });
    await amount(p.id, a.id, 'identified', 30_000);
    const b = await open(p.id, 'Lease 10', { expected_value: { currency: 'USD', one_off: 10_000 } });
    await amount(p.id, b.id, 'identified', 5_000);
    const v = await report(p.id);
    expect(v.expected_value.totals).toEqual([
      { currency: 'USD', one_off: 60_000, recurring_projection: 24_000, expected: 84_000 },
    ]);
    expect(total(v, 'identified')).toBe(35_000);
    for (const stage of ['approved', 'posted'] as const) expect(v.stages[stage].totals).toEqual([]);
    expect(v.stages.collected.totals.map((t) => t.amount)).toEqual(['pending']);
  });

  it('16 WS-307 two cases naming the same subject count once in the money', async () => {
    const p = await h.team();
    const first = await open(p.id, 'Tenant Acme, unit 4', {
      expected_value: { currency: 'USD', one_off: 9_000 },
    });
    await amount(p.id, first.id, 'identified', 9_000);
    // The same subject, written with other case and spacing.
    const again = await open(p.id, '  tenant ACME,   unit 4 ', {
      expected_value: { currency: 'USD', one_off: 9_000 },
    });
    await amount(p.id, again.id, 'identified', 9_000);
    const other = await open(p.id, 'Tenant Beta');
    await amount(p.id, other.id, 'identified', 1_000);
    const v = await report(p.id);
    expect(total(v, 'identified')).toBe(10_000);
    expect(v.expected_value.totals[0]?.one_off).toBe(9_000);
    expect(v.counted_cases).toBe(2);
  });

  it('16 WS-308 the report names the case left out as a duplicate, and the one counted instead', async () => {
    const p = await h.team();
    const first = await open(p.id, 'Meter 5521');
    const second = await open(p.id, 'meter 5521');
    const third = await open(p.id, 'METER 5521');
    await amount(p.id, second.id, 'identified', 400);
    const v = await report(p.id);
    expect(v.duplicates).toEqual([
      { case_id: second.id, title: second.title, subject: 'meter 5521', counted_case_id: first.id },
      { case_id: third.id, title: third.title, subject: 'METER 5521', counted_case_id: first.id },
    ]);
    // The left-out case's amounts are not in the money.
    expect(v.stages.identified.totals).toEqual([]);
    // Once the first is dismissed, the next case on the subject counts.
    await moveTo(p.id, first.id, 'dismissed');
    const after = await report(p.id);
    expect(after.duplicates.map((d) => [d.case_id, d.counted_case_id])).toEqual([[third.id, second.id]]);
    expect(total(after, 'identified')).toBe(400);
  });

  it('16 WS-309 a dismissed case contributes its reason and none of its amounts', async () => {
    const p = await h.team();
    const kept = await open(p.id, 'Lease 30');
    await amount(p.id, kept.id, 'identified', 1_500);
    const gone = await open(p.id, 'Lease 31', { expected_value: { currency: 'USD', one_off: 99_000 } });
    await moveTo(p.id, gone.id, 'accepted', 'in_progress');
    await amount(p.id, gone.id, 'identified', 20_000);
    await amount(p.id, gone.id, 'approved', 20_000);
    await amount(p.id, gone.id, 'posted', 20_000);
    await amount(p.id, gone.id, 'collected', 20_000, 'USD', true);
    await moveTo(p.id, gone.id, 'dismissed');
    const v = await report(p.id);
    expect(v.dismissed).toEqual([
      { case_id: gone.id, title: gone.title, reason: `Dismissed: ${gone.id.slice(-6)} was a billing test` },
    ]);
    expect(v.stages.identified.totals).toEqual([{ currency: 'USD', amount: 1_500 }]);
    expect(v.stages.approved.totals).toEqual([]);
    expect(v.stages.posted.totals).toEqual([]);
    expect(v.stages.collected.status).toBe('pending');
    expect(v.expected_value.totals).toEqual([]);
    expect(JSON.stringify(v.stages)).not.toContain('20000');
    expect(v.counted_cases).toBe(1);
  });

  it('16 WS-310 collection nobody observed reads pending, not zero; an observed zero reads 0', async () => {
    const empty = await h.team();
    const none = await report(empty.id);
    expect(none.stages.collected).toEqual({ status: 'pending', totals: [] });

    const p = await h.team();
    const a = await open(p.id, 'Lease 40');
    await moveTo(p.id, a.id, 'accepted', 'in_progress');
    await amount(p.id, a.id, 'posted', 3_000);
    const pending = await report(p.id);
    expect(pending.stages.collected).toEqual({
      status: 'pending',
      totals: [{ currency: 'USD', amount: 'pending', tied_to_correction: 'pending', not_tied: 'pending' }],
    });
    expect(JSON.stringify(pending.stages.collected)).not.toMatch(/:0\b/);

    await amount(p.id, a.id, 'collected', 0, 'USD', false);
    const observed = await report(p.id);
    expect(observed.stages.collected).toEqual({
      status: 'observed',
      totals: [{ currency: 'USD', amount: 0, tied_to_correction: 0, not_tied: 0 }],
    });
  });
});
