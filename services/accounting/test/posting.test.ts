import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTANT,
  BILLING,
  CONTROLLER,
  type Harness,
  harness,
  PAYMENTS,
  SENIOR,
  SUPERADMIN,
  SUPERLABEL,
} from './harness.ts';

const NOW = '2025-06-15T12:00:00Z';

let h: Harness;
let shared: Ledger;
beforeAll(async () => {
  // Books start 2025-01-01, clock mid-June: June is Open, January..May are soft-closed unless closed.
  h = await harness({ now: NOW });
  shared = await h.ledger({ books_start_month: '2025-01-01' });
});
afterAll(async () => h.close_());

type Ledger = Awaited<ReturnType<Harness['ledger']>>;

const read = async (id: string) => {
  const r = await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data;
};

const post = (id: string, as: string, month?: string, key?: string | null) =>
  h.call('POST', `/v1/journal-entries/${id}/post${month ? `?post_month=${month}` : ''}`, as, { data: {} }, key);

const current = async (entityId: string) => {
  const r = await h.call('GET', `/v1/period-calendar/current?legal_entity_id=${entityId}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data as { open_month: string; local_date: string; books_start_month: string };
};

/** A draft made by billing for a charge. */
const chargeDraft = (l: Ledger) => h.draft(l, { as: BILLING, lineExtra: { charge_id: randomUUID() } });

/** Posting is refused with `status`/`code`; the entry is still the same draft and nothing was written. */
async function expectPostRefused(id: string, as: string, month: string | undefined, status: number, code: string) {
  const before = await read(id);
  const state = await h.state();
  const r = await post(id, as, month);
  expect(r.status, `${as} ${month}`).toBe(status);
  expect(r.errors[0].code).toBe(code);
  const after = await read(id);
  expect(after).toEqual(before);
  expect(after.status).toBe('draft');
  expect(after).not.toHaveProperty('post_month');
  expect(await h.state()).toEqual(state);
  return r;
}

/** Posting succeeds into `month`, which the read confirms. */
async function expectPosted(id: string, as: string, month: string | undefined, expected: string) {
  const r = await post(id, as, month);
  expect(r.status, `${as} ${month}: ${JSON.stringify(r.errors)}`).toBe(200);
  expect(r.data).toMatchObject({ status: 'posted', post_month: expected });
  expect(await read(id)).toMatchObject({ status: 'posted', post_month: expected });
  return r;
}

// 401, 403, 400 without a key, replay and 409 of the post route: routes.test.ts (issue 15.4).

describe('posting a draft', () => {
  it('ACC-061 posting moves a draft to posted with a post_month', async () => {
    const d = await h.draft(shared);
    expect(d.status).toBe('draft');
    const r = await post(d.id, ACCOUNTANT);
    expect(r.status).toBe(200);
    const after = await read(d.id);
    expect(after.status).toBe('posted');
    expect(after.post_month).toBe('2025-06-01');
    expect(after.posted_at).toBe(new Date(NOW).toISOString());
    expect(r.data).toEqual(after);
    // A posted entry cannot be posted again.
    const state = await h.state();
    const again = await post(d.id, CONTROLLER);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('entry_already_posted');
    expect(await h.state()).toEqual(state);
  });

  it('ACC-062 without an Idempotency-Key the post is refused and the entry stays a draft', async () => {
    const d = await h.draft(shared);
    const state = await h.state();
    const r = await post(d.id, CONTROLLER, undefined, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect((await read(d.id)).status).toBe('draft');
    expect(await h.state()).toEqual(state);
  });

  it('ACC-063 posting without a configured calendar is 422 period_calendar_not_configured and the entry stays a draft', async () => {
    const l = await h.ledger({ calendar: false });
    const d = await h.draft(l);
    await expectPostRefused(d.id, CONTROLLER, undefined, 422, 'period_calendar_not_configured');
    await expectPostRefused(d.id, CONTROLLER, '2025-06-01', 422, 'period_calendar_not_configured');
  });

  it('ACC-064 posting an unbalanced draft is refused and the entry stays a draft', async () => {
    const r = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, {
      data: {
        legal_entity_id: shared.entity.id,
        description: 'Unbalanced',
        transaction_date: '2025-06-10',
        lines: [
          { account_id: shared.cash.id, direction: 'debit', amount: 1000 },
          { account_id: shared.revenue.id, direction: 'credit', amount: 999 },
        ],
      },
    });
    expect(r.status).toBe(201);
    await expectPostRefused(r.data.id, CONTROLLER, undefined, 422, 'unbalanced_entry');
    await expectPostRefused(r.data.id, SUPERADMIN, '2025-06-01', 422, 'unbalanced_entry');
  });

  it("ACC-065 without ?post_month post assigns the entity's current Open month (entity-local)", async () => {
    const d = await h.draft(shared);
    const cal = await current(shared.entity.id);
    expect(cal.open_month).toBe('2025-06-01');
    await expectPosted(d.id, CONTROLLER, undefined, cal.open_month);

    // In a timezone already in July while UTC is still in June, the Open month is July.
    const east = await h.ledger({ timezone: 'Pacific/Kiritimati' });
    const d2 = await h.draft(east);
    h.setNow('2025-06-30T12:00:00Z');
    try {
      const cal2 = await current(east.entity.id);
      expect(cal2.open_month).toBe('2025-07-01');
      await expectPosted(d2.id, ACCOUNTANT, undefined, cal2.open_month);
    } finally {
      h.setNow(NOW);
    }
  });

  it('ACC-066 an allowed ?post_month=YYYY-MM-01 becomes the entry post_month', async () => {
    await expectPosted((await h.draft(shared)).id, ACCOUNTANT, '2025-06-01', '2025-06-01');
    await expectPosted((await h.draft(shared)).id, CONTROLLER, '2025-09-01', '2025-09-01');
    await expectPosted((await h.draft(shared)).id, CONTROLLER, '2025-03-01', '2025-03-01');
  });

  it('ACC-067 a retry with the same Idempotency-Key gets the original response and post_month is unchanged', async () => {
    const d = await h.draft(shared);
    const key = randomUUID();
    const first = await post(d.id, CONTROLLER, undefined, key);
    expect(first.status).toBe(200);
    expect(first.data.post_month).toBe('2025-06-01');
    const state = await h.state();
    // Even once the Open month has moved on, the retry answers with the original result.
    h.setNow('2025-07-02T12:00:00Z');
    try {
      const retry = await post(d.id, CONTROLLER, undefined, key);
      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.data).toEqual(first.data);
      expect(retry.data.post_month).toBe('2025-06-01');
    } finally {
      h.setNow(NOW);
    }
    expect((await read(d.id)).post_month).toBe('2025-06-01');
    expect(await h.state()).toEqual(state);
  });
});

describe('posting month rules', () => {
  it('ACC-068 a Controller posting with post_month of a soft-closed month gets the entry posted in that month', async () => {
    const l = await h.ledger();
    await expectPosted((await h.draft(l)).id, CONTROLLER, '2025-05-01', '2025-05-01');
    await expectPosted((await h.draft(l)).id, CONTROLLER, '2025-01-01', '2025-01-01');
  });

  it('ACC-069 a caller without Controller access or a verified Super Admin grant may not choose a soft-closed month', async () => {
    const l = await h.ledger();
    for (const as of [ACCOUNTANT, SENIOR, SUPERLABEL]) {
      const d = await h.draft(l);
      await expectPostRefused(d.id, as, '2025-05-01', 403, 'post_month_not_allowed');
    }
    // The verified grant may.
    await expectPosted((await h.draft(l)).id, SUPERADMIN, '2025-05-01', '2025-05-01');
  });

  it('ACC-070 Controllers may choose a future month for an entry that is not a charge', async () => {
    const l = await h.ledger();
    await expectPosted((await h.draft(l)).id, CONTROLLER, '2025-07-01', '2025-07-01');
    await expectPosted(
      (await h.draft(l, { as: BILLING, lineExtra: { invoice_id: randomUUID() } })).id,
      CONTROLLER,
      '2026-01-01',
      '2026-01-01',
    );
  });

  it('ACC-071 Senior Accountants may choose a future month for an entry that is not a charge', async () => {
    const l = await h.ledger();
    await expectPosted((await h.draft(l)).id, SENIOR, '2025-08-01', '2025-08-01');
  });

  it('ACC-072 Controllers and Senior Accountants may not choose a future month for a charge', async () => {
    const l = await h.ledger();
    for (const as of [CONTROLLER, SENIOR]) {
      const d = await chargeDraft(l);
      await expectPostRefused(d.id, as, '2025-07-01', 403, 'post_month_not_allowed');
    }
    // The same charge in the Open month is fine.
    await expectPosted((await chargeDraft(l)).id, CONTROLLER, '2025-06-01', '2025-06-01');
  });

  it('ACC-073 a verified global Super Admin grant permits choosing a closed month', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    expect((await h.close(l.entity.id)).status).toBe(200); // January and February are closed
    await expectPosted((await h.draft(l)).id, SUPERADMIN, '2025-02-01', '2025-02-01');
    await expectPosted((await h.draft(l)).id, SUPERADMIN, '2025-01-01', '2025-01-01');
  });

  it('ACC-074 a verified global Super Admin grant permits choosing a future month for a charge', async () => {
    const l = await h.ledger();
    await expectPosted((await chargeDraft(l)).id, SUPERADMIN, '2025-07-01', '2025-07-01');
  });

  it('ACC-075 without a verified global Super Admin grant no caller may choose a closed month', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200); // January is closed
    for (const as of [CONTROLLER, SENIOR, ACCOUNTANT, SUPERLABEL, PAYMENTS, BILLING]) {
      const d = await h.draft(l);
      await expectPostRefused(d.id, as, '2025-01-01', 403, 'post_month_not_allowed');
    }
  });

  it('ACC-076 a Super Admin role label without a verified grant permits neither a closed month nor a future month for a charge', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    await expectPostRefused((await h.draft(l)).id, SUPERLABEL, '2025-01-01', 403, 'post_month_not_allowed');
    await expectPostRefused((await chargeDraft(l)).id, SUPERLABEL, '2025-07-01', 403, 'post_month_not_allowed');
    // Not a soft-closed month nor a non-charge future month either.
    await expectPostRefused((await h.draft(l)).id, SUPERLABEL, '2025-05-01', 403, 'post_month_not_allowed');
    await expectPostRefused((await h.draft(l)).id, SUPERLABEL, '2025-07-01', 403, 'post_month_not_allowed');
  });

  it('ACC-077 a caller with no posting-month override may post only to the Open month', async () => {
    const l = await h.ledger();
    for (const month of ['2025-05-01', '2025-02-01', '2025-07-01', '2026-06-01']) {
      await expectPostRefused((await h.draft(l)).id, ACCOUNTANT, month, 403, 'post_month_not_allowed');
    }
    await expectPosted((await h.draft(l)).id, ACCOUNTANT, '2025-06-01', '2025-06-01');
    await expectPosted((await h.draft(l)).id, ACCOUNTANT, undefined, '2025-06-01');
  });

  it("ACC-078 an entry posted by a service principal has post_month equal to the entity's current Open month", async () => {
    const east = await h.ledger({ timezone: 'Pacific/Kiritimati' });
    const d1 = await h.draft(east, { as: PAYMENTS, payment_id: randomUUID() });
    const d2 = await h.draft(east, { as: ACCOUNTANT });
    const d3 = await h.draft(east, { as: PAYMENTS });
    h.setNow('2025-06-30T12:00:00Z');
    try {
      const cal = await current(east.entity.id);
      expect(cal.open_month).toBe('2025-07-01');
      await expectPosted(d1.id, PAYMENTS, undefined, cal.open_month);
      await expectPosted(d2.id, PAYMENTS, undefined, cal.open_month);
      // A service naming another month does not get it: the post is refused and nothing moves.
      for (const month of ['2025-06-01', '2025-08-01']) {
        await expectPostRefused(d3.id, PAYMENTS, month, 403, 'post_month_not_allowed');
      }
      await expectPosted(d3.id, PAYMENTS, cal.open_month, cal.open_month);
    } finally {
      h.setNow(NOW);
    }
  });

  it('ACC-079 a chosen post month before the (corrected) books start is 422 period_out_of_range and the draft stays unchanged', async () => {
    const l = await h.ledger({ books_start_month: '2025-01-01' });
    await expectPostRefused((await h.draft(l)).id, SUPERADMIN, '2024-12-01', 422, 'period_out_of_range');
    const corrected = await h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar/books-start`, CONTROLLER, {
      data: { books_start_month: '2025-03-01' },
      why: { detail: 'Books really start in March' },
    });
    expect(corrected.status).toBe(200);
    expect((await current(l.entity.id)).books_start_month).toBe('2025-03-01');
    for (const as of [CONTROLLER, SUPERADMIN]) {
      await expectPostRefused((await h.draft(l)).id, as, '2025-02-01', 422, 'period_out_of_range');
    }
    // The corrected start itself is in range.
    await expectPosted((await h.draft(l)).id, CONTROLLER, '2025-03-01', '2025-03-01');
  });
});
