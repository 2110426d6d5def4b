import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTANT, BILLING, CONTROLLER, type Harness, harness, PAYMENTS } from './harness.ts';

const NOW = '2025-06-15T12:00:00Z';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: NOW });
});
afterAll(async () => h.close_());

type Line = { id: string; account_id: string; direction: string; amount: number; [k: string]: unknown };
type EntryRead = Record<string, unknown> & { id: string; status: string; transaction_date: string; lines: Line[] };

const read = async (id: string) => {
  const r = await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data as EntryRead;
};

const reverse = (id: string, data: Record<string, unknown> = {}, as = CONTROLLER, key?: string | null) =>
  h.call('POST', `/v1/journal-entries/${id}/reverse`, as, { data }, key);

const current = async (entityId: string) => {
  const r = await h.call('GET', `/v1/period-calendar/current?legal_entity_id=${entityId}`, CONTROLLER);
  expect(r.status).toBe(200);
  return r.data as { open_month: string; local_date: string; timezone: string };
};

describe('reversing a posted entry', () => {
  it('ACC-080 ACC-081 reversing a posted entry creates a new reversal entry that starts as a draft with no post_month', async () => {
    const l = await h.ledger();
    const p = await h.posted(l, { amount: 1234 });
    const before = await h.count('journal_entries');
    const r = await reverse(p.id);
    expect(r.status).toBe(201);
    expect(await h.count('journal_entries')).toBe(before + 1);
    const rev = await read(r.data.id);
    expect(rev.id).not.toBe(p.id);
    // ACC-080
    expect(rev.is_reversal).toBe(true);
    expect(rev.reversal_of).toBe(p.id);
    expect(rev.legal_entity_id).toBe(l.entity.id);
    // The lines mirror the original's with debits and credits swapped.
    const original = await read(p.id);
    expect(rev.lines.map(({ account_id, direction, amount }) => ({ account_id, direction, amount }))).toEqual(
      original.lines.map(({ account_id, direction, amount }) => ({
        account_id,
        direction: direction === 'debit' ? 'credit' : 'debit',
        amount,
      })),
    );
    // ACC-081
    expect(rev.status).toBe('draft');
    expect(rev).not.toHaveProperty('post_month');
    expect(r.data).toEqual(rev);
    // Only a posted entry without a reversal can be reversed; refusals write nothing.
    const state = await h.state();
    const again = await reverse(p.id);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('entry_already_reversed');
    const ofDraft = await reverse(rev.id);
    expect(ofDraft.status).toBe(409);
    expect(ofDraft.errors[0].code).toBe('entry_not_posted');
    expect(await h.state()).toEqual(state);
  });

  it('ACC-082 reversal leaves the original posted and unchanged', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const before = await read(p.id);
    const balancesBefore = (await h.state()).bal;
    const r = await reverse(p.id, { entry_date: '2025-06-20' });
    expect(r.status).toBe(201);
    const after = await read(p.id);
    expect(after.status).toBe('posted');
    expect(after.post_month).toBe(before.post_month);
    expect(after).toEqual(before);
    // The reversal is a draft: balances are as they were.
    expect((await h.state()).bal).toEqual(balancesBefore);
  });

  it('ACC-083 without an Idempotency-Key the reversal is refused and no reversal is created', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const state = await h.state();
    const r = await reverse(p.id, {}, CONTROLLER, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(state);
  });
});

describe('reversing an entry made by billing', () => {
  it('14.1 ACC-034 ACC-035 only billing reverses an entry with invoice or charge references: billing gets a generated reversal keeping them, others 403 billing_reference_not_allowed and nothing written', async () => {
    const l = await h.ledger();
    const refs = { invoice_id: randomUUID(), charge_id: randomUUID() };
    const p = await h.posted(l, { as: BILLING, lineExtra: refs });

    // A person's reversal would be a manual entry carrying billing references: refused, for
    // every caller other than billing.
    for (const as of [CONTROLLER, ACCOUNTANT, PAYMENTS]) {
      const state = await h.state();
      const r = await reverse(p.id, {}, as);
      expect(r.status, as).toBe(403);
      expect(r.errors[0].code).toBe('billing_reference_not_allowed');
      expect(await h.state()).toEqual(state);
    }

    // Billing's reversal is made by billing: generated, the same references on every line.
    const r = await reverse(p.id, {}, BILLING);
    expect(r.status).toBe(201);
    const rev = await read(r.data.id);
    expect(rev).toMatchObject({ source: 'generated', is_reversal: true, reversal_of: p.id, created_by: BILLING });
    for (const line of rev.lines) expect(line).toMatchObject(refs);

    // An entry without billing references is reversed by a person as before.
    const plain = await h.posted(l);
    const own = await reverse(plain.id, {}, CONTROLLER);
    expect(own.status).toBe(201);
    expect(own.data.source).toBe('manual');
  });
});

describe('the reversal transaction date', () => {
  it('ACC-084 an explicit entry_date becomes the reversal transaction date', async () => {
    const l = await h.ledger();
    const p = await h.posted(l, { transaction_date: '2025-06-10' });
    const r = await reverse(p.id, { entry_date: '2025-07-03' }, ACCOUNTANT);
    expect(r.status).toBe(201);
    expect(r.data.transaction_date).toBe('2025-07-03');
    expect((await read(r.data.id)).transaction_date).toBe('2025-07-03');
  });

  it('ACC-085 without entry_date the reversal transaction date is the entity-local date', async () => {
    // UTC+14: while UTC is on 2025-06-15 the entity is already on 2025-06-16.
    const l = await h.ledger({ timezone: 'Pacific/Kiritimati' });
    const p = await h.posted(l, { transaction_date: '2025-06-10' });
    const cal = await current(l.entity.id);
    expect(cal.local_date).toBe('2025-06-16');
    const r = await reverse(p.id);
    expect(r.status).toBe(201);
    expect(r.data.transaction_date).toBe(cal.local_date);
    expect((await read(r.data.id)).transaction_date).toBe(cal.local_date);
    // An absent body reads the same as {data: {}}.
    const p2 = await h.posted(l);
    const r2 = await h.call('POST', `/v1/journal-entries/${p2.id}/reverse`, CONTROLLER, undefined, randomUUID());
    expect(r2.status).toBe(201);
    expect(r2.data.transaction_date).toBe(cal.local_date);
  });

  it('ACC-086 without entry_date and without a configured calendar the reversal is refused and no entry is created', async () => {
    // A posted entry on an entity with no calendar can only be a direct historical insert.
    const l = await h.ledger({ calendar: false });
    const id = randomUUID();
    await sql`INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, status, post_month)
      VALUES (${id}, ${l.entity.id}, 'Legacy', '2025-05-10', 'posted', '2025-05-01')`.execute(h.db);
    await sql`INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount) VALUES
      (${randomUUID()}, ${id}, 1, ${l.cash.id}, 'debit', 100),
      (${randomUUID()}, ${id}, 2, ${l.revenue.id}, 'credit', 100)`.execute(h.db);
    const state = await h.state();
    const r = await reverse(id);
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('period_calendar_not_configured');
    expect(await h.state()).toEqual(state);
    // With an explicit entry_date the calendar is not needed.
    const ok = await reverse(id, { entry_date: '2025-05-31' });
    expect(ok.status).toBe(201);
    expect(ok.data).toMatchObject({
      transaction_date: '2025-05-31',
      is_reversal: true,
      reversal_of: id,
      status: 'draft',
    });
  });

  it('ACC-133 a reversal made after a timezone correction without entry_date gets the local date in the new timezone', async () => {
    const l = await h.ledger({ timezone: 'UTC' });
    const p = await h.posted(l);
    expect((await current(l.entity.id)).local_date).toBe('2025-06-15');
    const fix = await h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar/timezone`, CONTROLLER, {
      data: { timezone: 'Pacific/Kiritimati' },
      why: { detail: 'The entity books in Kiribati' },
    });
    expect(fix.status).toBe(200);
    const cal = await current(l.entity.id);
    expect(cal.local_date).toBe('2025-06-16');
    const r = await reverse(p.id);
    expect(r.status).toBe(201);
    expect(r.data.transaction_date).toBe('2025-06-16');
  });
});
