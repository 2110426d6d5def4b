import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTANT,
  ADMIN,
  BILLING,
  CONTROLLER,
  type Harness,
  harness,
  PAYMENTS,
  SENIOR,
  STAFF,
  SUPERLABEL,
} from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Ledger = Awaited<ReturnType<Harness['ledger']>>;

// ---- local helpers ---------------------------------------------------------------------------

const del = (
  id: string,
  as: string | null,
  data: Record<string, unknown> = { reason: 'Posted twice by mistake' },
  key?: string | null,
  why?: Record<string, unknown>,
) =>
  h.call(
    'DELETE',
    `/v1/journal-entries/${id}`,
    as,
    { data, ...(why ? { why } : {}) },
    key === undefined ? randomUUID() : key,
  );

const check = (id: string, as: string | null, related: string[] = []) =>
  h.call(
    'GET',
    `/v1/journal-entries/${id}/deletion-check${related.length ? `?related_entry_ids=${related.join(',')}` : ''}`,
    as,
  );

/** Whether an entry row (and how many of its lines) still exist, read straight from the tables. */
async function rows(id: string) {
  const e = await h.db.selectFrom('journal_entries').select('id').where('id', '=', id).execute();
  const l = await h.db.selectFrom('journal_lines').select('id').where('entry_id', '=', id).execute();
  return { entry: e.length, lines: l.length };
}

async function expectPresent(...ids: string[]) {
  for (const id of ids) expect(await rows(id), `entry ${id} should remain`).toEqual({ entry: 1, lines: 2 });
}

async function expectGone(...ids: string[]) {
  for (const id of ids) expect(await rows(id), `entry ${id} should be gone`).toEqual({ entry: 0, lines: 0 });
}

/** A payment-linked entry as the Payments service makes it (posted to the Open month unless draft). */
async function paymentEntry(l: Ledger, paymentId: string, opts: { draft?: boolean; amount?: number } = {}) {
  if (opts.draft) return h.draft(l, { as: PAYMENTS, payment_id: paymentId, amount: opts.amount });
  return h.posted(l, { as: PAYMENTS, payment_id: paymentId, amount: opts.amount });
}

/**
 * An entry posted to January 2025 (a soft-closed month: books start 2025-01, clock in June), by a
 * controller; the draft is made by `draftAs` (Payments for a payment-linked one).
 */
async function januaryEntry(l: Ledger, opts: { draftAs?: string; payment_id?: string } = {}) {
  const d = await h.draft(l, {
    as: opts.draftAs ?? ACCOUNTANT,
    transaction_date: '2025-01-15',
    payment_id: opts.payment_id,
  });
  const r = await h.call('POST', `/v1/journal-entries/${d.id}/post?post_month=2025-01-01`, CONTROLLER, { data: {} });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.data.post_month).toBe('2025-01-01');
  return r.data as { id: string; post_month: string };
}

/** Closes the entity's earliest unclosed month, which is January 2025 for a fresh ledger. */
async function closeJanuary(l: Ledger) {
  const r = await h.close(l.entity.id);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.data.closed_month).toBe('2025-01-01');
}

/** An entry whose lines reference a charge (or invoice), as billing makes it. */
async function billingEntry(l: Ledger, ref: 'charge_id' | 'invoice_id', post = true) {
  const extra = { [ref]: randomUUID() };
  return post ? h.posted(l, { as: BILLING, lineExtra: extra }) : h.draft(l, { as: BILLING, lineExtra: extra });
}

async function reverse(id: string) {
  const r = await h.call('POST', `/v1/journal-entries/${id}/reverse`, CONTROLLER, { data: {} });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.data as { id: string; reversal_of: string };
}

const deletedEvents = async (ids: string[]) =>
  (await h.events('journal_entry.deleted')).filter((e) => ids.includes(e.payload.data.entry_id as string));

const codes = (r: { data?: { refusals: { code: string }[] } }) => (r.data?.refusals ?? []).map((x) => x.code);

// ---- DELETE ----------------------------------------------------------------------------------

describe('DELETE /v1/journal-entries/{id}', () => {
  it('ACC-087 ACC-210 DELETE removes a draft: a controller deletes it and it is gone from reads and journal lists', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const keep = await h.draft(l);
    const r = await del(d.id, CONTROLLER);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.deleted_entry_ids).toEqual([d.id]);
    const read = await h.call('GET', `/v1/journal-entries/${d.id}`, CONTROLLER);
    expect(read.status).toBe(404);
    const list = await h.call('GET', `/v1/journal-entries?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(list.status).toBe(200);
    const ids = (list.data as { id: string }[]).map((e) => e.id);
    expect(ids).not.toContain(d.id);
    expect(ids).toContain(keep.id);
    await expectGone(d.id);
  });

  it('ACC-088 ACC-092 ACC-210 DELETE removes a posted entry from lists, balances and reports and writes no offsetting journal', async () => {
    const l = await h.ledger();
    const p = await h.posted(l, { amount: 2500 });
    const tbBefore = await h.call('GET', `/v1/trial-balance?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(tbBefore.data.totals).toEqual({ debit: 2500, credit: 2500 });
    const entriesBefore = await h.count('journal_entries');

    const r = await del(p.id, CONTROLLER);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.deleted_entry_ids).toEqual([p.id]);

    // No offsetting journal: exactly one entry fewer, and nothing new for the entity.
    expect(await h.count('journal_entries')).toBe(entriesBefore - 1);
    const list = await h.call('GET', `/v1/journal-entries?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(list.data).toEqual([]);
    const posted = await h.call('GET', `/v1/journal-entries?legal_entity_id=${l.entity.id}&status=posted`, CONTROLLER);
    expect(posted.data).toEqual([]);

    const tb = await h.call('GET', `/v1/trial-balance?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(tb.status).toBe(200);
    expect(tb.data.totals).toEqual({ debit: 0, credit: 0 });
    for (const acc of [l.cash, l.revenue]) {
      const b = await h.call(
        'GET',
        `/v1/accounts/${acc.id}/balance?legal_entity_id=${l.entity.id}&as_of_month=2025-06`,
        CONTROLLER,
      );
      expect(b.status).toBe(200);
      expect(b.data).toMatchObject({ debit: 0, credit: 0, balance: 0 });
    }
    const bs = await h.call('GET', `/v1/balance-sheet?legal_entity_id=${l.entity.id}&as_of_month=2025-06`, CONTROLLER);
    expect(bs.status).toBe(200);
    expect(bs.data.assets.total).toBe(0);
    expect(bs.data.retained_earnings).toBe(0);
    await expectGone(p.id);
  });

  it('ACC-211 a platform admin deletes an entry that is not payment-linked', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const r = await del(p.id, ADMIN);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.deleted_entry_ids).toEqual([p.id]);
    await expectGone(p.id);
  });

  it('ACC-212 the Payments service principal holds DeleteJournalEntry: its DELETE succeeds', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const r = await del(p.id, PAYMENTS);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.deleted_entry_ids).toEqual([p.id]);
    await expectGone(p.id);
  });

  it('ACC-213 principals without DeleteJournalEntry get 403 and nothing is removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const before = await h.state();
    for (const who of [ACCOUNTANT, SENIOR, STAFF, BILLING, 'someone@example.com']) {
      const r = await del(p.id, who);
      expect(r.status, who).toBe(403);
      expect(r.errors[0].code, who).toBe('forbidden');
    }
    const anon = await del(p.id, null);
    expect(anon.status).toBe(401);
    expect(anon.errors[0].code).toBe('unauthenticated');
    expect(await h.state()).toEqual(before);
    await expectPresent(p.id);
  });

  it('ACC-213 an accountant with an unverified Super Admin role label does not hold DeleteJournalEntry: 403, nothing removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const before = await h.state();
    const r = await del(p.id, SUPERLABEL);
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.errors[0].code).toBe('forbidden');
    expect(await h.state()).toEqual(before);
    await expectPresent(p.id);
  });

  it('ACC-089 DELETE without an Idempotency-Key is refused and nothing is removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const before = await h.state();
    const r = await del(p.id, CONTROLLER, { reason: 'Mistake' }, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
    await expectPresent(p.id);
  });

  it('ACC-090 DELETE without data.reason is refused and nothing is removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const before = await h.state();
    for (const data of [{}, { reason: '' }, { reason: '   ' }, { related_entry_ids: [] }]) {
      const r = await del(p.id, CONTROLLER, data);
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(r.errors[0].code).toBe('validation_failed');
      expect(JSON.stringify(r.errors)).toContain('reason');
    }
    const noData = await h.call('DELETE', `/v1/journal-entries/${p.id}`, CONTROLLER, {});
    expect(noData.status).toBe(422);
    expect(noData.errors[0].code).toBe('validation_failed');
    expect(await h.state()).toEqual(before);
    await expectPresent(p.id);
  });

  it('ACC-091 without related_entry_ids a DELETE removes only the entry in the path', async () => {
    const l = await h.ledger();
    const a = await h.posted(l);
    const b = await h.posted(l);
    const pid = randomUUID();
    const pa = await paymentEntry(l, pid);
    const pb = await paymentEntry(l, pid);
    expect((await del(a.id, CONTROLLER)).status).toBe(200);
    await expectGone(a.id);
    await expectPresent(b.id);
    // Even for payment-linked entries: the sibling sharing the payment_id is not removed.
    const r = await del(pa.id, PAYMENTS);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.deleted_entry_ids).toEqual([pa.id]);
    await expectGone(pa.id);
    await expectPresent(pb.id);
  });

  it('ACC-093 each removed entry keeps a full audit snapshot with its lines, payment_id, the reason and the deletion time', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid, { amount: 700 });
    const b = await paymentEntry(l, pid, { draft: true, amount: 300 });
    const fullA = (await h.call('GET', `/v1/journal-entries/${a.id}`, CONTROLLER)).data;
    const fullB = (await h.call('GET', `/v1/journal-entries/${b.id}`, CONTROLLER)).data;
    h.setNow('2025-06-20T08:30:00Z');
    try {
      const r = await del(a.id, PAYMENTS, { reason: 'Payment voided at the bank', related_entry_ids: [b.id] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.data.deleted_at).toBe('2025-06-20T08:30:00.000Z');
    } finally {
      h.setNow('2025-06-15T12:00:00Z');
    }
    for (const full of [fullA, fullB]) {
      const s = await h.call('GET', `/v1/deleted-journal-entries/${full.id}`, CONTROLLER);
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      expect(s.data).toMatchObject({
        entry_id: full.id,
        legal_entity_id: l.entity.id,
        payment_id: pid,
        reason: 'Payment voided at the bank',
        deleted_at: '2025-06-20T08:30:00.000Z',
        deleted_by: PAYMENTS,
      });
      expect(s.data.snapshot).toEqual(full);
      expect(s.data.snapshot.lines).toHaveLength(2);
      expect(s.data.snapshot.payment_id).toBe(pid);
    }
    const list = await h.call('GET', `/v1/deleted-journal-entries?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(list.status).toBe(200);
    expect((list.data as { entry_id: string }[]).map((x) => x.entry_id).sort()).toEqual([a.id, b.id].sort());
  });

  it('ACC-094 ACC-103 ACC-212 the Payments principal removes a payment-linked entry with its related entries in one operation', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const c = await paymentEntry(l, pid, { draft: true });
    const other = await paymentEntry(l, randomUUID());
    const snapshotsBefore = await h.count('deleted_entries');
    const r = await del(a.id, PAYMENTS, { reason: 'Payment reversed', related_entry_ids: [b.id, c.id] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect([...r.data.deleted_entry_ids].sort()).toEqual([a.id, b.id, c.id].sort());
    await expectGone(a.id, b.id, c.id);
    await expectPresent(other.id);
    expect(await h.count('deleted_entries')).toBe(snapshotsBefore + 3);
    const list = await h.call('GET', `/v1/journal-entries?payment_id=${pid}`, CONTROLLER);
    expect(list.data).toEqual([]);
    const tb = await h.call('GET', `/v1/trial-balance?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(tb.data.totals).toEqual({ debit: 1000, credit: 1000 });
  });

  it('ACC-094 ACC-100 a missing related entry refuses the whole DELETE: the path entry and the other related entries remain', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const before = await h.state();
    const r = await del(a.id, PAYMENTS, { reason: 'Payment reversed', related_entry_ids: [b.id, randomUUID()] });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('related_entry_not_found');
    expect(await h.state()).toEqual(before);
    await expectPresent(a.id, b.id);
  });

  it('ACC-094 ACC-101 a related entry posted in a closed period refuses the whole DELETE: every entry remains', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const jan = await januaryEntry(l, { draftAs: PAYMENTS, payment_id: pid });
    await closeJanuary(l);
    const june = await paymentEntry(l, pid);
    const draft = await paymentEntry(l, pid, { draft: true });
    const before = await h.state();
    const r = await del(june.id, PAYMENTS, { reason: 'Payment reversed', related_entry_ids: [draft.id, jan.id] });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('period_closed');
    expect(await h.state()).toEqual(before);
    await expectPresent(june.id, draft.id, jan.id);
  });

  it('ACC-101 an entry posted in a closed period cannot be deleted; nothing is removed', async () => {
    const l = await h.ledger();
    const jan = await januaryEntry(l);
    await closeJanuary(l);
    const before = await h.state();
    for (const who of [CONTROLLER, ADMIN, PAYMENTS]) {
      const r = await del(jan.id, who);
      expect(r.status, who).toBe(409);
      expect(r.errors[0].code).toBe('period_closed');
    }
    expect(await h.state()).toEqual(before);
    await expectPresent(jan.id);
  });

  it('ACC-095 an entry that has a reversal cannot be deleted; nothing is removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const rev = await reverse(p.id);
    const before = await h.state();
    const r = await del(p.id, CONTROLLER);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('entry_has_reversal');
    expect(await h.state()).toEqual(before);
    // Also once the reversal is posted.
    expect((await h.call('POST', `/v1/journal-entries/${rev.id}/post`, CONTROLLER, { data: {} })).status).toBe(200);
    const before2 = await h.state();
    const r2 = await del(p.id, ADMIN);
    expect(r2.status).toBe(409);
    expect(r2.errors[0].code).toBe('entry_has_reversal');
    expect(await h.state()).toEqual(before2);
    await expectPresent(p.id, rev.id);
  });

  it('ACC-096 a reversal entry cannot be deleted, as a draft or posted; nothing is removed', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const rev = await reverse(p.id);
    const before = await h.state();
    const r = await del(rev.id, CONTROLLER);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('entry_is_reversal');
    expect(await h.state()).toEqual(before);
    expect((await h.call('POST', `/v1/journal-entries/${rev.id}/post`, CONTROLLER, { data: {} })).status).toBe(200);
    const before2 = await h.state();
    const r2 = await del(rev.id, ADMIN);
    expect(r2.status).toBe(409);
    expect(r2.errors[0].code).toBe('entry_is_reversal');
    expect(await h.state()).toEqual(before2);
    await expectPresent(p.id, rev.id);
  });

  it('ACC-097 a related entry with another or no payment_id refuses the whole DELETE; nothing is removed', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const otherPayment = await paymentEntry(l, randomUUID());
    const unlinked = await h.posted(l);
    const before = await h.state();
    for (const wrong of [otherPayment.id, unlinked.id]) {
      const r = await del(a.id, PAYMENTS, { reason: 'Payment reversed', related_entry_ids: [b.id, wrong] });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('related_entry_mismatch');
    }
    expect(await h.state()).toEqual(before);
    await expectPresent(a.id, b.id, otherPayment.id, unlinked.id);
  });

  it('ACC-098 a related entry of another legal entity refuses the whole DELETE; nothing is removed', async () => {
    const l = await h.ledger();
    const l2 = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const elsewhere = await paymentEntry(l2, pid);
    const before = await h.state();
    const r = await del(a.id, PAYMENTS, { reason: 'Payment reversed', related_entry_ids: [b.id, elsewhere.id] });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('related_entry_mismatch');
    expect(await h.state()).toEqual(before);
    await expectPresent(a.id, b.id, elsewhere.id);
  });

  it('ACC-099 unlinked entries cannot be deleted as a group; nothing is removed', async () => {
    const l = await h.ledger();
    const a = await h.posted(l);
    const b = await h.posted(l);
    const d = await h.draft(l);
    const before = await h.state();
    for (const who of [CONTROLLER, ADMIN, PAYMENTS]) {
      const r = await del(a.id, who, { reason: 'Duplicates', related_entry_ids: [b.id, d.id] });
      expect(r.status, who).toBe(422);
      expect(r.errors[0].code).toBe('unlinked_entries_not_groupable');
    }
    expect(await h.state()).toEqual(before);
    await expectPresent(a.id, b.id, d.id);
  });

  it('ACC-102 a controller or platform admin deleting a payment-linked entry is refused and nothing is removed', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const d = await paymentEntry(l, randomUUID(), { draft: true });
    const before = await h.state();
    for (const who of [CONTROLLER, ADMIN]) {
      for (const [id, related] of [
        [a.id, undefined],
        [a.id, [b.id]],
        [d.id, undefined],
      ] as const) {
        const r = await del(id, who, { reason: 'Mistake', ...(related ? { related_entry_ids: related } : {}) });
        expect(r.status, `${who} ${id}`).toBe(403);
        expect(r.errors[0].code).toBe('payment_linked_entry');
      }
    }
    expect(await h.state()).toEqual(before);
    await expectPresent(a.id, b.id, d.id);
  });

  it('ACC-104 entries whose lines reference an invoice or charge cannot be deleted by any caller; nothing is removed', async () => {
    const l = await h.ledger();
    const charge = await billingEntry(l, 'charge_id');
    const invoice = await billingEntry(l, 'invoice_id');
    const chargeDraft = await billingEntry(l, 'charge_id', false);
    const before = await h.state();
    for (const id of [charge.id, invoice.id, chargeDraft.id]) {
      for (const who of [CONTROLLER, ADMIN, PAYMENTS]) {
        const r = await del(id, who);
        expect(r.status, `${who} ${id}`).toBe(409);
        expect(r.errors[0].code).toBe('billing_document_entry');
      }
      // Billing itself holds no DeleteJournalEntry.
      const b = await del(id, BILLING);
      expect(b.status).toBe(403);
    }
    expect(await h.state()).toEqual(before);
    await expectPresent(charge.id, invoice.id, chargeDraft.id);
  });

  it('ACC-105 the same Idempotency-Key replays the original success after the month was closed and changes nothing', async () => {
    const l = await h.ledger();
    const jan = await januaryEntry(l);
    const key = randomUUID();
    const body = { reason: 'Posted to the wrong entity' };
    const first = await del(jan.id, CONTROLLER, body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.data.deleted_entry_ids).toEqual([jan.id]);
    await closeJanuary(l);
    const before = await h.state();
    const replay = await del(jan.id, CONTROLLER, body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect(await h.state()).toEqual(before);
    // A fresh key on the same (now deleted) entry is not a success.
    expect((await del(jan.id, CONTROLLER, body)).status).toBe(404);
  });

  it('ACC-106 the same Idempotency-Key with another path id conflicts (409) and nothing is removed', async () => {
    const l = await h.ledger();
    const a = await h.posted(l);
    const b = await h.posted(l);
    const key = randomUUID();
    const body = { reason: 'Mistake' };
    expect((await del(a.id, CONTROLLER, body, key)).status).toBe(200);
    const before = await h.state();
    const r = await del(b.id, CONTROLLER, body, key);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(before);
    await expectPresent(b.id);
  });

  it('ACC-107 the same Idempotency-Key with another body conflicts (409) and nothing is removed', async () => {
    const l = await h.ledger();
    const a = await h.posted(l);
    const pid = randomUUID();
    const pa = await paymentEntry(l, pid);
    const pb = await paymentEntry(l, pid);

    // Key first used by a DELETE that succeeded: a changed reason conflicts.
    const key = randomUUID();
    expect((await del(a.id, CONTROLLER, { reason: 'Mistake' }, key)).status).toBe(200);
    const before = await h.state();
    const r = await del(a.id, CONTROLLER, { reason: 'Another reason' }, key);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(before);

    // Key first used to delete pa alone: adding related_entry_ids under it conflicts, pb remains.
    const key2 = randomUUID();
    expect((await del(pa.id, PAYMENTS, { reason: 'Voided' }, key2)).status).toBe(200);
    const before2 = await h.state();
    const r2 = await del(pa.id, PAYMENTS, { reason: 'Voided', related_entry_ids: [pb.id] }, key2);
    expect(r2.status).toBe(409);
    expect(r2.errors[0].code).toBe('idempotency_key_reused');
    expect(await h.state()).toEqual(before2);
    await expectPresent(pb.id);
  });

  it('ACC-108 DELETE re-checks at commit: after deletion-check said allowed, a period close makes DELETE refuse and nothing is removed', async () => {
    const l = await h.ledger();
    const jan = await januaryEntry(l);
    const c = await check(jan.id, CONTROLLER);
    expect(c.status).toBe(200);
    expect(c.data).toEqual({ allowed: true, refusals: [] });
    await closeJanuary(l);
    const before = await h.state();
    const r = await del(jan.id, CONTROLLER);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('period_closed');
    expect(await h.state()).toEqual(before);
    await expectPresent(jan.id);
  });
});

// ---- deletion-check --------------------------------------------------------------------------

describe('GET /v1/journal-entries/{id}/deletion-check', () => {
  it('ACC-109 a passing deletion-check returns allowed: true for every holder of DeleteJournalEntry', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const p = await h.posted(l);
    const pid = randomUUID();
    const pa = await paymentEntry(l, pid);
    for (const who of [CONTROLLER, ADMIN, PAYMENTS]) {
      for (const id of [d.id, p.id]) {
        const r = await check(id, who);
        expect(r.status, who).toBe(200);
        expect(r.data).toEqual({ allowed: true, refusals: [] });
      }
    }
    const pr = await check(pa.id, PAYMENTS);
    expect(pr.data).toEqual({ allowed: true, refusals: [] });
    // The check evaluates the same permission rules as DELETE: a controller may not delete it.
    const cr = await check(pa.id, CONTROLLER);
    expect(cr.status).toBe(200);
    expect(cr.data.allowed).toBe(false);
    expect(codes(cr)).toContain('payment_linked_entry');
  });

  it('ACC-110 the deletion-check evaluates the path entry together with comma-separated related_entry_ids', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const jan = await januaryEntry(l, { draftAs: PAYMENTS, payment_id: pid });
    await closeJanuary(l);
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const c = await paymentEntry(l, pid, { draft: true });
    const ok = await check(a.id, PAYMENTS, [b.id, c.id]);
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ allowed: true, refusals: [] });
    // Alone, a is deletable; listed together with the January entry, it is not.
    const bad = await check(a.id, PAYMENTS, [b.id, jan.id]);
    expect(bad.status).toBe(200);
    expect(bad.data.allowed).toBe(false);
    expect(codes(bad)).toEqual(['period_closed']);
    // Related ids on an unlinked entry are evaluated too.
    const plain = await h.posted(l);
    const grouped = await check(plain.id, CONTROLLER, [a.id]);
    expect(grouped.data.allowed).toBe(false);
    expect(codes(grouped)).toContain('unlinked_entries_not_groupable');
  });

  it('ACC-111 a caller without DeleteJournalEntry is refused the deletion-check (403)', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    for (const who of [ACCOUNTANT, SENIOR, STAFF, BILLING, 'someone@example.com']) {
      const r = await check(p.id, who);
      expect(r.status, who).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
    }
    const anon = await check(p.id, null);
    expect(anon.status).toBe(401);
  });

  it('ACC-111 an unverified Super Admin role label does not pass the deletion-check permission (403)', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const r = await check(p.id, SUPERLABEL);
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.errors[0].code).toBe('forbidden');
  });

  it('ACC-112 the deletion-check does not return allowed: true when a supplied entry is posted in a closed period', async () => {
    const l = await h.ledger();
    const jan = await januaryEntry(l);
    await closeJanuary(l);
    for (const who of [CONTROLLER, ADMIN, PAYMENTS]) {
      const r = await check(jan.id, who);
      expect(r.status).toBe(200);
      expect(r.data.allowed).toBe(false);
      expect(codes(r)).toEqual(['period_closed']);
    }
    const pid = randomUUID();
    const pjan = await h.draft(l, { as: PAYMENTS, payment_id: pid, transaction_date: '2025-01-20' });
    // A draft dated in a closed month is not posted there: it does not block.
    const june = await paymentEntry(l, pid);
    const r = await check(june.id, PAYMENTS, [pjan.id]);
    expect(r.data).toEqual({ allowed: true, refusals: [] });
  });

  it('ACC-113 the deletion-check does not return allowed: true for an entry that has a reversal or is one', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const rev = await reverse(p.id);
    const a = await check(p.id, CONTROLLER);
    expect(a.status).toBe(200);
    expect(a.data.allowed).toBe(false);
    expect(codes(a)).toEqual(['entry_has_reversal']);
    const b = await check(rev.id, CONTROLLER);
    expect(b.data.allowed).toBe(false);
    expect(codes(b)).toEqual(['entry_is_reversal']);
    expect((await h.call('POST', `/v1/journal-entries/${rev.id}/post`, CONTROLLER, { data: {} })).status).toBe(200);
    expect(codes(await check(rev.id, ADMIN))).toEqual(['entry_is_reversal']);
    expect(codes(await check(p.id, ADMIN))).toEqual(['entry_has_reversal']);
  });

  it('ACC-114 the deletion-check does not return allowed: true when a related entry is missing or differs in payment_id or legal entity', async () => {
    const l = await h.ledger();
    const l2 = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const otherPayment = await paymentEntry(l, randomUUID());
    const unlinked = await h.posted(l);
    const elsewhere = await paymentEntry(l2, pid);
    const missing = await check(a.id, PAYMENTS, [b.id, randomUUID()]);
    expect(missing.status).toBe(200);
    expect(missing.data.allowed).toBe(false);
    expect(codes(missing)).toEqual(['related_entry_not_found']);
    for (const wrong of [otherPayment.id, unlinked.id, elsewhere.id]) {
      const r = await check(a.id, PAYMENTS, [b.id, wrong]);
      expect(r.status).toBe(200);
      expect(r.data.allowed).toBe(false);
      expect(codes(r)).toEqual(['related_entry_mismatch']);
    }
  });

  it('ACC-115 the deletion-check changes nothing: entries, lines and snapshots unchanged and no event emitted', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid);
    const b = await paymentEntry(l, pid);
    const p = await h.posted(l);
    const rev = await reverse(p.id);
    const before = await h.state();
    const outboxBefore = (await h.events()).length;
    for (const [id, as, related] of [
      [a.id, PAYMENTS, [b.id]],
      [a.id, CONTROLLER, [b.id]],
      [p.id, CONTROLLER, []],
      [rev.id, ADMIN, []],
      [a.id, PAYMENTS, [randomUUID()]],
    ] as const) {
      expect((await check(id, as, [...related])).status).toBe(200);
    }
    expect(await h.state()).toEqual(before);
    expect((await h.events()).length).toBe(outboxBefore);
    await expectPresent(a.id, b.id, p.id, rev.id);
  });
});

// ---- journal_entry.deleted -------------------------------------------------------------------

describe('journal_entry.deleted', () => {
  it('ACC-224 ACC-225 ACC-226 ACC-227 ACC-228 ACC-229 ACC-230 one event per removed entry, lines/reason/time/why on the restricted destination only', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const a = await paymentEntry(l, pid, { amount: 400 });
    const b = await paymentEntry(l, pid, { amount: 600 });
    const c = await paymentEntry(l, pid, { draft: true, amount: 50 });
    const ids = [a.id, b.id, c.id];
    const full = new Map<string, { lines: unknown[] }>();
    for (const id of ids) full.set(id, (await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER)).data);
    const reason = 'Tenant card chargeback 7Q2X';
    const why = { code: 'payment_voided', detail: 'Bank reported the card payment as fraudulent' };
    const outboxBefore = await h.count('outbox');
    const r = await del(a.id, PAYMENTS, { reason, related_entry_ids: [b.id, c.id] }, undefined, why);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const deletedAt = r.data.deleted_at as string;
    expect(deletedAt).toBe(h.now().toISOString());

    const events = await deletedEvents(ids);
    const pub = events.filter((e) => !e.restricted);
    const restricted = events.filter((e) => e.restricted);
    // ACC-224: n removed entries -> n events (on each destination), one per entry.
    expect(pub.map((e) => e.payload.data.entry_id).sort()).toEqual([...ids].sort());
    expect(restricted.map((e) => e.payload.data.entry_id).sort()).toEqual([...ids].sort());
    expect(await h.count('outbox')).toBe(outboxBefore + 2 * ids.length);

    for (const e of restricted) {
      const id = e.payload.data.entry_id as string;
      // ACC-230: a separate restricted fan-out destination.
      expect(e.subject).toBe('restricted.accounting.journal_entry.deleted');
      expect(e.payload.data).toMatchObject({
        legal_entity_id: l.entity.id,
        payment_id: pid,
        lines: full.get(id)?.lines, // ACC-225
        reason, // ACC-226
        deleted_at: deletedAt, // ACC-227
        why, // ACC-228
      });
      expect(e.payload.data.snapshot).toEqual(full.get(id));
    }
    for (const e of pub) {
      // ACC-229: the non-personal feed carries neither the reason nor the snapshot.
      expect(e.subject).toBe('accounting.journal_entry.deleted');
      expect(e.subject.startsWith('restricted.')).toBe(false);
      expect(e.payload.data).not.toHaveProperty('reason');
      expect(e.payload.data).not.toHaveProperty('snapshot');
      const text = JSON.stringify(e.payload);
      expect(text).not.toContain(reason);
      expect(text).not.toContain(why.detail);
      expect(e.payload.data.deleted_at).toBe(deletedAt);
      expect(e.payload.data.why_code).toBe('payment_voided');
    }
    // Nothing on any non-restricted subject carries the reason.
    const everyPublic = (await h.events()).filter((e) => !e.restricted);
    for (const e of everyPublic) expect(JSON.stringify(e.payload)).not.toContain(reason);
  });

  it('ACC-224 ACC-228 a refused DELETE emits no journal_entry.deleted; a DELETE without why carries why null', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const rev = await reverse(p.id);
    const n = (await h.events('journal_entry.deleted')).length;
    expect((await del(rev.id, CONTROLLER)).status).toBe(409);
    expect((await h.events('journal_entry.deleted')).length).toBe(n);
    const d = await h.draft(l);
    expect((await del(d.id, CONTROLLER, { reason: 'Typo' })).status).toBe(200);
    const ev = await deletedEvents([d.id]);
    expect(ev).toHaveLength(2);
    const restricted = ev.find((e) => e.restricted);
    expect(restricted?.payload.data).toMatchObject({ reason: 'Typo', why: null });
  });
});
