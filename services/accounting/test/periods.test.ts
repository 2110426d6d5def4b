import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTANT,
  ADMIN,
  BILLING,
  CONTROLLER,
  fid,
  type Harness,
  harness,
  PAYMENTS,
  SENIOR,
  STAFF,
  SUPERLABEL,
} from './harness.ts';

const DEFAULT_NOW = '2025-06-15T12:00:00Z';
const NOT_CONTROLLERS = [SENIOR, ACCOUNTANT, STAFF, SUPERLABEL, 'someone@example.com', PAYMENTS, BILLING];

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

const current = (entityId: string) =>
  h.call('GET', `/v1/period-calendar/current?legal_entity_id=${entityId}`, CONTROLLER);

/** `why` null sends no why at all. */
const reopen = (
  entityId: string,
  year: number,
  month: number,
  why: unknown = { detail: 'Late invoice found' },
  as = CONTROLLER,
  key?: string | null,
) =>
  h.call(
    'POST',
    '/v1/periods/reopen',
    as,
    why === null
      ? { data: { legal_entity_id: entityId, year, month } }
      : { data: { legal_entity_id: entityId, year, month }, why },
    key,
  );

const history = (entityId: string, query = '', as = CONTROLLER) =>
  h.call('GET', `/v1/periods/history?legal_entity_id=${entityId}${query}`, as);

describe('months: close and reopen', () => {
  it("ACC-165 a month is Open when it is the entity's current month by the entity-local date", async () => {
    // 2025-06-30T20:00Z: still June in UTC, already 1 July in Auckland.
    h.setNow('2025-06-30T20:00:00Z');
    const utc = await h.ledger({ books_start_month: '2025-06-01' });
    const nz = await h.ledger({ timezone: 'Pacific/Auckland', books_start_month: '2025-06-01' });
    expect((await current(utc.entity.id)).data.open_month).toBe('2025-06-01');
    expect((await current(nz.entity.id)).data.open_month).toBe('2025-07-01');
    // June is the current (Open) month in UTC, so it cannot be closed; in Auckland it is past.
    const u = await h.close(utc.entity.id);
    expect(u.status).toBe(409);
    expect(u.errors[0].code).toBe('current_period_not_closable');
    const n = await h.close(nz.entity.id);
    expect(n.status).toBe(200);
    expect(n.data.closed_month).toBe('2025-06-01');
    // A default posting lands in the Open month.
    expect((await h.posted(utc, { as: ACCOUNTANT })).post_month).toBe('2025-06-01');
    expect((await h.posted(nz, { as: ACCOUNTANT })).post_month).toBe('2025-07-01');
  });

  it('ACC-166 close and reopen without an Idempotency-Key are refused and change nothing', async () => {
    const l = await h.ledger();
    let before = await h.state();
    const c = await h.call('POST', '/v1/periods/close', CONTROLLER, { data: { legal_entity_id: l.entity.id } }, null);
    expect(c.status).toBe(400);
    expect(c.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);

    expect((await h.close(l.entity.id)).status).toBe(200);
    before = await h.state();
    const r = await reopen(l.entity.id, 2025, 1, undefined, CONTROLLER, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01']);
  });

  it('ACC-167 close on an entity without a calendar is refused and closes nothing', async () => {
    const e = await h.entity();
    const before = await h.state();
    const r = await h.close(e.id);
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('period_calendar_not_configured');
    expect(await h.state()).toEqual(before);
    expect(await h.closedOf(e.id)).toEqual([]);
  });

  it('ACC-168 close closes the earliest unclosed past month and period history shows it', async () => {
    const l = await h.ledger({ books_start_month: '2025-03-01' });
    const r = await h.close(l.entity.id);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ legal_entity_id: l.entity.id, closed_month: '2025-03-01' });
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-03-01']);
    let hist = await history(l.entity.id);
    expect(hist.data).toHaveLength(1);
    expect(hist.data[0]).toMatchObject({ event_type: 'close', year: 2025, month: 3 });

    const r2 = await h.close(l.entity.id);
    expect(r2.data.closed_month).toBe('2025-04-01');
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-03-01', '2025-04-01']);
    hist = await history(l.entity.id);
    expect(hist.data[0]).toMatchObject({ event_type: 'close', year: 2025, month: 4 });
  });

  it('14.9 ACC-168 close with an unexpected month is 409 unexpected_close_month and closes nothing', async () => {
    const l = await h.ledger({ books_start_month: '2025-03-01' });
    const closeMonth = (month: string) =>
      h.call('POST', '/v1/periods/close', CONTROLLER, { data: { legal_entity_id: l.entity.id, month } });
    const first = await closeMonth('2025-03-01');
    expect(first.status).toBe(200);
    expect(first.data.closed_month).toBe('2025-03-01');

    // The double click: the same close again, under its own Idempotency-Key, closes nothing more.
    const before = await h.state();
    const again = await closeMonth('2025-03-01');
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('unexpected_close_month');
    expect(await h.state()).toEqual(before);
    // A month ahead of the next one to close is refused the same way.
    expect((await closeMonth('2025-05-01')).errors[0].code).toBe('unexpected_close_month');
    expect(await h.state()).toEqual(before);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-03-01']);

    // The month this close would close goes through; data.month is the spec's first-of-month form.
    expect((await closeMonth('2025-04-01')).data.closed_month).toBe('2025-04-01');
    const bad = await closeMonth('2025-05-15');
    expect(bad.status).toBe(422);
    expect(bad.errors[0].code).toBe('validation_failed');
    // Without data.month close works as before.
    expect((await h.close(l.entity.id)).data.closed_month).toBe('2025-05-01');
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-03-01', '2025-04-01', '2025-05-01']);
  });

  it('ACC-169 when every past month is closed, close is refused and no history record is added', async () => {
    const l = await h.ledger({ books_start_month: '2025-04-01' });
    expect((await h.close(l.entity.id)).status).toBe(200);
    expect((await h.close(l.entity.id)).status).toBe(200);
    const before = await h.state();
    const r = await h.close(l.entity.id);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('current_period_not_closable');
    expect(await h.state()).toEqual(before);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-04-01', '2025-05-01']);
    expect((await history(l.entity.id)).data).toHaveLength(2);
  });

  it('ACC-170 a gap in recorded closures blocks closing and adds no history record', async () => {
    const l = await h.ledger();
    await h.legacyClosures(l.entity.id, ['2025-01-01', '2025-03-01']);
    const before = await h.state();
    const r = await h.close(l.entity.id);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('closed_period_gap');
    expect(await h.state()).toEqual(before);
    expect((await history(l.entity.id)).data).toHaveLength(0);
  });

  it('ACC-171 ACC-188 a close made without a reason has an empty reason in its history record', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    // A why without detail is no reason either.
    expect(
      (
        await h.call('POST', '/v1/periods/close', CONTROLLER, {
          data: { legal_entity_id: l.entity.id },
          why: { code: 'month_end' },
        })
      ).status,
    ).toBe(200);
    const hist = await history(l.entity.id);
    expect(hist.data).toHaveLength(2);
    for (const rec of hist.data) {
      expect(rec.event_type).toBe('close');
      expect(rec.reason).toBe('');
    }
  });

  it('ACC-172 a reopen without why.detail is refused and reopens nothing', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    for (const why of [null, {}, { code: 'fix' }, { detail: '' }, { detail: '   ' }]) {
      const before = await h.state();
      const r = await reopen(l.entity.id, 2025, 1, why);
      expect(r.status, JSON.stringify(why)).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
      expect(await h.state()).toEqual(before);
    }
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01']);
  });

  it('ACC-173 ACC-174 reopening a month reopens every later closed month with one history record each', async () => {
    const l = await h.ledger();
    for (let i = 0; i < 4; i++) expect((await h.close(l.entity.id)).status).toBe(200);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01']);
    const r = await reopen(l.entity.id, 2025, 2, { detail: 'Missing accruals' });
    expect(r.status).toBe(200);
    expect(r.data.reopened_months).toEqual(['2025-02-01', '2025-03-01', '2025-04-01']);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01']);
    const hist = (await history(l.entity.id)).data as {
      event_type: string;
      year: number;
      month: number;
      reason: string;
    }[];
    const reopens = hist.filter((x) => x.event_type === 'reopen');
    expect(reopens).toHaveLength(3);
    expect(reopens.map((x) => x.month).sort()).toEqual([2, 3, 4]);
    expect(reopens.every((x) => x.year === 2025)).toBe(true);
    expect(hist.filter((x) => x.event_type === 'close')).toHaveLength(4);

    // Reopening the last closed month alone adds one record.
    const one = await reopen(l.entity.id, 2025, 1);
    expect(one.data.reopened_months).toEqual(['2025-01-01']);
    expect(
      (await history(l.entity.id)).data.filter((x: { event_type: string }) => x.event_type === 'reopen'),
    ).toHaveLength(4);
    expect(await h.closedOf(l.entity.id)).toEqual([]);
  });

  it('ACC-173 reopening a month that is not closed is 409 period_not_closed and changes nothing', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    const before = await h.state();
    const r = await reopen(l.entity.id, 2025, 3);
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('period_not_closed');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-175 reopening the current month among legacy closures removes it and every later closure', async () => {
    const l = await h.ledger();
    await h.legacyClosures(l.entity.id, [
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
      '2025-07-01',
      '2025-08-01',
    ]);
    const r = await reopen(l.entity.id, 2025, 6, { detail: 'Legacy closures reached the current month' });
    expect(r.status).toBe(200);
    expect(r.data.reopened_months).toEqual(['2025-06-01', '2025-07-01', '2025-08-01']);
    expect(await h.closedOf(l.entity.id)).toEqual([
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
      '2025-04-01',
      '2025-05-01',
    ]);
    const hist = (await history(l.entity.id)).data;
    expect(hist).toHaveLength(3);
    expect(hist.map((x: { month: number }) => x.month).sort()).toEqual([6, 7, 8]);
    // Closing works again from where the run ends: June is current, so nothing is closable.
    expect((await h.close(l.entity.id)).errors[0].code).toBe('current_period_not_closable');
  });

  it('ACC-176 reopening legacy closures of the current month works before calendar configuration', async () => {
    const e = await h.entity();
    await h.legacyClosures(e.id, ['2025-05-01', '2025-06-01', '2025-07-01']);
    const r = await reopen(e.id, 2025, 6, { detail: 'Clean up before setup' });
    expect(r.status).toBe(200);
    expect(r.data.reopened_months).toEqual(['2025-06-01', '2025-07-01']);
    expect(await h.closedOf(e.id)).toEqual(['2025-05-01']);
    expect((await current(e.id)).errors[0].code).toBe('period_calendar_not_configured');
    const hist = (await history(e.id)).data;
    expect(hist).toHaveLength(2);
    // The entity can now be configured with its books starting at the remaining closed run.
    const setup = await h.call('POST', `/v1/legal-entities/${e.id}/calendar`, CONTROLLER, {
      data: { timezone: 'UTC', books_start_month: '2025-05-01' },
    });
    expect(setup.status).toBe(201);
  });

  it('ACC-217 close and reopen are for a controller or admin; other people and services get 403 and nothing changes', async () => {
    const l = await h.ledger();
    for (const as of NOT_CONTROLLERS) {
      const before = await h.state();
      const c = await h.close(l.entity.id, as);
      expect(c.status, as).toBe(403);
      expect(c.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    expect((await h.close(l.entity.id, CONTROLLER)).status).toBe(200);
    expect((await h.close(l.entity.id, ADMIN)).status).toBe(200);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01', '2025-02-01']);
    for (const as of NOT_CONTROLLERS) {
      const before = await h.state();
      const r = await reopen(l.entity.id, 2025, 1, undefined, as);
      expect(r.status, as).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    expect((await reopen(l.entity.id, 2025, 2, undefined, ADMIN)).status).toBe(200);
    expect((await reopen(l.entity.id, 2025, 1, undefined, CONTROLLER)).status).toBe(200);
    expect(await h.closedOf(l.entity.id)).toEqual([]);
  });
});

describe('period history', () => {
  it('ACC-177 period history returns only the queried entity’s records', async () => {
    const a = await h.ledger();
    const b = await h.ledger();
    for (let i = 0; i < 3; i++) await h.close(a.entity.id);
    await h.close(b.entity.id);
    await reopen(a.entity.id, 2025, 3);
    const ha = await history(a.entity.id);
    const hb = await history(b.entity.id);
    expect(ha.status).toBe(200);
    expect(ha.data).toHaveLength(4);
    expect(ha.body.payload.meta.pagination.totalItems).toBe(4);
    expect(hb.data).toHaveLength(1);
    expect(hb.data[0]).toMatchObject({ event_type: 'close', year: 2025, month: 1 });
    const fresh = await h.ledger();
    expect((await history(fresh.entity.id)).data).toEqual([]);
  });

  it('ACC-178 ACC-186 records come newest first by occurred_at, each with its timestamp', async () => {
    const l = await h.ledger();
    const times = ['2025-06-10T08:00:00.000Z', '2025-06-11T09:30:00.000Z', '2025-06-12T10:45:00.000Z'];
    for (const t of times) {
      h.setNow(t);
      expect((await h.close(l.entity.id)).status).toBe(200);
    }
    h.setNow('2025-06-13T07:00:00.000Z');
    expect((await reopen(l.entity.id, 2025, 3)).status).toBe(200);
    const hist = (await history(l.entity.id)).data as { event_type: string; month: number; occurred_at: string }[];
    expect(hist.map((x) => [x.event_type, x.month, x.occurred_at])).toEqual([
      ['reopen', 3, '2025-06-13T07:00:00.000Z'],
      ['close', 3, '2025-06-12T10:45:00.000Z'],
      ['close', 2, '2025-06-11T09:30:00.000Z'],
      ['close', 1, '2025-06-10T08:00:00.000Z'],
    ]);
    for (const x of hist) {
      expect(typeof x.occurred_at).toBe('string');
      expect(Number.isNaN(Date.parse(x.occurred_at))).toBe(false);
      expect(x.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    }
  });

  it('ACC-179 ACC-180 ACC-181 history carries payload.meta.pagination; page and pageSize are the ones requested, page 1 by default', async () => {
    const l = await h.ledger();
    for (let i = 0; i < 5; i++) {
      h.setNow(`2025-06-1${i}T12:00:00Z`);
      expect((await h.close(l.entity.id)).status).toBe(200);
    }
    const all = (await history(l.entity.id)).data as { month: number }[];
    expect(all.map((x) => x.month)).toEqual([5, 4, 3, 2, 1]);

    const p2 = await history(l.entity.id, '&pagination[page]=2&pagination[pageSize]=2');
    expect(p2.status).toBe(200);
    expect(p2.body.payload.meta.pagination).toMatchObject({ page: 2, pageSize: 2, totalItems: 5 });
    expect(p2.data.map((x: { month: number }) => x.month)).toEqual([3, 2]);

    const p3 = await history(l.entity.id, '&pagination[page]=3&pagination[pageSize]=2');
    expect(p3.body.payload.meta.pagination).toMatchObject({ page: 3, pageSize: 2 });
    expect(p3.data.map((x: { month: number }) => x.month)).toEqual([1]);

    const first = await history(l.entity.id, '&pagination[pageSize]=2');
    expect(first.body.payload.meta.pagination).toMatchObject({ page: 1, pageSize: 2 });
    expect(first.data.map((x: { month: number }) => x.month)).toEqual([5, 4]);

    const plain = await history(l.entity.id);
    expect(plain.body.payload.meta.pagination).toBeDefined();
    expect(plain.body.payload.meta.pagination.page).toBe(1);
  });

  it('ACC-182 ACC-183 pageSize defaults to 25 and never exceeds 100', async () => {
    const l = await h.ledger();
    // 130 records written straight into the history table, one minute apart.
    const base = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < 130; i++) {
      await sql`INSERT INTO period_history (legal_entity_id, event_type, year, month, occurred_at, actor_fid, reason)
        VALUES (${l.entity.id}::uuid, ${i % 2 ? 'reopen' : 'close'}, 2024, ${(i % 12) + 1}, ${new Date(base + i * 60_000)}, ${fid(CONTROLLER)}, '')`.execute(
        h.db,
      );
    }
    const d = await history(l.entity.id);
    expect(d.data).toHaveLength(25);
    expect(d.body.payload.meta.pagination).toMatchObject({ page: 1, pageSize: 25, totalItems: 130 });
    expect(d.data[0].occurred_at).toBe(new Date(base + 129 * 60_000).toISOString());

    const max = await history(l.entity.id, '&pagination[pageSize]=100');
    expect(max.data).toHaveLength(100);
    const rest = await history(l.entity.id, '&pagination[page]=2&pagination[pageSize]=100');
    expect(rest.data).toHaveLength(30);

    const over = await history(l.entity.id, '&pagination[pageSize]=101');
    expect(over.status).toBe(422);
    expect(over.errors[0].code).toBe('validation_failed');
    const huge = await history(l.entity.id, '&pagination[pageSize]=1000');
    expect(huge.status).toBe(422);
  });

  it('ACC-184 ACC-185 ACC-186 ACC-187 ACC-188 a record has event_type close or reopen, integer year and month, occurred_at, actor_fid and reason', async () => {
    h.setNow('2025-06-20T09:15:00Z');
    const l = await h.ledger();
    expect((await h.close(l.entity.id, CONTROLLER)).status).toBe(200);
    expect((await h.close(l.entity.id, ADMIN)).status).toBe(200);
    expect((await reopen(l.entity.id, 2025, 2, { detail: 'Adjustments' }, ADMIN)).status).toBe(200);
    const r = await history(l.entity.id);
    const recs = r.data as Record<string, unknown>[];
    expect(recs).toHaveLength(3);
    for (const rec of recs) {
      expect(Object.keys(rec).sort()).toEqual(['actor_fid', 'event_type', 'month', 'occurred_at', 'reason', 'year']);
      expect(['close', 'reopen']).toContain(rec.event_type);
      expect(Number.isInteger(rec.year)).toBe(true);
      expect(Number.isInteger(rec.month)).toBe(true);
      expect(rec.year).toBe(2025);
      expect(rec.occurred_at).toBe('2025-06-20T09:15:00.000Z');
    }
    // Raw JSON: year and month are numbers, not strings.
    const raw = await h.app.inject({
      method: 'GET',
      url: `/v1/periods/history?legal_entity_id=${l.entity.id}`,
      headers: { 'x-dev-principal': CONTROLLER },
    });
    expect(raw.body).toMatch(/"year":2025,"month":[12][,}]/);
    const byMonthType = (t: string, m: number) => recs.find((x) => x.event_type === t && x.month === m);
    expect(byMonthType('close', 1)).toMatchObject({ actor_fid: fid(CONTROLLER), reason: '' });
    expect(byMonthType('close', 2)).toMatchObject({ actor_fid: fid(ADMIN), reason: '' });
    expect(byMonthType('reopen', 2)).toMatchObject({ actor_fid: fid(ADMIN), reason: 'Adjustments' });
  });

  it('ACC-189 close and reopen of an unknown entity are 404 legal_entity_not_found and write nothing', async () => {
    const unknown = randomUUID();
    const before = await h.state();
    const c = await h.close(unknown);
    expect(c.status).toBe(404);
    expect(c.errors[0].code).toBe('legal_entity_not_found');
    const r = await reopen(unknown, 2025, 1);
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('legal_entity_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-189 period history of an unknown entity is 404', async () => {
    const r = await history(randomUUID());
    expect(r.status).toBe(404);
    expect(r.errors[0].code).toBe('legal_entity_not_found');
  });
});
