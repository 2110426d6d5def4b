import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER, type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // Open month 2025-06; April and May are soft-closed, so a controller may post there.
  h = await harness({ now: '2025-06-15T12:00:00Z' });
});
afterAll(async () => h.close_());

type Ledger = Awaited<ReturnType<Harness['ledger']>>;

const get = async (url: string) => {
  const r = await h.call('GET', url, CONTROLLER);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data;
};
const balance = async (l: Ledger, accountId: string, asOf?: string) =>
  (await get(
    `/v1/accounts/${accountId}/balance?legal_entity_id=${l.entity.id}${asOf ? `&as_of_month=${asOf}` : ''}`,
  )) as {
    debit: number;
    credit: number;
    balance: number;
  };
const consolidated = async (chartCode: string, asOf?: string) => {
  const d = await get(`/v1/balances/consolidated?chart_code=${chartCode}${asOf ? `&as_of_month=${asOf}` : ''}`);
  return d as {
    accounts: { account_id: string; debit: number; credit: number; balance: number }[];
    legal_entity_ids: string[];
  };
};
const consolidatedOf = async (chartCode: string, accountId: string, asOf?: string) =>
  (await consolidated(chartCode, asOf)).accounts.find((a) => a.account_id === accountId)?.balance ?? 0;
const trialBalance = async (l: Ledger, from?: string, to?: string) =>
  (await get(
    `/v1/trial-balance?legal_entity_id=${l.entity.id}${from ? `&from_date=${from}` : ''}${to ? `&to_date=${to}` : ''}`,
  )) as {
    accounts: {
      account_id: string;
      classification: string;
      debit: number;
      credit: number;
      balance: number;
      opening_balance: number;
      closing_balance: number;
    }[];
    totals: { debit: number; credit: number };
    from_month: string | null;
    to_month: string | null;
  };
const balanceSheet = async (l: Ledger, asOf?: string) =>
  (await get(`/v1/balance-sheet?legal_entity_id=${l.entity.id}${asOf ? `&as_of_month=${asOf}` : ''}`)) as {
    assets: { accounts: { account_id: string; balance: number }[]; total: number };
    liabilities: { accounts: { account_id: string; balance: number }[]; total: number };
    equity: { accounts: { account_id: string; balance: number }[]; total: number };
    retained_earnings: number;
    total_liabilities_and_equity: number;
  };
const listIds = async (query: string) => {
  const d = (await get(`/v1/journal-entries?pagination[pageSize]=100&${query}`)) as { id: string }[];
  return d.map((e) => e.id).sort();
};

/** A posted row written straight into the tables, as a historical import would: no source, no post_month. */
async function legacyPosted(l: Ledger, transactionDate: string, amount: number) {
  const id = randomUUID();
  await sql`INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, status)
            VALUES (${id}, ${l.entity.id}, 'Imported history', ${transactionDate}, 'posted')`.execute(h.db);
  await sql`INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount) VALUES
            (${randomUUID()}, ${id}, 1, ${l.cash.id}, 'debit', ${amount}),
            (${randomUUID()}, ${id}, 2, ${l.revenue.id}, 'credit', ${amount})`.execute(h.db);
  return id;
}

describe('drafts stay out of balances and reports', () => {
  it('ACC-039 a draft changes no account balance and no consolidated balance', async () => {
    const l = await h.ledger();
    await h.posted(l, { amount: 1000 });
    const before = {
      cash: await balance(l, l.cash.id),
      cashJune: await balance(l, l.cash.id, '2025-06'),
      revenue: await balance(l, l.revenue.id),
      consolidated: await consolidated(l.chart),
      consolidatedJune: await consolidated(l.chart, '2025-06'),
    };
    expect(before.cash.balance).toBe(1000);
    await h.draft(l, { amount: 777 });
    await h.draft(l, { amount: 55, transaction_date: '2025-05-03' });
    expect(await balance(l, l.cash.id)).toEqual(before.cash);
    expect(await balance(l, l.cash.id, '2025-06')).toEqual(before.cashJune);
    expect(await balance(l, l.revenue.id)).toEqual(before.revenue);
    expect(await consolidated(l.chart)).toEqual(before.consolidated);
    expect(await consolidated(l.chart, '2025-06')).toEqual(before.consolidatedJune);
    expect(await consolidatedOf(l.chart, l.cash.id)).toBe(1000);
  });

  it("ACC-040 a draft's lines appear in no trial balance or balance sheet", async () => {
    const l = await h.ledger();
    const onlyDrafts = await h.account({
      chart_code: l.chart,
      code: '1500',
      classification: 'asset',
      name: 'Draft only',
    });
    await h.posted(l, { amount: 1000 });
    // A draft on an account nothing is posted to, and one on the posted accounts.
    const r = await h.call('POST', '/v1/journal-entries', CONTROLLER, {
      data: {
        legal_entity_id: l.entity.id,
        description: 'Not yet posted',
        transaction_date: '2025-06-11',
        lines: h.lines(onlyDrafts.id, l.revenue.id, 400),
      },
    });
    expect(r.status).toBe(201);
    await h.draft(l, { amount: 250 });

    const tb = await trialBalance(l);
    expect(tb.accounts.map((a) => a.account_id).sort()).toEqual([l.cash.id, l.revenue.id].sort());
    expect(tb.totals).toEqual({ debit: 1000, credit: 1000 });
    const june = await trialBalance(l, '2025-06-01', '2025-06-30');
    expect(june.totals).toEqual({ debit: 1000, credit: 1000 });

    const bs = await balanceSheet(l);
    expect(bs.assets.accounts.map((a) => a.account_id)).toEqual([l.cash.id]);
    expect(bs.assets.total).toBe(1000);
    expect(bs.retained_earnings).toBe(1000);
    expect(JSON.stringify(await balanceSheet(l, '2025-06'))).not.toContain(onlyDrafts.id);
  });
});

describe('reporting by posting month', () => {
  it('ACC-193 an entry dated in one month and posted into the next counts in the posting month', async () => {
    const l = await h.ledger();
    // Dated in May, posted without a chosen month: into the Open month, June.
    const p = await h.posted(l, { transaction_date: '2025-05-20', amount: 300 });
    expect(p.post_month).toBe('2025-06-01');

    expect((await balance(l, l.cash.id, '2025-05')).balance).toBe(0);
    expect((await balance(l, l.cash.id, '2025-06')).balance).toBe(300);
    expect(await consolidatedOf(l.chart, l.cash.id, '2025-05')).toBe(0);
    expect(await consolidatedOf(l.chart, l.cash.id, '2025-06')).toBe(300);

    const may = await trialBalance(l, '2025-05-01', '2025-05-31');
    expect(may.accounts).toEqual([]);
    expect(may.totals).toEqual({ debit: 0, credit: 0 });
    const june = await trialBalance(l, '2025-06-01', '2025-06-30');
    expect(june.totals).toEqual({ debit: 300, credit: 300 });

    expect((await balanceSheet(l, '2025-05')).assets.total).toBe(0);
    expect((await balanceSheet(l, '2025-06')).assets.total).toBe(300);
  });

  it('ACC-194 ACC-027 a legacy posted row inserted directly without post_month counts in its entry date month, and reads as source generated', async () => {
    const l = await h.ledger();
    const id = await legacyPosted(l, '2025-03-10', 450);

    const read = await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER);
    expect(read.status).toBe(200);
    expect(read.data.source).toBe('generated');
    expect(read.data.status).toBe('posted');
    expect(read.data.post_month).toBeUndefined();

    expect((await balance(l, l.cash.id, '2025-02')).balance).toBe(0);
    expect((await balance(l, l.cash.id, '2025-03')).balance).toBe(450);
    expect((await balance(l, l.revenue.id, '2025-03')).balance).toBe(450);
    expect(await consolidatedOf(l.chart, l.cash.id, '2025-02')).toBe(0);
    expect(await consolidatedOf(l.chart, l.cash.id, '2025-03')).toBe(450);

    expect((await trialBalance(l, '2025-02-01', '2025-02-28')).totals).toEqual({ debit: 0, credit: 0 });
    expect((await trialBalance(l, '2025-03-01', '2025-03-31')).totals).toEqual({ debit: 450, credit: 450 });
    expect((await trialBalance(l, '2025-04-01', '2025-06-30')).totals).toEqual({ debit: 0, credit: 0 });

    expect((await balanceSheet(l, '2025-02')).assets.total).toBe(0);
    expect((await balanceSheet(l, '2025-03')).assets.total).toBe(450);
  });

  it('ACC-195 the account balance read answers as of the posting month given as as_of_month=YYYY-MM', async () => {
    const l = await h.ledger();
    await h.posted(l, { transaction_date: '2025-04-10', post_month: '2025-04-01', amount: 100 });
    await h.posted(l, { transaction_date: '2025-06-10', amount: 20 });
    const april = await balance(l, l.cash.id, '2025-04');
    expect(april).toMatchObject({ as_of_month: '2025-04', debit: 100, credit: 0, balance: 100 });
    expect((await balance(l, l.cash.id, '2025-03')).balance).toBe(0);
    expect((await balance(l, l.cash.id, '2025-05')).balance).toBe(100);
    expect((await balance(l, l.cash.id, '2025-06')).balance).toBe(120);
    expect((await balance(l, l.revenue.id, '2025-04')).balance).toBe(100);

    const bad = await h.call(
      'GET',
      `/v1/accounts/${l.cash.id}/balance?legal_entity_id=${l.entity.id}&as_of_month=2025-04-01`,
      CONTROLLER,
    );
    expect(bad.status).toBe(422);
    expect(bad.errors[0].code).toBe('validation_failed');
  });

  it('ACC-196 the consolidated balance read answers as of the posting month given as as_of_month=YYYY-MM, across the chart entities', async () => {
    const a = await h.ledger();
    const other = await h.entity({ chart_code: a.chart });
    await h.calendar(other.id);
    const b = { ...a, entity: other };
    await h.posted(a, { transaction_date: '2025-04-10', post_month: '2025-04-01', amount: 100 });
    await h.posted(b, { transaction_date: '2025-05-10', post_month: '2025-05-01', amount: 30 });
    await h.posted(b, { transaction_date: '2025-06-02', amount: 7 });

    const april = await consolidated(a.chart, '2025-04');
    expect(april.legal_entity_ids.sort()).toEqual([a.entity.id, other.id].sort());
    expect(await consolidatedOf(a.chart, a.cash.id, '2025-03')).toBe(0);
    expect(await consolidatedOf(a.chart, a.cash.id, '2025-04')).toBe(100);
    expect(await consolidatedOf(a.chart, a.cash.id, '2025-05')).toBe(130);
    expect(await consolidatedOf(a.chart, a.cash.id, '2025-06')).toBe(137);
    expect(await consolidatedOf(a.chart, a.revenue.id, '2025-05')).toBe(130);

    const bad = await h.call('GET', `/v1/balances/consolidated?chart_code=${a.chart}&as_of_month=2025-4`, CONTROLLER);
    expect(bad.status).toBe(422);
  });

  it('ACC-197 as_of_month includes every entry posted into that month, whatever its transaction day', async () => {
    const l = await h.ledger();
    await h.posted(l, { transaction_date: '2025-04-01', post_month: '2025-04-01', amount: 1 });
    await h.posted(l, { transaction_date: '2025-04-30', post_month: '2025-04-01', amount: 10 });
    await h.posted(l, { transaction_date: '2025-03-15', post_month: '2025-04-01', amount: 100 });
    await h.posted(l, { transaction_date: '2025-05-01', post_month: '2025-05-01', amount: 1000 });
    expect((await balance(l, l.cash.id, '2025-04')).balance).toBe(111);
    expect(await consolidatedOf(l.chart, l.cash.id, '2025-04')).toBe(111);
    expect((await balanceSheet(l, '2025-04')).assets.total).toBe(111);
    expect((await balance(l, l.cash.id, '2025-03')).balance).toBe(0);
    expect((await balance(l, l.cash.id, '2025-05')).balance).toBe(1111);
  });
});

describe('journal lists', () => {
  it('ACC-198 ACC-199 each listed entry carries post_month and occurred_on', async () => {
    const l = await h.ledger();
    const a = await h.posted(l, { transaction_date: '2025-05-20' });
    const b = await h.posted(l, { transaction_date: '2025-06-03', post_month: '2025-06-01' });
    const d = (await get(`/v1/journal-entries?legal_entity_id=${l.entity.id}&status=posted`)) as Record<
      string,
      unknown
    >[];
    expect(d.map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
    for (const e of d) {
      expect(e.post_month).toBe('2025-06-01');
      expect(e.occurred_on).toBe(e.transaction_date);
      expect(e.occurred_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(d.find((e) => e.id === a.id)?.occurred_on).toBe('2025-05-20');
    // A draft is listed with occurred_on too (it has no post_month yet, ACC-036).
    const draft = await h.draft(l, { transaction_date: '2025-06-12' });
    const drafts = (await get(`/v1/journal-entries?legal_entity_id=${l.entity.id}&status=draft`)) as Record<
      string,
      unknown
    >[];
    expect(drafts.map((e) => e.id)).toEqual([draft.id]);
    expect(drafts[0].occurred_on).toBe('2025-06-12');
  });

  it('ACC-200 from_post_month and to_post_month bound the posting month (inclusive)', async () => {
    const l = await h.ledger();
    const apr = await h.posted(l, { transaction_date: '2025-04-10', post_month: '2025-04-01' });
    const may = await h.posted(l, { transaction_date: '2025-04-20', post_month: '2025-05-01' });
    const jun = await h.posted(l, { transaction_date: '2025-05-30' });
    const e = `legal_entity_id=${l.entity.id}`;
    expect(await listIds(`${e}&from_post_month=2025-05-01&to_post_month=2025-05-01`)).toEqual([may.id]);
    expect(await listIds(`${e}&from_post_month=2025-05-01`)).toEqual([may.id, jun.id].sort());
    expect(await listIds(`${e}&to_post_month=2025-05-01`)).toEqual([apr.id, may.id].sort());
    expect(await listIds(`${e}&from_post_month=2025-07-01`)).toEqual([]);
    const bad = await h.call('GET', `/v1/journal-entries?${e}&from_post_month=2025-05-15`, CONTROLLER);
    expect(bad.status).toBe(422);
  });

  it('ACC-201 from_date and to_date bound the transaction date (inclusive)', async () => {
    const l = await h.ledger();
    const apr = await h.posted(l, { transaction_date: '2025-04-10', post_month: '2025-06-01' });
    const may = await h.posted(l, { transaction_date: '2025-05-10' });
    const jun = await h.draft(l, { transaction_date: '2025-06-10' });
    const e = `legal_entity_id=${l.entity.id}`;
    expect(await listIds(`${e}&from_date=2025-05-01&to_date=2025-05-31`)).toEqual([may.id]);
    expect(await listIds(`${e}&from_date=2025-05-10&to_date=2025-05-10`)).toEqual([may.id]);
    expect(await listIds(`${e}&from_date=2025-05-11`)).toEqual([jun.id]);
    expect(await listIds(`${e}&to_date=2025-05-10`)).toEqual([apr.id, may.id].sort());
  });

  it('ACC-202 trial-balance date bounds in the middle of a month include that whole month', async () => {
    const l = await h.ledger();
    await h.posted(l, { transaction_date: '2025-04-28', post_month: '2025-04-01', amount: 1 });
    await h.posted(l, { transaction_date: '2025-05-02', post_month: '2025-05-01', amount: 10 });
    await h.posted(l, { transaction_date: '2025-05-29', post_month: '2025-05-01', amount: 100 });
    await h.posted(l, { transaction_date: '2025-06-14', amount: 1000 });

    const mid = await trialBalance(l, '2025-05-20', '2025-05-20');
    expect(mid.from_month).toBe('2025-05-01');
    expect(mid.to_month).toBe('2025-05-01');
    expect(mid.totals).toEqual({ debit: 110, credit: 110 });

    const span = await trialBalance(l, '2025-04-30', '2025-06-01');
    expect(span.totals).toEqual({ debit: 1111, credit: 1111 });
    expect((await trialBalance(l, '2025-05-31')).totals).toEqual({ debit: 1110, credit: 1110 });
    expect((await trialBalance(l, undefined, '2025-04-01')).totals).toEqual({ debit: 1, credit: 1 });
  });

  it('14.11 ACC-193 ACC-202 the trial balance adds opening and closing balances per account: closing = opening + activity, and the closing column ties to the balance sheet at the end month', async () => {
    const l = await h.ledger();
    const acct = (code: string, classification: string, name: string) =>
      h.account({ chart_code: l.chart, code, classification, name });
    const deposit = await acct('1200', 'asset', 'Deposit');
    const loan = await acct('2000', 'liability', 'Loan');
    const capital = await acct('3000', 'equity', 'Capital');
    const costs = await acct('5000', 'expense', 'Repairs');
    /** Posts `amount` debiting one account and crediting another, into a posting month. */
    const post = (debit: { id: string }, credit: { id: string }, amount: number, month: string) =>
      h.posted({ entity: l.entity, cash: debit, revenue: credit }, { amount, post_month: month });
    await post(l.cash, l.revenue, 1000, '2025-04-01');
    await post(costs, l.cash, 300, '2025-04-01');
    await post(deposit, l.cash, 150, '2025-04-01'); // no activity in May: an opening balance only
    await post(l.cash, loan, 5000, '2025-05-01');
    await post(l.cash, capital, 2000, '2025-05-01');
    await post(costs, l.cash, 40, '2025-05-01');
    await post(l.cash, l.revenue, 700, '2025-06-01'); // after the end month

    const tb = await trialBalance(l, '2025-05-10', '2025-05-20');
    // The activity figures are as before: May only.
    expect(tb.totals).toEqual({ debit: 7040, credit: 7040 });
    const row = (id: string) => tb.accounts.find((a) => a.account_id === id);
    expect(row(l.cash.id)).toMatchObject({ opening_balance: 550, balance: 6960, closing_balance: 7510 });
    expect(row(deposit.id)).toMatchObject({ debit: 0, credit: 0, opening_balance: 150, closing_balance: 150 });
    expect(row(l.revenue.id)).toMatchObject({ opening_balance: 1000, balance: 0, closing_balance: 1000 });
    expect(row(costs.id)).toMatchObject({ opening_balance: 300, balance: 40, closing_balance: 340 });
    for (const a of tb.accounts) expect(a.closing_balance, a.account_id).toBe(a.opening_balance + a.balance);

    // The closing column is the balance sheet as of the end month, account by account, and
    // revenue less expenses is its retained earnings.
    const bs = await balanceSheet(l, '2025-05');
    const sheet = [...bs.assets.accounts, ...bs.liabilities.accounts, ...bs.equity.accounts];
    const closing = tb.accounts.filter((a) => ['asset', 'liability', 'equity'].includes(a.classification));
    const pairs = (xs: { account_id: string }[], f: (x: never) => number) =>
      xs.map((x) => [x.account_id, f(x as never)]).sort();
    expect(pairs(closing, (a: { closing_balance: number }) => a.closing_balance)).toEqual(
      pairs(sheet, (a: { balance: number }) => a.balance),
    );
    const sum = (c: string) =>
      tb.accounts.filter((a) => a.classification === c).reduce((s, a) => s + a.closing_balance, 0);
    expect(sum('revenue') - sum('expense')).toBe(bs.retained_earnings);

    // Without from_date nothing comes before: opening is 0 and closing is the activity.
    for (const a of (await trialBalance(l, undefined, '2025-05-31')).accounts) {
      expect(a.opening_balance).toBe(0);
      expect(a.closing_balance).toBe(a.balance);
    }
  });
});
