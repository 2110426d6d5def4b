import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTANT, BILLING, CONTROLLER, type Harness, harness, PAYMENTS, SENIOR, SUPERADMIN } from './harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Ledger = Awaited<ReturnType<Harness['ledger']>>;

/** A creation body for the ledger's entity, with the given lines. */
const body = (l: Ledger, lines: unknown[], extra: Record<string, unknown> = {}) => ({
  data: { legal_entity_id: l.entity.id, description: 'Rent received', transaction_date: '2025-06-10', lines, ...extra },
});

const read = async (id: string) => {
  const r = await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data;
};

describe('journal entries: identity, entity and source', () => {
  it('ACC-023 a journal entry id is a UUID string', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    expect(typeof d.id).toBe('string');
    expect(d.id).toMatch(UUID);
    expect((await read(d.id)).id).toBe(d.id);
  });

  it('ACC-024 an entry names exactly one legal entity, the one it was created for', async () => {
    const a = await h.ledger();
    const b = await h.ledger();
    const da = await h.draft(a);
    const db = await h.draft(b);
    const ra = await read(da.id);
    const rb = await read(db.id);
    expect(ra.legal_entity_id).toBe(a.entity.id);
    expect(rb.legal_entity_id).toBe(b.entity.id);
    expect(typeof ra.legal_entity_id).toBe('string');
    const list = await h.call('GET', `/v1/journal-entries?legal_entity_id=${a.entity.id}`, CONTROLLER);
    expect(list.status).toBe(200);
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([da.id]);
  });

  it('ACC-025 an entry created by a person has source manual', async () => {
    const l = await h.ledger();
    for (const as of [ACCOUNTANT, SENIOR, CONTROLLER, SUPERADMIN]) {
      const d = await h.draft(l, { as });
      expect(d).toMatchObject({ source: 'manual' });
      expect((await read(d.id)).source).toBe('manual');
    }
  });

  it('ACC-026 an entry created by a service (billing, payments) has source generated', async () => {
    const l = await h.ledger();
    for (const as of [BILLING, PAYMENTS]) {
      const d = await h.draft(l, { as });
      expect(d).toMatchObject({ source: 'generated' });
      expect((await read(d.id)).source).toBe('generated');
    }
  });
});

describe('journal entries: payment_id', () => {
  it('ACC-028 creation succeeds both with and without data.payment_id', async () => {
    const l = await h.ledger();
    const without = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, h.lines(l.cash.id, l.revenue.id)));
    expect(without.status).toBe(201);
    expect(without.data.payment_id).toBeNull();
    const paymentId = randomUUID();
    const withId = await h.call(
      'POST',
      '/v1/journal-entries',
      PAYMENTS,
      body(l, h.lines(l.cash.id, l.revenue.id), { payment_id: paymentId }),
    );
    expect(withId.status).toBe(201);
    expect(withId.data.payment_id).toBe(paymentId);
  });

  it('ACC-029 a payment_id given on creation is retained in the entry', async () => {
    const l = await h.ledger();
    const paymentId = randomUUID();
    const d = await h.draft(l, { payment_id: paymentId, as: PAYMENTS });
    expect((await read(d.id)).payment_id).toBe(paymentId);
    const p = await h.posted(l, { payment_id: paymentId, as: PAYMENTS });
    expect((await read(p.id)).payment_id).toBe(paymentId);
    const list = await h.call('GET', `/v1/journal-entries?payment_id=${paymentId}`, CONTROLLER);
    expect(list.status).toBe(200);
    expect(list.data.map((e: { id: string }) => e.id).sort()).toEqual([d.id, p.id].sort());
    for (const e of list.data) expect(e.payment_id).toBe(paymentId);
  });
});

describe('journal entries: who sets payment_id', () => {
  it('14.7 ACC-028 ACC-029 only the Payments service sets payment_id: any other caller gets 403 payment_id_not_allowed and nothing is written', async () => {
    const l = await h.ledger();
    const paymentId = randomUUID();
    const withPayment = body(l, h.lines(l.cash.id, l.revenue.id), { payment_id: paymentId });
    // A payment_id makes the entry uneditable and deletable only by Payments, so setting it is
    // Payments' alone, as invoice and charge references are billing's.
    for (const as of [ACCOUNTANT, SENIOR, CONTROLLER, SUPERADMIN, BILLING]) {
      const state = await h.state();
      const r = await h.call('POST', '/v1/journal-entries', as, withPayment);
      expect(r.status, as).toBe(403);
      expect(r.errors[0]).toMatchObject({ code: 'payment_id_not_allowed', field: 'data/payment_id' });
      expect(await h.state()).toEqual(state);
    }
    const ok = await h.call('POST', '/v1/journal-entries', PAYMENTS, withPayment);
    expect(ok.status).toBe(201);
    expect(ok.data).toMatchObject({ payment_id: paymentId, source: 'generated' });
    // Without payment_id every caller creates entries as before.
    const plain = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, h.lines(l.cash.id, l.revenue.id)));
    expect(plain.status).toBe(201);
    expect(plain.data.payment_id).toBeNull();
  });
});

describe('journal entries: lines', () => {
  it('ACC-030 a line on an account with is_postable false is refused and nothing is written', async () => {
    const l = await h.ledger();
    const header = await h.account({ chart_code: l.chart, code: '1900', is_postable: false, name: 'Header' });
    const before = await h.state();
    const r = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, h.lines(header.id, l.revenue.id)));
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('account_not_postable');
    expect(r.errors[0].field).toMatch(/lines\/0\/account_id/);
    const r2 = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, h.lines(l.cash.id, header.id)));
    expect(r2.status).toBe(422);
    expect(r2.errors[0].code).toBe('account_not_postable');
    expect(await h.state()).toEqual(before);
  });

  it("ACC-031 a line naming an account outside the entity's chart is refused and nothing is written", async () => {
    const l = await h.ledger();
    const other = await h.ledger();
    const before = await h.state();
    const r = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, h.lines(l.cash.id, other.revenue.id)));
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('account_not_in_chart');
    expect(r.errors[0].field).toMatch(/lines\/1\/account_id/);
    expect(await h.state()).toEqual(before);
  });

  it('ACC-032 a line with a zero or negative amount is refused and nothing is written', async () => {
    const l = await h.ledger();
    const before = await h.state();
    for (const amount of [0, -100]) {
      const lines = [
        { account_id: l.cash.id, direction: 'debit', amount },
        { account_id: l.revenue.id, direction: 'credit', amount },
      ];
      const r = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body(l, lines));
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('validation_failed');
      expect(r.errors.some((e: { field?: string }) => /lines\/0\/amount/.test(e.field ?? ''))).toBe(true);
    }
    expect(await h.state()).toEqual(before);
  });

  it('ACC-033 lines may carry property, unit, lease and billing account; they are accepted and returned', async () => {
    const l = await h.ledger();
    const dims = {
      property_id: randomUUID(),
      unit_id: randomUUID(),
      lease_id: randomUUID(),
      billing_account_id: randomUUID(),
    };
    const r = await h.call(
      'POST',
      '/v1/journal-entries',
      ACCOUNTANT,
      body(l, h.lines(l.cash.id, l.revenue.id, 500, dims)),
    );
    expect(r.status).toBe(201);
    for (const line of r.data.lines) expect(line).toMatchObject(dims);
    const back = await read(r.data.id);
    expect(back.lines).toHaveLength(2);
    for (const line of back.lines) expect(line).toMatchObject({ ...dims, amount: 500 });
  });

  it('ACC-034 an entry made by billing may carry invoice and charge references on its lines', async () => {
    const l = await h.ledger();
    const invoiceId = randomUUID();
    const chargeId = randomUUID();
    const lines = [
      { account_id: l.cash.id, direction: 'debit', amount: 700, invoice_id: invoiceId },
      { account_id: l.revenue.id, direction: 'credit', amount: 700, charge_id: chargeId },
    ];
    const r = await h.call('POST', '/v1/journal-entries', BILLING, body(l, lines));
    expect(r.status).toBe(201);
    const back = await read(r.data.id);
    expect(back.lines[0]).toMatchObject({ invoice_id: invoiceId });
    expect(back.lines[1]).toMatchObject({ charge_id: chargeId });
  });

  it('ACC-035 an invoice or charge reference from any caller other than billing is refused and nothing is written', async () => {
    const l = await h.ledger();
    const before = await h.state();
    for (const as of [ACCOUNTANT, SENIOR, CONTROLLER, SUPERADMIN, PAYMENTS]) {
      for (const ref of ['invoice_id', 'charge_id']) {
        const r = await h.call(
          'POST',
          '/v1/journal-entries',
          as,
          body(l, h.lines(l.cash.id, l.revenue.id, 100, { [ref]: randomUUID() })),
        );
        expect(r.status, `${as} ${ref}`).toBe(422);
        expect(r.errors[0].code).toBe('billing_reference_not_allowed');
        expect(r.errors[0].field).toContain(ref);
      }
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('journal entries: post_month and reversal mark', () => {
  it('ACC-036 post_month is absent on drafts', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    expect(d.status).toBe('draft');
    expect(d).not.toHaveProperty('post_month');
    expect(await read(d.id)).not.toHaveProperty('post_month');
    const list = await h.call('GET', `/v1/journal-entries?legal_entity_id=${l.entity.id}&status=draft`, CONTROLLER);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).not.toHaveProperty('post_month');
  });

  it('ACC-037 post_month of a posted entry is the first day of its posting month (YYYY-MM-01)', async () => {
    const l = await h.ledger();
    const p = await h.posted(l, { transaction_date: '2025-06-10' });
    expect(p.status).toBe('posted');
    expect(p.post_month).toMatch(/^\d{4}-(0[1-9]|1[0-2])-01$/);
    expect(p.post_month).toBe('2025-06-01');
    const future = await h.posted(l, { post_month: '2025-08-01' });
    expect(future.post_month).toBe('2025-08-01');
    expect((await read(future.id)).post_month).toBe('2025-08-01');
    const list = await h.call('GET', `/v1/journal-entries?legal_entity_id=${l.entity.id}&status=posted`, CONTROLLER);
    for (const e of list.data) expect(e.post_month).toMatch(/^\d{4}-\d{2}-01$/);
  });

  it('ACC-038 a reversal entry reads as a reversal; an ordinary entry does not', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const r = await h.call('POST', `/v1/journal-entries/${p.id}/reverse`, CONTROLLER, { data: {} });
    expect(r.status).toBe(201);
    const reversal = await read(r.data.id);
    expect(reversal.is_reversal).toBe(true);
    expect(reversal.reversal_of).toBe(p.id);
    const original = await read(p.id);
    expect(original.is_reversal).toBe(false);
    expect(original.reversal_of).toBeNull();
    const draft = await read((await h.draft(l)).id);
    expect(draft.is_reversal).toBe(false);
    expect(draft.reversal_of).toBeNull();
  });
});
