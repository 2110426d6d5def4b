import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTANT,
  BILLING,
  CONTROLLER,
  type Harness,
  harness,
  PAYMENTS,
  SENIOR,
  STAFF,
  SUPERADMIN,
} from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Ledger = Awaited<ReturnType<Harness['ledger']>>;
type Line = { id: string; account_id: string; direction: string; amount: number; [k: string]: unknown };

const read = async (id: string) => {
  const r = await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data as {
    id: string;
    status: string;
    description: string;
    transaction_date: string;
    legal_entity_id: string;
    lines: Line[];
  } & Record<string, unknown>;
};

/** A valid edit body: a new description, date and three lines (debits equal credits). */
const editBody = (l: Ledger, data: Record<string, unknown> = {}) => ({
  data: {
    description: 'Rent received (corrected)',
    transaction_date: '2025-06-12',
    lines: [
      { account_id: l.cash.id, direction: 'debit', amount: 300 },
      { account_id: l.cash.id, direction: 'debit', amount: 200 },
      { account_id: l.revenue.id, direction: 'credit', amount: 500 },
    ],
    ...data,
  },
});

const edit = (id: string, b: unknown, as = ACCOUNTANT, key?: string | null) =>
  h.call('POST', `/v1/journal-entries/${id}/draft`, as, b, key);

/** The edit is refused with `status`/`code`, and neither the entry nor anything else changed. */
async function expectRefusedUnchanged(id: string, b: unknown, status: number, code: string, as = ACCOUNTANT) {
  const before = await read(id);
  const state = await h.state();
  const r = await edit(id, b, as);
  expect(r.status).toBe(status);
  expect(r.errors[0].code).toBe(code);
  expect(await read(id)).toEqual(before);
  expect(await h.state()).toEqual(state);
  return r;
}

describe('draft edit replaces the draft', () => {
  it('ACC-041 ACC-042 ACC-043 ACC-044 ACC-045 an edit replaces description, date and lines as a whole, with new line ids, and stays a draft', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { transaction_date: '2025-06-10' });
    const before = await read(d.id);
    expect(before.lines).toHaveLength(2);
    const r = await edit(d.id, editBody(l));
    expect(r.status).toBe(200);
    const after = await read(d.id);
    // ACC-041
    expect(after.description).toBe('Rent received (corrected)');
    // ACC-042
    expect(after.transaction_date).toBe('2025-06-12');
    // ACC-043: exactly the submitted lines, in order, none of the previous ones
    expect(after.lines.map(({ account_id, direction, amount }) => ({ account_id, direction, amount }))).toEqual(
      editBody(l).data.lines,
    );
    expect(after.lines.map((x) => x.amount)).not.toContain(1000);
    // ACC-044
    const oldIds = new Set(before.lines.map((x) => x.id));
    for (const line of after.lines) expect(oldIds.has(line.id)).toBe(false);
    expect(new Set(after.lines.map((x) => x.id)).size).toBe(3);
    // ACC-045
    expect(after.status).toBe('draft');
    expect(after).not.toHaveProperty('post_month');
    expect(r.data).toEqual(after);
  });

  it('ACC-046 without an Idempotency-Key the edit is refused and the draft is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const before = await read(d.id);
    const state = await h.state();
    const r = await edit(d.id, editBody(l), ACCOUNTANT, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await read(d.id)).toEqual(before);
    expect(await h.state()).toEqual(state);
  });
});

describe('only manual, unposted, non-reversal drafts not made by a payment, charge or invoice can be edited', () => {
  it('ACC-047 editing a generated draft is 409 and the draft is unchanged', async () => {
    const l = await h.ledger();
    for (const as of [PAYMENTS, BILLING]) {
      const d = await h.draft(l, { as });
      expect(d).toMatchObject({ source: 'generated', status: 'draft' });
      await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable');
      await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable', as);
    }
  });

  it('ACC-048 editing a posted entry is 409 and the entry is unchanged', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    await expectRefusedUnchanged(p.id, editBody(l), 409, 'entry_not_editable');
    await expectRefusedUnchanged(p.id, editBody(l), 409, 'entry_not_editable', CONTROLLER);
  });

  it('ACC-049 editing a reversal is 409 and the reversal is unchanged', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const rev = await h.call('POST', `/v1/journal-entries/${p.id}/reverse`, ACCOUNTANT, { data: {} });
    expect(rev.status).toBe(201);
    expect(rev.data).toMatchObject({ status: 'draft', source: 'manual', is_reversal: true });
    await expectRefusedUnchanged(rev.data.id, editBody(l), 409, 'entry_not_editable');
  });

  it('ACC-050 editing an entry made by a payment is 409 and the entry is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { as: PAYMENTS, payment_id: randomUUID() });
    expect(d).toMatchObject({ source: 'generated', status: 'draft' });
    await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable');
    // Only Payments sets payment_id now (issue 14.7); a manual draft carrying one can only be an
    // older row, and it is refused for the payment_id alone.
    const manual = await h.draft(l);
    await sql`UPDATE journal_entries SET payment_id = ${randomUUID()} WHERE id = ${manual.id}`.execute(h.db);
    const r = await expectRefusedUnchanged(manual.id, editBody(l), 409, 'entry_not_editable');
    expect(r.errors[0].message).toContain('payment');
  });

  it('ACC-051 editing an entry made by a charge is 409 and the entry is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { as: BILLING, lineExtra: { charge_id: randomUUID() } });
    await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable');
    await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable', BILLING);
  });

  it('ACC-052 editing an entry made by an invoice is 409 and the entry is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { as: BILLING, lineExtra: { invoice_id: randomUUID() } });
    await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable');
    await expectRefusedUnchanged(d.id, editBody(l), 409, 'entry_not_editable', BILLING);
  });
});

describe('draft edit line rules', () => {
  it('ACC-053 an edit whose debits differ from its credits succeeds', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const lines = [
      { account_id: l.cash.id, direction: 'debit', amount: 900 },
      { account_id: l.revenue.id, direction: 'credit', amount: 400 },
    ];
    const r = await edit(d.id, editBody(l, { lines }));
    expect(r.status).toBe(200);
    const after = await read(d.id);
    expect(after.lines.map(({ account_id, direction, amount }) => ({ account_id, direction, amount }))).toEqual(lines);
    expect(after.status).toBe('draft');
  });

  it('ACC-054 an edit with a line on a non-postable account is refused and the draft is unchanged', async () => {
    const l = await h.ledger();
    const header = await h.account({ chart_code: l.chart, code: '1900', is_postable: false, name: 'Header' });
    const d = await h.draft(l);
    const r = await expectRefusedUnchanged(
      d.id,
      editBody(l, { lines: h.lines(header.id, l.revenue.id) }),
      422,
      'account_not_postable',
    );
    expect(r.errors[0].field).toMatch(/lines\/0\/account_id/);
  });

  it("ACC-055 an edit with a line on an account outside the entity's chart is refused and the draft is unchanged", async () => {
    const l = await h.ledger();
    const other = await h.ledger();
    const d = await h.draft(l);
    const r = await expectRefusedUnchanged(
      d.id,
      editBody(l, { lines: h.lines(l.cash.id, other.revenue.id) }),
      422,
      'account_not_in_chart',
    );
    expect(r.errors[0].field).toMatch(/lines\/1\/account_id/);
  });

  it('ACC-056 an edit with a zero or negative amount is refused and the draft is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    for (const amount of [0, -5]) {
      const lines = [
        { account_id: l.cash.id, direction: 'debit', amount: 100 },
        { account_id: l.revenue.id, direction: 'credit', amount },
      ];
      const r = await expectRefusedUnchanged(d.id, editBody(l, { lines }), 422, 'validation_failed');
      expect(r.errors.some((e: { field?: string }) => /lines\/1\/amount/.test(e.field ?? ''))).toBe(true);
    }
  });

  it('ACC-057 an edited line may keep property, unit, lease and billing account and the read returns them', async () => {
    const l = await h.ledger();
    const dims = {
      property_id: randomUUID(),
      unit_id: randomUUID(),
      lease_id: randomUUID(),
      billing_account_id: randomUUID(),
    };
    const d = await h.draft(l, { lineExtra: dims });
    const newDims = {
      property_id: dims.property_id,
      unit_id: randomUUID(),
      lease_id: dims.lease_id,
      billing_account_id: randomUUID(),
    };
    const r = await edit(d.id, editBody(l, { lines: h.lines(l.cash.id, l.revenue.id, 250, newDims) }));
    expect(r.status).toBe(200);
    const after = await read(d.id);
    expect(after.lines).toHaveLength(2);
    for (const line of after.lines) expect(line).toMatchObject({ ...newDims, amount: 250 });
  });

  it('ACC-058 an edited line cannot carry an invoice or charge; the edit is refused and the draft is unchanged', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    for (const ref of ['invoice_id', 'charge_id']) {
      for (const as of [ACCOUNTANT, CONTROLLER, BILLING]) {
        const r = await expectRefusedUnchanged(
          d.id,
          editBody(l, { lines: h.lines(l.cash.id, l.revenue.id, 100, { [ref]: randomUUID() }) }),
          422,
          'billing_reference_not_allowed',
          as,
        );
        expect(r.errors[0].field).toContain(ref);
      }
    }
  });

  it('ACC-059 an edit naming another legal entity is refused and the entry keeps its legal entity', async () => {
    const l = await h.ledger();
    const other = await h.ledger();
    const d = await h.draft(l);
    const r = await expectRefusedUnchanged(
      d.id,
      editBody(l, { legal_entity_id: other.entity.id }),
      422,
      'legal_entity_immutable',
    );
    expect(r.errors[0].field).toMatch(/legal_entity_id/);
    expect((await read(d.id)).legal_entity_id).toBe(l.entity.id);
    // Naming its own entity is no change and is accepted.
    const ok = await edit(d.id, editBody(l, { legal_entity_id: l.entity.id }));
    expect(ok.status).toBe(200);
    expect((await read(d.id)).legal_entity_id).toBe(l.entity.id);
  });

  it('ACC-060 every person allowed to create journal entries may edit a draft', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { as: ACCOUNTANT });
    for (const as of [ACCOUNTANT, SENIOR, CONTROLLER, SUPERADMIN]) {
      const created = await h.call('POST', '/v1/journal-entries', as, {
        data: {
          legal_entity_id: l.entity.id,
          description: 'x',
          transaction_date: '2025-06-01',
          lines: h.lines(l.cash.id, l.revenue.id),
        },
      });
      expect(created.status, `${as} creates`).toBe(201);
      const r = await edit(d.id, editBody(l, { description: `edited by ${as}` }), as);
      expect(r.status, `${as} edits`).toBe(200);
      expect((await read(d.id)).description).toBe(`edited by ${as}`);
    }
    // A person who may not create may not edit either.
    const state = await h.state();
    const refused = await edit(d.id, editBody(l, { description: 'staff' }), STAFF);
    expect(refused.status).toBe(403);
    expect(await h.state()).toEqual(state);
  });
});

describe('journal_entry.draft_updated', () => {
  it('ACC-231 ACC-232 each successful draft edit emits one journal_entry.draft_updated with the full content after the edit', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const ofEntry = async () =>
      (await h.events('journal_entry.draft_updated')).filter(
        (e) => (e.payload.data.entry as { id: string }).id === d.id,
      );
    expect(await ofEntry()).toHaveLength(0);

    const first = editBody(l);
    expect((await edit(d.id, first)).status).toBe(200);
    const afterFirst = await read(d.id);
    let events = await ofEntry();
    expect(events).toHaveLength(1);
    expect(events[0].restricted).toBe(false);
    const e1 = events[0].payload.data.entry as typeof afterFirst;
    expect(e1.description).toBe(first.data.description);
    expect(e1.transaction_date).toBe(first.data.transaction_date);
    expect(e1.lines).toEqual(afterFirst.lines);
    expect(e1).toEqual(afterFirst);

    // A refused edit emits nothing.
    expect((await edit(d.id, editBody(l, { lines: h.lines(l.cash.id, l.revenue.id, 0) }))).status).toBe(422);
    expect(await ofEntry()).toHaveLength(1);

    const second = editBody(l, {
      description: 'Second edit',
      transaction_date: '2025-06-14',
      lines: h.lines(l.cash.id, l.revenue.id, 42, { property_id: randomUUID() }),
    });
    const key = randomUUID();
    expect((await edit(d.id, second, ACCOUNTANT, key)).status).toBe(200);
    // A replay is not another edit.
    const replay = await edit(d.id, second, ACCOUNTANT, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const afterSecond = await read(d.id);
    events = await ofEntry();
    expect(events).toHaveLength(2);
    const e2 = events[1].payload.data.entry as typeof afterSecond;
    expect(e2).toEqual(afterSecond);
    expect(e2.description).toBe('Second edit');
    expect(e2.transaction_date).toBe('2025-06-14');
    expect(e2.lines).toHaveLength(2);
    expect(e2.lines.map((x) => x.amount)).toEqual([42, 42]);
  });
});
