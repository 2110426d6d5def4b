import { randomUUID } from 'node:crypto';
import { rowCounts } from '@platform/kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUSES } from '../src/domain/cases.ts';
import type { Case, CaseAmount } from '../src/schemas/cases.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const casesUrl = (projectId: string) => `/v1/projects/${projectId}/cases`;
const caseUrl = (projectId: string, caseId: string, suffix = '') => `${casesUrl(projectId)}/${caseId}${suffix}`;

const CASE_DATA = {
  title: 'Rent escalation not billed',
  subject: 'Lease 12-B',
  evidence: ['Lease clause 4.2 (3% yearly)', 'https://files.example/ledger-2024.pdf'],
  proposed_correction: 'Bill the 2024 escalation and correct the recurring charge',
  still_to_check: 'Whether the tenant was given notice',
};

/** Each case opens a minute after the one before, so newest-first lists have one order. */
let openedAt = Date.parse('2025-06-16T15:00:00Z');
/** Opens a case as `as` (EDITOR by default). */
async function open(projectId: string, data: Record<string, unknown> = {}, as = EDITOR): Promise<Case> {
  openedAt += 60_000;
  h.setNow(new Date(openedAt).toISOString());
  const r = await h.call('POST', casesUrl(projectId), as, { data: { ...CASE_DATA, ...data } });
  h.expectStatus('open case', r, 201);
  return r.data as Case;
}
const read = async (projectId: string, caseId: string): Promise<Case> => {
  const r = await h.call('GET', caseUrl(projectId, caseId), VIEWER);
  h.expectStatus('read case', r, 200);
  return r.data as Case;
};
const transition = (projectId: string, caseId: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('POST', caseUrl(projectId, caseId, '/transition'), as, { data });
/** Moves a case along the given states, each move expected to succeed. */
async function moveTo(projectId: string, caseId: string, ...steps: string[]) {
  for (const status of steps) {
    const data: Record<string, unknown> = { status };
    if (status === 'dismissed') data.reason = 'Not a real finding';
    if (status === 'verified') data.method = 'Matched the posted invoice to the ledger';
    h.expectStatus(`move to ${status}`, await transition(projectId, caseId, data), 200);
  }
}
const addAmount = (projectId: string, caseId: string, data: Record<string, unknown>, key?: string) =>
  h.call('POST', caseUrl(projectId, caseId, '/amounts'), EDITOR, { data }, key ?? randomUUID());

/** What a refused case write must leave alone: the case and amount rows, the outbox, the idempotency records. */
const counts = () => rowCounts(h.db, ['cases', 'case_amounts', 'outbox', 'idempotency_keys']);
const caseEvents = async (caseId: string) =>
  (await h.events()).filter((e) => e.event_type.startsWith('project.case_') && e.payload.data.caseId === caseId);

describe('opening, listing and reading cases', () => {
  it('16 WS-288 an editor opens a case (201) and GET .../cases lists it (200, paged); viewers read', async () => {
    const p = await h.team();
    const a = await open(p.id);
    const b = await open(p.id, { subject: 'Lease 7-A' });
    const list = await h.call('GET', casesUrl(p.id), VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((c: Case) => c.id)).toEqual([b.id, a.id]);
    expect(list.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50, totalItems: 2, totalPages: 1 });
    const paged = await h.call('GET', `${casesUrl(p.id)}?pagination[pageSize]=1&pagination[page]=2`, VIEWER);
    expect(paged.data.map((c: Case) => c.id)).toEqual([a.id]);
    expect((await h.call('GET', `${casesUrl(p.id)}?pagination[pageSize]=201`, VIEWER)).status).toBe(422);
    expect((await h.call('GET', casesUrl(p.id), OUTSIDER)).status).toBe(404);
  });

  it('16 WS-289 GET .../cases/{caseId} reads one case (200); a case of another project is 404 case_not_found', async () => {
    const p = await h.team();
    const other = await h.team();
    const c = await open(p.id);
    const r = await h.call('GET', caseUrl(p.id, c.id), VIEWER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual(c);
    const elsewhere = await h.call('GET', caseUrl(other.id, c.id), OWNER);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.errors[0].code).toBe('case_not_found');
    expect((await h.call('GET', caseUrl(p.id, c.id), OUTSIDER)).status).toBe(404);
  });

  it('16 WS-290 a case has exactly one owner: the caller by default, or one named member; a non-member is refused', async () => {
    const p = await h.team();
    const mine = await open(p.id);
    expect(mine.owner).toBe(fid(EDITOR));
    const theirs = await open(p.id, { owner: fid(VIEWER) });
    expect(theirs.owner).toBe(fid(VIEWER));
    expect(typeof (await read(p.id, theirs.id)).owner).toBe('string');

    const before = await counts();
    const outsider = await h.call('POST', casesUrl(p.id), EDITOR, { data: { ...CASE_DATA, owner: fid(OUTSIDER) } });
    expect(outsider.status).toBe(422);
    expect(outsider.errors[0].code).toBe('case_owner_not_member');
    const two = await h.call('POST', casesUrl(p.id), EDITOR, {
      data: { ...CASE_DATA, owner: [fid(EDITOR), fid(VIEWER)] },
    });
    expect(two.status).toBe(422);
    expect(await counts()).toEqual(before);

    // A new owner replaces the old one.
    const moved = await h.call('PATCH', caseUrl(p.id, mine.id), EDITOR, { data: { owner: fid(OWNER) } });
    expect(moved.status).toBe(200);
    expect((await read(p.id, mine.id)).owner).toBe(fid(OWNER));
    const refused = await h.call('PATCH', caseUrl(p.id, mine.id), EDITOR, { data: { owner: fid(OUTSIDER) } });
    expect(refused.status).toBe(422);
    expect(refused.errors[0].code).toBe('case_owner_not_member');
    expect((await read(p.id, mine.id)).owner).toBe(fid(OWNER));
  });

  it('16 WS-291 a case holds evidence, a proposed correction, what still needs checking and a status', async () => {
    const p = await h.team();
    const c = await open(p.id, {
      title: '  Rent escalation not billed  ',
      evidence: ['  Lease clause 4.2  ', 'https://files.example/ledger.pdf'],
    });
    const r = await read(p.id, c.id);
    expect(r).toMatchObject({
      title: 'Rent escalation not billed',
      subject: 'Lease 12-B',
      evidence: ['Lease clause 4.2', 'https://files.example/ledger.pdf'],
      proposed_correction: CASE_DATA.proposed_correction,
      still_to_check: CASE_DATA.still_to_check,
      status: 'needs_validation',
      dismissal_reason: null,
      verification_method: null,
      expected_value: null,
      created_by: fid(EDITOR),
    });
    // Optional parts read empty, never absent.
    const bare = await open(p.id, { evidence: undefined, still_to_check: undefined });
    expect(bare).toMatchObject({ evidence: [], still_to_check: '' });
    for (const key of ['evidence', 'proposed_correction', 'still_to_check', 'status']) expect(bare).toHaveProperty(key);

    const before = await counts();
    for (const data of [
      { ...CASE_DATA, proposed_correction: '   ' },
      { ...CASE_DATA, title: '' },
      { ...CASE_DATA, subject: 'x'.repeat(201) },
      { ...CASE_DATA, evidence: [' '] },
    ]) {
      const r = await h.call('POST', casesUrl(p.id), EDITOR, { data });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('invalid_case_field');
    }
    const { proposed_correction: _, ...noCorrection } = CASE_DATA;
    expect((await h.call('POST', casesUrl(p.id), EDITOR, { data: noCorrection })).status).toBe(422);
    expect((await h.call('POST', casesUrl(p.id), EDITOR, { data: { ...CASE_DATA, status: 'accepted' } })).status).toBe(
      422,
    );
    expect(await counts()).toEqual(before);
  });

  it('16 WS-292 a new case starts in needs_validation, waiting for a decision', async () => {
    const p = await h.team();
    const c = await open(p.id);
    expect(c.status).toBe('needs_validation');
    expect(c.next_step).toBe('decision');
    expect((await read(p.id, c.id)).status).toBe('needs_validation');
  });

  it('16 WS-293 a case only ever reads one of the five states (the database refuses any other)', async () => {
    const p = await h.team();
    const seen = new Set<string>();
    const a = await open(p.id);
    seen.add((await read(p.id, a.id)).status);
    for (const s of ['accepted', 'in_progress', 'verified']) {
      await moveTo(p.id, a.id, s);
      seen.add((await read(p.id, a.id)).status);
    }
    const b = await open(p.id);
    await moveTo(p.id, b.id, 'dismissed');
    seen.add((await read(p.id, b.id)).status);
    expect([...seen].sort()).toEqual([...CASE_STATUSES].sort());
    const list = await h.call('GET', casesUrl(p.id), VIEWER);
    for (const c of list.data as Case[]) expect(CASE_STATUSES).toContain(c.status);
    await expect(sql`UPDATE cases SET status = 'closed' WHERE id = ${a.id}`.execute(h.db)).rejects.toThrow();
    const bad = await transition(p.id, b.id, { status: 'closed' });
    expect(bad.status).toBe(422);
  });
});

describe('moving a case', () => {
  it('16 WS-294 POST .../transition moves a case; the case reads the new state', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const steps: [string, string | null][] = [
      ['accepted', 'work'],
      ['in_progress', 'check'],
    ];
    for (const [status, next] of steps) {
      const r = await transition(p.id, c.id, { status });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ status, next_step: next });
      expect((await read(p.id, c.id)).status).toBe(status);
    }
    h.setNow('2025-06-20T10:00:00Z');
    const done = await transition(p.id, c.id, { status: 'verified', method: '  Invoice matched to the ledger ' });
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({
      status: 'verified',
      next_step: null,
      verification_method: 'Invoice matched to the ledger',
      status_changed_at: '2025-06-20T10:00:00.000Z',
    });
    expect(await read(p.id, c.id)).toEqual(done.data);
  });

  it('16 WS-294 moves outside the allowed ones are 409 case_move_not_allowed and change nothing', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const before = await counts();
    for (const status of ['in_progress', 'verified', 'needs_validation']) {
      const r = await transition(p.id, c.id, status === 'verified' ? { status, method: 'Checked' } : { status });
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('case_move_not_allowed');
    }
    expect(await counts()).toEqual(before);
    await moveTo(p.id, c.id, 'accepted', 'in_progress', 'verified');
    const after = await read(p.id, c.id);
    for (const data of [{ status: 'dismissed', reason: 'Too late' }, { status: 'accepted' }]) {
      const r = await transition(p.id, c.id, data);
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('case_move_not_allowed');
    }
    expect(await read(p.id, c.id)).toEqual(after);
  });

  it('16 WS-295 dismissal needs a reason: refused without one (or with a blank one); state unchanged', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted');
    const before = { counts: await counts(), c: await read(p.id, c.id) };
    for (const data of [{ status: 'dismissed' }, { status: 'dismissed', reason: '   ' }]) {
      const r = await transition(p.id, c.id, data);
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'dismissal_reason_required', field: 'data/reason' });
    }
    // A reason belongs to a dismissal only.
    const misplaced = await transition(p.id, c.id, { status: 'in_progress', reason: 'Because' });
    expect(misplaced.status).toBe(422);
    expect(misplaced.errors[0].code).toBe('transition_detail_not_allowed');
    expect({ counts: await counts(), c: await read(p.id, c.id) }).toEqual(before);

    const ok = await transition(p.id, c.id, { status: 'dismissed', reason: 'Escalation was waived in writing' });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ status: 'dismissed', dismissal_reason: 'Escalation was waived in writing' });
  });

  it('16 WS-296 verification needs a method: refused without one; state unchanged', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted', 'in_progress');
    const before = { counts: await counts(), c: await read(p.id, c.id) };
    for (const data of [{ status: 'verified' }, { status: 'verified', method: '' }]) {
      const r = await transition(p.id, c.id, data);
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'verification_method_required', field: 'data/method' });
    }
    const misplaced = await transition(p.id, c.id, { status: 'dismissed', reason: 'x', method: 'y' });
    expect(misplaced.status).toBe(422);
    expect(misplaced.errors[0].code).toBe('transition_detail_not_allowed');
    expect({ counts: await counts(), c: await read(p.id, c.id) }).toEqual(before);
    expect((await read(p.id, c.id)).status).toBe('in_progress');
  });
});

describe('editing a case', () => {
  it('16 WS-297 a verified case is not edited afterward: 409 case_closed; case unchanged', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted', 'in_progress', 'verified');
    const before = { counts: await counts(), c: await read(p.id, c.id) };
    for (const data of [{ title: 'New title' }, { still_to_check: '' }, { evidence: [] }, { owner: fid(OWNER) }]) {
      const r = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, { data });
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('case_closed');
    }
    expect({ counts: await counts(), c: await read(p.id, c.id) }).toEqual(before);
  });

  it('16 WS-298 a dismissed case is not edited afterward: 409 case_closed; case unchanged', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'dismissed');
    const before = { counts: await counts(), c: await read(p.id, c.id) };
    const r = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, { data: { proposed_correction: 'Try again' } });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('case_closed');
    // Nor does it take amounts.
    const amount = await addAmount(p.id, c.id, { stage: 'identified', amount: 100, currency: 'USD' });
    expect(amount.status).toBe(409);
    expect(amount.errors[0].code).toBe('amount_stage_not_allowed');
    expect({ counts: await counts(), c: await read(p.id, c.id) }).toEqual(before);
  });

  it('16 an edit changes only the fields sent, in any open state; the status changes only by transition', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted', 'in_progress');
    const r = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, {
      data: {
        still_to_check: '',
        evidence: ['Signed notice'],
        expected_value: { currency: 'USD', one_off: 120_000, recurring_monthly: 10_000, recurring_months: 12 },
      },
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      title: CASE_DATA.title,
      status: 'in_progress',
      still_to_check: '',
      evidence: ['Signed notice'],
      expected_value: { currency: 'USD', one_off: 120_000, recurring_monthly: 10_000, recurring_months: 12 },
    });
    const cleared = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, { data: { expected_value: null } });
    expect(cleared.data.expected_value).toBeNull();
    const status = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, { data: { status: 'verified' } });
    expect(status.status).toBe(422);
    const recurring = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, {
      data: { expected_value: { currency: 'USD', recurring_monthly: 500 } },
    });
    expect(recurring.status).toBe(422);
    expect(recurring.errors[0].code).toBe('invalid_expected_value');
    expect((await read(p.id, c.id)).status).toBe('in_progress');
  });
});

describe('amounts', () => {
  it('16 WS-299 POST .../amounts writes a row with its stage and an integer amount in minor units of its currency', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const r = await addAmount(p.id, c.id, { stage: 'identified', amount: 1_234_56, currency: 'USD' });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      case_id: c.id,
      project_id: p.id,
      stage: 'identified',
      amount: 123_456,
      currency: 'USD',
      tied_to_correction: null,
      recorded_by: fid(EDITOR),
    });
    expect(Number.isInteger(r.data.amount)).toBe(true);
    // A second later, so the list's order (oldest first) is the recording order: rows of one
    // instant of the standing test clock have no order of their own.
    h.setNow(new Date(h.now().getTime() + 1_000).toISOString());
    const second = await addAmount(p.id, c.id, { stage: 'identified', amount: 5_000, currency: 'EUR' });
    expect(second.status).toBe(201);
    const list = await h.call('GET', caseUrl(p.id, c.id, '/amounts'), VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((a: CaseAmount) => [a.stage, a.amount, a.currency])).toEqual([
      ['identified', 123_456, 'USD'],
      ['identified', 5_000, 'EUR'],
    ]);
    expect(list.meta.pagination.totalItems).toBe(2);
    const rows = await sql<{ amount: string }>`SELECT amount FROM case_amounts WHERE case_id = ${c.id}`.execute(h.db);
    expect(rows.rows).toHaveLength(2);
  });

  it('16 WS-299 bad input (unknown stage, non-integer or negative amount, bad currency) is 422 and writes nothing', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted', 'in_progress');
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ stage: 'recovered', amount: 100, currency: 'USD' }, 'validation_failed'],
      [{ stage: 'Identified', amount: 100, currency: 'USD' }, 'validation_failed'],
      [{ stage: 'identified', amount: 12.5, currency: 'USD' }, 'validation_failed'],
      [{ stage: 'identified', amount: '1250', currency: 'USD' }, 'validation_failed'],
      [{ stage: 'identified', amount: -100, currency: 'USD' }, 'validation_failed'],
      [{ stage: 'identified', amount: 2 ** 53, currency: 'USD' }, 'validation_failed'],
      [{ stage: 'identified', amount: 100, currency: 'usd' }, 'validation_failed'],
      [{ stage: 'identified', amount: 100, currency: 'US' }, 'validation_failed'],
      [{ stage: 'identified', amount: 100, currency: 'XQZ' }, 'unknown_currency'],
      [{ stage: 'identified', amount: 100 }, 'validation_failed'],
      [{ stage: 'identified', amount: 100, currency: 'USD', note: 'extra' }, 'validation_failed'],
    ];
    for (const [data, code] of cases) {
      const r = await addAmount(p.id, c.id, data);
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(r.errors[0].code, JSON.stringify(data)).toBe(code);
    }
    expect(await counts()).toEqual(before);
  });

  it('16 WS-299 a retried amount with the same Idempotency-Key writes one row and replays the answer', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const key = randomUUID();
    const data = { stage: 'identified', amount: 9_900, currency: 'USD' };
    const first = await addAmount(p.id, c.id, data, key);
    const again = await addAmount(p.id, c.id, data, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM case_amounts WHERE case_id = ${c.id}`.execute(
      h.db,
    );
    expect(rows.rows[0]?.n).toBe(1);
    expect((await h.events('project.case_amount_recorded')).filter((e) => e.payload.data.caseId === c.id)).toHaveLength(
      1,
    );
    const other = await addAmount(p.id, c.id, { ...data, amount: 1 }, key);
    expect(other.status).toBe(409);
    expect(other.errors[0].code).toBe('idempotency_key_reused');
  });

  it('16 WS-300 an approved amount is refused before the case is accepted (409 amount_stage_not_allowed)', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const before = await counts();
    const r = await addAmount(p.id, c.id, { stage: 'approved', amount: 5_000, currency: 'USD' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('amount_stage_not_allowed');
    expect(await counts()).toEqual(before);
    await moveTo(p.id, c.id, 'accepted');
    expect((await addAmount(p.id, c.id, { stage: 'approved', amount: 5_000, currency: 'USD' })).status).toBe(201);
  });

  it('16 WS-301 a posted amount is refused until work is in progress', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const before = await counts();
    for (const step of [null, 'accepted']) {
      if (step) await moveTo(p.id, c.id, step);
      const r = await addAmount(p.id, c.id, { stage: 'posted', amount: 5_000, currency: 'USD' });
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('amount_stage_not_allowed');
    }
    expect((await counts()).case_amounts).toBe(before.case_amounts);
    await moveTo(p.id, c.id, 'in_progress');
    expect((await addAmount(p.id, c.id, { stage: 'posted', amount: 5_000, currency: 'USD' })).status).toBe(201);
  });

  it('16 WS-302 a collected row says whether it ties to the correction; without the flag it is refused', async () => {
    const p = await h.team();
    const c = await open(p.id);
    await moveTo(p.id, c.id, 'accepted', 'in_progress');
    const tied = await addAmount(p.id, c.id, {
      stage: 'collected',
      amount: 4_000,
      currency: 'USD',
      tied_to_correction: true,
    });
    expect(tied.status).toBe(201);
    expect(tied.data).toMatchObject({ stage: 'collected', tied_to_correction: true });
    await moveTo(p.id, c.id, 'verified');
    // Cash observed after verification is still recorded (a second later: rows of one instant of
    // the standing test clock have no order of their own).
    h.setNow(new Date(h.now().getTime() + 1_000).toISOString());
    const untied = await addAmount(p.id, c.id, {
      stage: 'collected',
      amount: 1_000,
      currency: 'USD',
      tied_to_correction: false,
    });
    expect(untied.status).toBe(201);
    expect(untied.data.tied_to_correction).toBe(false);

    const before = await counts();
    const missing = await addAmount(p.id, c.id, { stage: 'collected', amount: 1, currency: 'USD' });
    expect(missing.status).toBe(422);
    expect(missing.errors[0].code).toBe('tied_to_correction_required');
    const other = await open(p.id);
    const before2 = await counts();
    const wrong = await addAmount(p.id, other.id, {
      stage: 'identified',
      amount: 1,
      currency: 'USD',
      tied_to_correction: true,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.errors[0].code).toBe('tied_to_correction_not_allowed');
    expect((await counts()).case_amounts).toBe(before.case_amounts);
    expect(await counts()).toEqual(before2);
    const list = await h.call('GET', caseUrl(p.id, c.id, '/amounts'), VIEWER);
    expect(list.data.map((a: CaseAmount) => a.tied_to_correction)).toEqual([true, false]);
  });
});

describe('the actionable list', () => {
  it('16 WS-303 actionable=true lists only cases needing a decision, the work or the check', async () => {
    const p = await h.team();
    const nv = await open(p.id, { subject: 'A' });
    const ac = await open(p.id, { subject: 'B' });
    await moveTo(p.id, ac.id, 'accepted');
    const ip = await open(p.id, { subject: 'C' });
    await moveTo(p.id, ip.id, 'accepted', 'in_progress');
    const ve = await open(p.id, { subject: 'D' });
    await moveTo(p.id, ve.id, 'accepted', 'in_progress', 'verified');
    const di = await open(p.id, { subject: 'E' });
    await moveTo(p.id, di.id, 'dismissed');

    const actionable = await h.call('GET', `${casesUrl(p.id)}?actionable=true`, VIEWER);
    expect(actionable.status).toBe(200);
    expect(actionable.data.map((c: Case) => [c.id, c.next_step])).toEqual([
      [ip.id, 'check'],
      [ac.id, 'work'],
      [nv.id, 'decision'],
    ]);
    expect(actionable.meta.pagination.totalItems).toBe(3);
    const rest = await h.call('GET', `${casesUrl(p.id)}?actionable=false`, VIEWER);
    expect(rest.data.map((c: Case) => c.id)).toEqual([di.id, ve.id]);
    const all = await h.call('GET', casesUrl(p.id), VIEWER);
    expect(all.data).toHaveLength(5);
    const accepted = await h.call('GET', `${casesUrl(p.id)}?actionable=true&status=accepted`, VIEWER);
    expect(accepted.data.map((c: Case) => c.id)).toEqual([ac.id]);
    const none = await h.call('GET', `${casesUrl(p.id)}?actionable=true&status=verified`, VIEWER);
    expect(none.data).toEqual([]);
    const byOwner = await h.call('GET', `${casesUrl(p.id)}?owner=${fid(EDITOR)}&actionable=true`, VIEWER);
    expect(byOwner.data).toHaveLength(3);
    expect((await h.call('GET', `${casesUrl(p.id)}?actionable=maybe`, VIEWER)).status).toBe(422);
    expect((await h.call('GET', `${casesUrl(p.id)}?state=open`, VIEWER)).status).toBe(422);
  });
});

describe('who may write cases', () => {
  it('16 viewers read cases but may not open, edit, move them or add amounts (403, nothing written)', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const before = { counts: await counts(), c: await read(p.id, c.id) };
    const writes: [string, string, unknown][] = [
      ['POST', casesUrl(p.id), { data: CASE_DATA }],
      ['PATCH', caseUrl(p.id, c.id), { data: { title: 'Mine now' } }],
      ['POST', caseUrl(p.id, c.id, '/transition'), { data: { status: 'accepted' } }],
      ['POST', caseUrl(p.id, c.id, '/amounts'), { data: { stage: 'identified', amount: 1, currency: 'USD' } }],
    ];
    for (const [method, url, body] of writes) {
      const viewer = await h.call(method as 'POST', url, VIEWER, body);
      expect(viewer.status, `${method} ${url}`).toBe(403);
      const outsider = await h.call(method as 'POST', url, OUTSIDER, body);
      expect(outsider.status, `${method} ${url}`).toBe(404);
    }
    expect({ counts: await counts(), c: await read(p.id, c.id) }).toEqual(before);
    // Owners write as editors do.
    expect((await transition(p.id, c.id, { status: 'accepted' }, OWNER)).status).toBe(200);
  });

  it('16 a case write on an archived project is 409 project_archived and writes nothing', async () => {
    const p = await h.team();
    const c = await open(p.id);
    h.expectStatus(
      'archive',
      await h.call('POST', `/v1/projects/${p.id}/status`, OWNER, { data: { action: 'archive' } }),
      200,
    );
    const before = await counts();
    for (const [method, url, body] of [
      ['POST', casesUrl(p.id), { data: CASE_DATA }],
      ['PATCH', caseUrl(p.id, c.id), { data: { title: 'x' } }],
      ['POST', caseUrl(p.id, c.id, '/transition'), { data: { status: 'accepted' } }],
      ['POST', caseUrl(p.id, c.id, '/amounts'), { data: { stage: 'identified', amount: 1, currency: 'USD' } }],
    ] as const) {
      const r = await h.call(method, url, EDITOR, body);
      expect(r.status).toBe(409);
      expect(r.errors[0].code).toBe('project_archived');
    }
    expect(await counts()).toEqual(before);
    expect((await read(p.id, c.id)).title).toBe(CASE_DATA.title);
  });
});

describe('case events', () => {
  it('16 WS-570 editing an open case publishes one project.case_updated with the changed field names', async () => {
    const p = await h.team();
    const c = await open(p.id);
    const r = await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, {
      data: { title: 'Escalation unbilled since 2024', still_to_check: CASE_DATA.still_to_check },
    });
    expect(r.status).toBe(200);
    const updated = (await caseEvents(c.id)).filter((e) => e.event_type === 'project.case_updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]?.payload.data).toEqual({
      projectId: p.id,
      caseId: c.id,
      changedFields: ['title'],
      actor: fid(EDITOR),
    });
    // No text on the bus.
    expect(JSON.stringify(updated[0]?.payload)).not.toContain('Escalation');
    // A PATCH that changes nothing publishes nothing.
    await h.call('PATCH', caseUrl(p.id, c.id), EDITOR, { data: { title: ' Escalation unbilled since 2024 ' } });
    expect((await caseEvents(c.id)).filter((e) => e.event_type === 'project.case_updated')).toHaveLength(1);
  });

  it('16 WS-571 opening a case and changing its status publish their own events, not project.case_updated', async () => {
    const p = await h.team();
    const c = await open(p.id);
    let events = await caseEvents(c.id);
    expect(events.map((e) => e.event_type)).toEqual(['project.case_opened']);
    expect(events[0]?.payload.data).toEqual({
      projectId: p.id,
      caseId: c.id,
      owner: fid(EDITOR),
      status: 'needs_validation',
      actor: fid(EDITOR),
    });
    await moveTo(p.id, c.id, 'accepted');
    events = await caseEvents(c.id);
    expect(events.map((e) => e.event_type)).toEqual(['project.case_opened', 'project.case_status_changed']);
    expect(events[1]?.payload.data).toEqual({
      projectId: p.id,
      caseId: c.id,
      fromStatus: 'needs_validation',
      toStatus: 'accepted',
      actor: fid(EDITOR),
    });
    await moveTo(p.id, c.id, 'dismissed');
    events = await caseEvents(c.id);
    expect(events.filter((e) => e.event_type === 'project.case_status_changed')).toHaveLength(2);
    expect(events.filter((e) => e.event_type === 'project.case_updated')).toHaveLength(0);
    // The dismissal reason stays off the bus.
    expect(JSON.stringify(events)).not.toContain('Not a real finding');
  });
});
