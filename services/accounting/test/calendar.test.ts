import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lockEntityExclusive } from '../src/store/locks.ts';
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
  SUPERADMIN,
  SUPERLABEL,
} from './harness.ts';

const DEFAULT_NOW = '2025-06-15T12:00:00Z';
/** Signed-in people and services without controller or platform-admin access. */
const NOT_CONTROLLERS = [SENIOR, ACCOUNTANT, STAFF, SUPERLABEL, 'someone@example.com', PAYMENTS, BILLING];

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
});
afterAll(async () => h.close_());
afterEach(() => h.setNow(DEFAULT_NOW));

type Ledger = Awaited<ReturnType<Harness['ledger']>>;

const current = (entityId: string, as = CONTROLLER) =>
  h.call('GET', `/v1/period-calendar/current?legal_entity_id=${entityId}`, as);

const setup = (entityId: string, data: Record<string, unknown>, as = CONTROLLER, key?: string | null) =>
  h.call('POST', `/v1/legal-entities/${entityId}/calendar`, as, { data }, key);

/** `why` null sends no why at all. */
const correctTz = (
  entityId: string,
  timezone: string,
  why: unknown = { detail: 'Wrong zone at setup' },
  as = CONTROLLER,
  key?: string | null,
) =>
  h.call(
    'POST',
    `/v1/legal-entities/${entityId}/calendar/timezone`,
    as,
    why === null ? { data: { timezone } } : { data: { timezone }, why },
    key,
  );

/** `why` null sends no why at all. */
const correctStart = (
  entityId: string,
  books_start_month: string,
  why: unknown = { detail: 'Books start was wrong' },
  as = CONTROLLER,
  key?: string | null,
) =>
  h.call(
    'POST',
    `/v1/legal-entities/${entityId}/calendar/books-start`,
    as,
    why === null ? { data: { books_start_month } } : { data: { books_start_month }, why },
    key,
  );

async function historyCount(entityId: string) {
  const r = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM period_history WHERE legal_entity_id = ${entityId}::uuid`.execute(h.db);
  return r.rows[0].n;
}

const entityEvents = async (type: string, entityId: string) =>
  (await h.events(type)).filter((e) => e.payload.data.legal_entity_id === entityId);

const getEntry = async (id: string) => (await h.call('GET', `/v1/journal-entries/${id}`, CONTROLLER)).data;

/** Runs `request` while another transaction holds the entity's exclusive lock (and, on PGlite, the only connection). */
async function whileEntityLocked<T>(entityId: string, request: () => Promise<T>): Promise<T> {
  let out!: T;
  await h.db.transaction().execute(async (trx) => {
    await lockEntityExclusive(trx, entityId);
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the request waited for the entity lock')), 20_000);
    });
    try {
      out = await Promise.race([request(), stuck]);
    } finally {
      clearTimeout(timer);
    }
  });
  return out;
}

describe('calendar setup', () => {
  it('ACC-116 calendar setup stores the timezone and books start month, returned by the current-calendar read', async () => {
    const e = await h.entity();
    const r = await setup(e.id, { timezone: 'Europe/Berlin', books_start_month: '2025-03-01' });
    expect(r.status).toBe(201);
    const c = await current(e.id);
    expect(c.status).toBe(200);
    expect(c.data.timezone).toBe('Europe/Berlin');
    expect(c.data.books_start_month).toBe('2025-03-01');
  });

  it('ACC-117 calendar setup without an Idempotency-Key is refused and stores nothing', async () => {
    const e = await h.entity();
    const before = await h.state();
    const r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' }, CONTROLLER, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
    expect((await current(e.id)).errors[0].code).toBe('period_calendar_not_configured');
  });

  it('ACC-118 a timezone that is not a valid IANA name is 422 invalid_timezone and stores nothing', async () => {
    const e = await h.entity();
    for (const timezone of ['Mars/Olympus_Mons', 'Not a zone', '+02:00', 'GMT+2', 'Europe/Nowhere']) {
      const before = await h.state();
      const r = await setup(e.id, { timezone, books_start_month: '2025-01-01' });
      expect(r.status, timezone).toBe(422);
      expect(r.errors[0].code, timezone).toBe('invalid_timezone');
      expect(await h.state()).toEqual(before);
    }
    expect((await current(e.id)).status).toBe(422);
  });

  it('ACC-119 a books_start_month that is not the first day of a month is 422 invalid_books_start_month and stores nothing', async () => {
    const e = await h.entity();
    for (const books_start_month of ['2025-03-15', '2025-01-31', '2025-02-02']) {
      const before = await h.state();
      const r = await setup(e.id, { timezone: 'UTC', books_start_month });
      expect(r.status, books_start_month).toBe(422);
      expect(r.errors[0].code).toBe('invalid_books_start_month');
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-120 a books_start_month later than the current month in that timezone is 422 invalid_books_start_month and stores nothing', async () => {
    const e = await h.entity();
    let before = await h.state();
    let r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-07-01' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_books_start_month');
    expect(await h.state()).toEqual(before);

    // 2025-06-30T20:00Z is already 1 July in Auckland (UTC+12) but still June in UTC.
    h.setNow('2025-06-30T20:00:00Z');
    before = await h.state();
    r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-07-01' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_books_start_month');
    expect(await h.state()).toEqual(before);
    r = await setup(e.id, { timezone: 'Pacific/Auckland', books_start_month: '2025-08-01' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_books_start_month');
    expect(await h.state()).toEqual(before);

    r = await setup(e.id, { timezone: 'Pacific/Auckland', books_start_month: '2025-07-01' });
    expect(r.status).toBe(201);
    expect(r.data.books_start_month).toBe('2025-07-01');
    expect(r.data.open_month).toBe('2025-07-01');
  });

  it('ACC-121 a second setup of a configured entity is 409 calendar_already_configured and the calendar is unchanged', async () => {
    const e = await h.entity();
    await setup(e.id, { timezone: 'Europe/Paris', books_start_month: '2025-02-01' });
    const before = await h.state();
    const r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('calendar_already_configured');
    expect(await h.state()).toEqual(before);
    const c = await current(e.id);
    expect(c.data.timezone).toBe('Europe/Paris');
    expect(c.data.books_start_month).toBe('2025-02-01');
  });

  it('ACC-122 setup for an inactive legal entity is 422 and stores nothing', async () => {
    const e = await h.entity({ status: 'inactive' });
    const before = await h.state();
    const r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' });
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('legal_entity_inactive');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-123 ACC-233 a setup commits the calendar with one period.calendar_configured event; a failed setup leaves neither', async () => {
    const e = await h.entity();
    let before = await h.state();
    let r = await setup(e.id, { timezone: 'Nowhere/Else', books_start_month: '2025-01-01' });
    expect(r.status).toBe(422);
    expect(await h.state()).toEqual(before);
    expect(await entityEvents('period.calendar_configured', e.id)).toHaveLength(0);

    r = await setup(e.id, { timezone: 'America/Chicago', books_start_month: '2025-04-01' });
    expect(r.status).toBe(201);
    const rows = await sql<{
      timezone: string;
    }>`SELECT timezone FROM calendars WHERE legal_entity_id = ${e.id}::uuid`.execute(h.db);
    expect(rows.rows).toEqual([{ timezone: 'America/Chicago' }]);
    const events = await entityEvents('period.calendar_configured', e.id);
    expect(events).toHaveLength(1);
    expect(events[0].payload.data).toMatchObject({
      legal_entity_id: e.id,
      timezone: 'America/Chicago',
      books_start_month: '2025-04-01',
    });

    // A setup that fails after the entity was found (already configured) leaves neither either.
    before = await h.state();
    r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' });
    expect(r.status).toBe(409);
    expect(await h.state()).toEqual(before);
    expect(await entityEvents('period.calendar_configured', e.id)).toHaveLength(1);
  });

  it('ACC-233 one period.calendar_configured event per configured entity', async () => {
    const a = await h.entity();
    const b = await h.entity();
    await setup(a.id, { timezone: 'UTC', books_start_month: '2025-01-01' });
    await setup(b.id, { timezone: 'Asia/Tokyo', books_start_month: '2025-05-01' });
    const ea = await entityEvents('period.calendar_configured', a.id);
    const eb = await entityEvents('period.calendar_configured', b.id);
    expect(ea).toHaveLength(1);
    expect(eb).toHaveLength(1);
    expect(eb[0].payload.data).toMatchObject({ timezone: 'Asia/Tokyo', books_start_month: '2025-05-01' });
  });

  it('ACC-124 the same setup command replays its original response with no second event', async () => {
    const e = await h.entity();
    const key = randomUUID();
    const body = { timezone: 'Europe/Madrid', books_start_month: '2025-02-01' };
    const first = await setup(e.id, body, CONTROLLER, key);
    expect(first.status).toBe(201);
    const after = await h.state();
    const replay = await setup(e.id, body, CONTROLLER, key);
    expect(replay.status).toBe(201);
    expect(replay.data).toEqual(first.data);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await h.state()).toEqual(after);
    expect(await entityEvents('period.calendar_configured', e.id)).toHaveLength(1);
  });

  it('ACC-125 a setup whose books start leaves a gap before existing closed months is refused and stores nothing', async () => {
    const e = await h.entity();
    await h.legacyClosures(e.id, ['2025-03-01', '2025-04-01']);
    for (const books_start_month of ['2025-01-01', '2025-02-01']) {
      const before = await h.state();
      const r = await setup(e.id, { timezone: 'UTC', books_start_month });
      expect(r.status, books_start_month).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(await h.state()).toEqual(before);
    }
    expect((await current(e.id)).errors[0].code).toBe('period_calendar_not_configured');
    // A start that continues into the closed months is accepted.
    const ok = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-03-01' });
    expect(ok.status).toBe(201);
  });

  it('ACC-122 ACC-147 setup and corrections of an unknown legal entity are 404 legal_entity_not_found and store nothing', async () => {
    const unknown = randomUUID();
    const before = await h.state();
    const results = [
      await setup(unknown, { timezone: 'UTC', books_start_month: '2025-01-01' }),
      await correctTz(unknown, 'Europe/Paris'),
      await correctStart(unknown, '2025-02-01'),
      await current(unknown),
    ];
    for (const r of results) {
      expect(r.status).toBe(404);
      expect(r.errors[0].code).toBe('legal_entity_not_found');
    }
    expect(await h.state()).toEqual(before);
  });

  it('ACC-214 calendar setup succeeds for a controller and a platform admin; other people and services get 403 and nothing is stored', async () => {
    for (const as of NOT_CONTROLLERS) {
      const e = await h.entity();
      const before = await h.state();
      const r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' }, as);
      expect(r.status, as).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    for (const as of [CONTROLLER, ADMIN]) {
      const e = await h.entity();
      const r = await setup(e.id, { timezone: 'UTC', books_start_month: '2025-01-01' }, as);
      expect(r.status, as).toBe(201);
      expect((await current(e.id)).data.timezone).toBe('UTC');
    }
  });
});

describe('timezone correction', () => {
  it('ACC-126 a timezone correction changes the timezone returned by the current-calendar read', async () => {
    const l = await h.ledger();
    const r = await correctTz(l.entity.id, 'Europe/Lisbon');
    expect(r.status).toBe(200);
    expect(r.data.timezone).toBe('Europe/Lisbon');
    expect((await current(l.entity.id)).data.timezone).toBe('Europe/Lisbon');
  });

  it('ACC-127 a timezone correction without an Idempotency-Key is refused and nothing changes', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const r = await correctTz(l.entity.id, 'Europe/Lisbon', undefined, CONTROLLER, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-128 a timezone correction without why.detail is 422 reason_required', async () => {
    const l = await h.ledger();
    for (const why of [null, {}, { code: 'fix' }]) {
      const before = await h.state();
      const r = await correctTz(l.entity.id, 'Europe/Lisbon', why);
      expect(r.status, JSON.stringify(why)).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
      expect(await h.state()).toEqual(before);
    }
    expect((await current(l.entity.id)).data.timezone).toBe('UTC');
  });

  it('ACC-129 a blank why.detail on a timezone correction is 422 reason_required', async () => {
    const l = await h.ledger();
    for (const detail of ['', '   ', '\t\n ']) {
      const before = await h.state();
      const r = await correctTz(l.entity.id, 'Europe/Lisbon', { detail });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-130 reason_required on a timezone correction comes with no write or event and does not wait for the entity lock', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const events = (await h.events()).length;
    const results = await whileEntityLocked(l.entity.id, async () => [
      await correctTz(l.entity.id, 'Europe/Lisbon', { detail: '   ' }),
      await correctTz(l.entity.id, 'Europe/Lisbon', null),
    ]);
    for (const r of results) {
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
    }
    expect(await h.state()).toEqual(before);
    expect((await h.events()).length).toBe(events);
    expect((await current(l.entity.id)).data.timezone).toBe('UTC');
  });

  it('ACC-131 a timezone correction to a name that is not IANA is 422 invalid_timezone and the timezone is unchanged', async () => {
    const l = await h.ledger();
    for (const tz of ['Europe/Atlantis', 'UTC+02:00', 'EST5EDT-nope']) {
      const before = await h.state();
      const r = await correctTz(l.entity.id, tz);
      expect(r.status, tz).toBe(422);
      expect(r.errors[0].code).toBe('invalid_timezone');
      expect(await h.state()).toEqual(before);
    }
    expect((await current(l.entity.id)).data.timezone).toBe('UTC');
  });

  it('ACC-132 ACC-138 right after a correction local_date and open_month are computed in the new timezone; open_month can move back a month', async () => {
    h.setNow('2025-07-01T02:00:00Z');
    const l = await h.ledger();
    const c0 = await current(l.entity.id);
    expect(c0.data).toMatchObject({ local_date: '2025-07-01', open_month: '2025-07-01' });
    const r = await correctTz(l.entity.id, 'America/New_York');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ timezone: 'America/New_York', local_date: '2025-06-30', open_month: '2025-06-01' });
    const c1 = await current(l.entity.id);
    expect(c1.data).toMatchObject({ timezone: 'America/New_York', local_date: '2025-06-30', open_month: '2025-06-01' });
    // And forward again: Tokyo is already 1 July 11:00.
    const r2 = await correctTz(l.entity.id, 'Asia/Tokyo');
    expect(r2.data).toMatchObject({ local_date: '2025-07-01', open_month: '2025-07-01' });
  });

  it('ACC-133 a reversal made after a correction without entry_date gets the local date in the new timezone', async () => {
    h.setNow('2025-07-01T02:00:00Z');
    const l = await h.ledger();
    const a = await h.posted(l);
    const b = await h.posted(l);
    const before = await h.call('POST', `/v1/journal-entries/${a.id}/reverse`, CONTROLLER, { data: {} });
    expect(before.status).toBe(201);
    expect(before.data.transaction_date).toBe('2025-07-01');
    expect((await correctTz(l.entity.id, 'America/New_York')).status).toBe(200);
    const after = await h.call('POST', `/v1/journal-entries/${b.id}/reverse`, CONTROLLER, { data: {} });
    expect(after.status).toBe(201);
    expect(after.data.transaction_date).toBe('2025-06-30');
  });

  it('ACC-134 ACC-135 ACC-136 ACC-137 a correction restates no dates and keeps the books start, the closed months and the postings', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    expect((await h.close(l.entity.id)).status).toBe(200);
    const posted = await h.posted(l, { transaction_date: '2025-06-03' });
    const pastPosted = await h.posted(l, { transaction_date: '2025-05-20', post_month: '2025-03-01' });
    const draft = await h.draft(l, { transaction_date: '2025-06-01' });
    const entriesBefore = await Promise.all([posted.id, pastPosted.id, draft.id].map(getEntry));
    const closedBefore = await h.closedOf(l.entity.id);
    const historyBefore = await historyCount(l.entity.id);
    const calBefore = (await current(l.entity.id)).data;

    const r = await correctTz(l.entity.id, 'Pacific/Kiritimati');
    expect(r.status).toBe(200);

    const entriesAfter = await Promise.all([posted.id, pastPosted.id, draft.id].map(getEntry));
    for (let i = 0; i < entriesBefore.length; i++) {
      expect(entriesAfter[i].created_at).toBe(entriesBefore[i].created_at);
      expect(entriesAfter[i].transaction_date).toBe(entriesBefore[i].transaction_date);
      expect(entriesAfter[i].post_month).toBe(entriesBefore[i].post_month);
      expect(entriesAfter[i].status).toBe(entriesBefore[i].status);
    }
    expect(entriesAfter[0].post_month).toBe('2025-06-01');
    expect(entriesAfter[1].post_month).toBe('2025-03-01');
    const calAfter = (await current(l.entity.id)).data;
    expect(calAfter.books_start_month).toBe(calBefore.books_start_month);
    expect(calAfter.timezone).toBe('Pacific/Kiritimati');
    expect(await h.closedOf(l.entity.id)).toEqual(closedBefore);
    expect(closedBefore).toEqual(['2025-01-01', '2025-02-01']);
    expect(await historyCount(l.entity.id)).toBe(historyBefore);
  });

  it('ACC-139 after a backward move the soft-closed month is Open again while postings to the later month keep it', async () => {
    h.setNow('2025-07-01T02:00:00Z');
    const l = await h.ledger();
    const july = await h.posted(l, { as: ACCOUNTANT });
    expect(july.post_month).toBe('2025-07-01');
    expect((await correctTz(l.entity.id, 'America/New_York')).data.open_month).toBe('2025-06-01');
    expect((await getEntry(july.id)).post_month).toBe('2025-07-01');
    // June is Open again: an accountant posts there by default.
    const june = await h.posted(l, { as: ACCOUNTANT });
    expect(june.post_month).toBe('2025-06-01');
    expect((await getEntry(july.id)).post_month).toBe('2025-07-01');
  });

  it('ACC-140 a correction that would make a hard-closed month current is 422 current_period_closed and the timezone is unchanged', async () => {
    h.setNow('2025-07-01T02:00:00Z');
    const l = await h.ledger({ books_start_month: '2025-04-01' });
    for (let i = 0; i < 3; i++) expect((await h.close(l.entity.id)).status).toBe(200);
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-04-01', '2025-05-01', '2025-06-01']);
    const before = await h.state();
    const r = await correctTz(l.entity.id, 'America/New_York');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('current_period_closed');
    expect(await h.state()).toEqual(before);
    expect((await current(l.entity.id)).data).toMatchObject({ timezone: 'UTC', open_month: '2025-07-01' });
  });

  it('ACC-141 a correction that would leave the closed months not a continuous run is 422 invalid_closed_period_prefix and the timezone is unchanged', async () => {
    const l = await h.ledger();
    await h.legacyClosures(l.entity.id, ['2025-01-01', '2025-03-01']);
    const before = await h.state();
    const r = await correctTz(l.entity.id, 'Europe/Paris');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_closed_period_prefix');
    expect(await h.state()).toEqual(before);
    expect((await current(l.entity.id)).data.timezone).toBe('UTC');
  });

  it('ACC-215 timezone correction is for a controller or platform admin; other people and services get 403 and nothing changes', async () => {
    const l = await h.ledger();
    for (const as of NOT_CONTROLLERS) {
      const before = await h.state();
      const r = await correctTz(l.entity.id, 'Europe/Rome', undefined, as);
      expect(r.status, as).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    expect((await correctTz(l.entity.id, 'Europe/Rome', undefined, CONTROLLER)).status).toBe(200);
    expect((await correctTz(l.entity.id, 'Europe/Vienna', undefined, ADMIN)).status).toBe(200);
    expect((await current(l.entity.id)).data.timezone).toBe('Europe/Vienna');
  });

  it('ACC-234 ACC-235 ACC-236 each applied correction emits one period.calendar_timezone_changed with the previous and new timezone and the reason', async () => {
    const l = await h.ledger();
    await correctTz(l.entity.id, 'Europe/Oslo', { code: 'setup_error', detail: 'Entity is in Norway' });
    await correctTz(l.entity.id, 'Europe/Stockholm', { detail: 'Actually Sweden' }, ADMIN);
    const events = await entityEvents('period.calendar_timezone_changed', l.entity.id);
    expect(events).toHaveLength(2);
    expect(events[0].payload.data).toMatchObject({
      previous_timezone: 'UTC',
      new_timezone: 'Europe/Oslo',
      reason: 'Entity is in Norway',
      actor_fid: fid(CONTROLLER),
    });
    expect(events[1].payload.data).toMatchObject({
      previous_timezone: 'Europe/Oslo',
      new_timezone: 'Europe/Stockholm',
      reason: 'Actually Sweden',
      actor_fid: fid(ADMIN),
    });
    // A refused correction emits nothing.
    await correctTz(l.entity.id, 'Europe/Nowhere', { detail: 'typo' });
    expect(await entityEvents('period.calendar_timezone_changed', l.entity.id)).toHaveLength(2);
  });
});

describe('books-start correction', () => {
  it('ACC-142 a books-start correction changes the books_start_month returned by the current-calendar read', async () => {
    const l = await h.ledger({ books_start_month: '2025-03-01' });
    const r = await correctStart(l.entity.id, '2024-11-01');
    expect(r.status).toBe(200);
    expect(r.data.books_start_month).toBe('2024-11-01');
    expect((await current(l.entity.id)).data.books_start_month).toBe('2024-11-01');
    const later = await correctStart(l.entity.id, '2025-05-01');
    expect(later.status).toBe(200);
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-05-01');
  });

  it('ACC-143 a books-start correction without an Idempotency-Key is refused and nothing changes', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const r = await correctStart(l.entity.id, '2025-02-01', undefined, CONTROLLER, null);
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-144 a books-start correction without why.detail is 422 reason_required', async () => {
    const l = await h.ledger();
    for (const why of [null, {}, { code: 'fix' }]) {
      const before = await h.state();
      const r = await correctStart(l.entity.id, '2025-02-01', why);
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-145 a blank why.detail on a books-start correction is 422 reason_required', async () => {
    const l = await h.ledger();
    for (const detail of ['', '  ', '\n']) {
      const before = await h.state();
      const r = await correctStart(l.entity.id, '2025-02-01', { detail });
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
      expect(await h.state()).toEqual(before);
    }
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-01-01');
  });

  it('ACC-146 reason_required on a books-start correction comes with no write or event and does not wait for the entity lock', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const events = (await h.events()).length;
    const results = await whileEntityLocked(l.entity.id, async () => [
      await correctStart(l.entity.id, '2025-02-01', { detail: ' ' }),
      await correctStart(l.entity.id, '2025-02-01', null),
    ]);
    for (const r of results) {
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('reason_required');
    }
    expect(await h.state()).toEqual(before);
    expect((await h.events()).length).toBe(events);
  });

  it('ACC-147 a books-start correction on an entity without a calendar is refused and nothing changes', async () => {
    const e = await h.entity();
    const before = await h.state();
    const r = await correctStart(e.id, '2025-02-01');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('period_calendar_not_configured');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-148 a books-start correction on an inactive entity is 422 and nothing changes', async () => {
    const l = await h.ledger();
    await sql`UPDATE legal_entities SET status = 'inactive' WHERE id = ${l.entity.id}::uuid`.execute(h.db);
    const before = await h.state();
    const r = await correctStart(l.entity.id, '2025-02-01');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('legal_entity_inactive');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-149 a new start that is not the first day of a month is 422 invalid_books_start_month and nothing changes', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const r = await correctStart(l.entity.id, '2025-02-15');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_books_start_month');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-150 a new start later than the current entity-local month is 422 invalid_books_start_month and nothing changes', async () => {
    const utc = await h.ledger();
    const before = await h.state();
    for (const m of ['2025-07-01', '2026-01-01']) {
      const r = await correctStart(utc.entity.id, m);
      expect(r.status).toBe(422);
      expect(r.errors[0].code).toBe('invalid_books_start_month');
    }
    expect(await h.state()).toEqual(before);
    // The current month counts in the entity's timezone: 1 July already in Auckland, still June in UTC.
    h.setNow('2025-06-30T20:00:00Z');
    const nz = await h.ledger({ timezone: 'Pacific/Auckland' });
    const refused = await correctStart(utc.entity.id, '2025-07-01');
    expect(refused.status).toBe(422);
    expect(refused.errors[0].code).toBe('invalid_books_start_month');
    const ok = await correctStart(nz.entity.id, '2025-07-01');
    expect(ok.status).toBe(200);
    expect(ok.data.books_start_month).toBe('2025-07-01');
  });

  it('ACC-151 ACC-152 moving the start past the post_month of a posted entry is 422 books_start_excludes_postings; exclusion is judged by post month', async () => {
    const l = await h.ledger();
    // Transaction date in June, posted by a controller into the soft-closed February.
    const feb = await h.posted(l, { transaction_date: '2025-06-05', post_month: '2025-02-01' });
    expect(feb.post_month).toBe('2025-02-01');
    const before = await h.state();
    for (const m of ['2025-03-01', '2025-06-01']) {
      const r = await correctStart(l.entity.id, m);
      expect(r.status, m).toBe(422);
      expect(r.errors[0].code).toBe('books_start_excludes_postings');
      expect(await h.state()).toEqual(before);
    }
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-01-01');
    // Not excluding it (the start moves to its post month) is allowed.
    expect((await correctStart(l.entity.id, '2025-02-01')).status).toBe(200);

    // An entry dated in January but posted into June does not block a move to March.
    const other = await h.ledger();
    const junePosted = await h.posted(other, { transaction_date: '2025-01-10' });
    expect(junePosted.post_month).toBe('2025-06-01');
    const moved = await correctStart(other.entity.id, '2025-03-01');
    expect(moved.status).toBe(200);
    expect(moved.data.books_start_month).toBe('2025-03-01');
  });

  it('ACC-153 a legacy posted entry without post_month blocks by its entry date', async () => {
    const l = await h.ledger();
    await sql`INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, status)
      VALUES (${randomUUID()}::uuid, ${l.entity.id}::uuid, 'Legacy import', '2025-02-10', 'posted')`.execute(h.db);
    const before = await h.state();
    const r = await correctStart(l.entity.id, '2025-03-01');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('books_start_excludes_postings');
    expect(await h.state()).toEqual(before);
    // Its entry date's month itself is still inside the books.
    expect((await correctStart(l.entity.id, '2025-02-01')).status).toBe(200);
  });

  it('ACC-154 a draft dated before the new start does not block the move', async () => {
    const l = await h.ledger();
    const d = await h.draft(l, { transaction_date: '2025-01-05' });
    const r = await correctStart(l.entity.id, '2025-04-01');
    expect(r.status).toBe(200);
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-04-01');
    expect((await getEntry(d.id)).status).toBe('draft');
  });

  it('ACC-155 the resulting closed months must run continuously from the new start, else 422 invalid_closed_period_prefix', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200);
    expect((await h.close(l.entity.id)).status).toBe(200);
    let before = await h.state();
    // December 2024 would be open while January and February are closed.
    let r = await correctStart(l.entity.id, '2024-12-01');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_closed_period_prefix');
    expect(await h.state()).toEqual(before);

    const gap = await h.ledger();
    await h.legacyClosures(gap.entity.id, ['2025-01-01', '2025-03-01']);
    before = await h.state();
    r = await correctStart(gap.entity.id, '2025-02-01');
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('invalid_closed_period_prefix');
    expect(await h.state()).toEqual(before);
    // From March the closed months are one run.
    r = await correctStart(gap.entity.id, '2025-03-01');
    expect(r.status).toBe(200);
  });

  it('ACC-156 a correction whose closed months would reach the current month is refused and nothing changes', async () => {
    const l = await h.ledger({ books_start_month: '2025-04-01' });
    await h.legacyClosures(l.entity.id, ['2025-04-01', '2025-05-01', '2025-06-01']);
    const before = await h.state();
    const r = await correctStart(l.entity.id, '2025-05-01');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(await h.state()).toEqual(before);
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-04-01');
  });

  it('ACC-216 books-start correction is for a controller or platform admin; other people and services get 403 and nothing changes', async () => {
    const l = await h.ledger();
    for (const as of NOT_CONTROLLERS) {
      const before = await h.state();
      const r = await correctStart(l.entity.id, '2025-02-01', undefined, as);
      expect(r.status, as).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      expect(await h.state()).toEqual(before);
    }
    expect((await correctStart(l.entity.id, '2025-02-01', undefined, CONTROLLER)).status).toBe(200);
    expect((await correctStart(l.entity.id, '2025-03-01', undefined, ADMIN)).status).toBe(200);
    expect((await current(l.entity.id)).data.books_start_month).toBe('2025-03-01');
  });

  it('ACC-237 ACC-238 ACC-239 ACC-240 each applied books-start correction emits one event with the previous and new start, the actor and the reason', async () => {
    const l = await h.ledger();
    await correctStart(l.entity.id, '2025-03-01', { code: 'fix', detail: 'Books begin in March' });
    await correctStart(l.entity.id, '2024-10-01', { detail: 'Imported last year too' }, ADMIN);
    const events = await entityEvents('period.calendar_books_start_changed', l.entity.id);
    expect(events).toHaveLength(2);
    expect(events[0].payload.data).toMatchObject({
      previous_books_start_month: '2025-01-01',
      new_books_start_month: '2025-03-01',
      actor_fid: fid(CONTROLLER),
      reason: 'Books begin in March',
    });
    expect(events[1].payload.data).toMatchObject({
      previous_books_start_month: '2025-03-01',
      new_books_start_month: '2024-10-01',
      actor_fid: fid(ADMIN),
      reason: 'Imported last year too',
    });
    // A refused correction emits nothing.
    await correctStart(l.entity.id, '2030-01-01', { detail: 'too late' });
    expect(await entityEvents('period.calendar_books_start_changed', l.entity.id)).toHaveLength(2);
  });

  it('ACC-241 a books-start correction to the unchanged value emits nothing', async () => {
    const l = await h.ledger({ books_start_month: '2025-02-01' });
    const r = await correctStart(l.entity.id, '2025-02-01');
    expect(r.status).toBe(200);
    expect(r.data.books_start_month).toBe('2025-02-01');
    expect(await entityEvents('period.calendar_books_start_changed', l.entity.id)).toHaveLength(0);
  });
});

describe('current calendar read', () => {
  let ny: Ledger;
  beforeAll(async () => {
    ny = await h.ledger({ timezone: 'America/New_York', books_start_month: '2025-02-01' });
  });

  it('ACC-157 ACC-158 ACC-159 ACC-160 the read returns the calendar of the queried entity in the read shape', async () => {
    const r = await current(ny.entity.id);
    expect(r.status).toBe(200);
    expect(Object.keys(r.data).sort()).toEqual([
      'books_start_month',
      'legal_entity_id',
      'local_date',
      'open_month',
      'timezone',
    ]);
    expect(r.data.legal_entity_id).toBe(ny.entity.id);
    expect(r.data.timezone).toBe('America/New_York');
    expect(Intl.supportedValuesOf('timeZone')).toContain(r.data.timezone);
    expect(r.data.books_start_month).toBe('2025-02-01');
    expect(r.data.books_start_month).toMatch(/^\d{4}-\d{2}-01$/);
    expect(r.data.local_date).toBe('2025-06-15');
    expect(r.data.open_month).toBe('2025-06-01');
    // Another entity answers with its own calendar.
    const other = await h.ledger({ timezone: 'Asia/Kolkata' });
    const o = await current(other.entity.id);
    expect(o.data.legal_entity_id).toBe(other.entity.id);
    expect(o.data.timezone).toBe('Asia/Kolkata');
  });

  it('ACC-161 ACC-162 local_date is the entity-local date, and open_month its month, where UTC is already on another date', async () => {
    h.setNow('2025-07-01T03:59:59Z');
    const r = await current(ny.entity.id);
    expect(r.data.local_date).toBe('2025-06-30');
    expect(r.data.open_month).toBe('2025-06-01');
    h.setNow('2025-03-10T02:30:00Z');
    const m = await current(ny.entity.id);
    expect(m.data.local_date).toBe('2025-03-09');
    expect(m.data.open_month).toBe('2025-03-01');
  });

  it('ACC-163 open_month changes at entity-local midnight on the 1st with no job running', async () => {
    h.setNow('2025-07-01T03:59:59Z');
    const before = await current(ny.entity.id);
    expect(before.data).toMatchObject({ local_date: '2025-06-30', open_month: '2025-06-01' });
    h.setNow('2025-07-01T04:00:00Z');
    const after = await current(ny.entity.id);
    expect(after.data).toMatchObject({ local_date: '2025-07-01', open_month: '2025-07-01' });
    // Winter time: local midnight of 1 December is 05:00Z.
    h.setNow('2025-12-01T04:59:59Z');
    expect((await current(ny.entity.id)).data.open_month).toBe('2025-11-01');
    h.setNow('2025-12-01T05:00:00Z');
    expect((await current(ny.entity.id)).data.open_month).toBe('2025-12-01');
  });

  it('ACC-164 the current-period read of an entity without a calendar is 422 period_calendar_not_configured', async () => {
    const e = await h.entity();
    const r = await current(e.id);
    expect(r.status).toBe(422);
    expect(r.errors[0].code).toBe('period_calendar_not_configured');
  });

  it('ACC-164 the read is open to staff and services but still needs a configured calendar', async () => {
    const e = await h.entity();
    for (const as of [STAFF, PAYMENTS, SUPERADMIN]) {
      const r = await current(e.id, as);
      expect(r.status, as).toBe(422);
      expect(r.errors[0].code).toBe('period_calendar_not_configured');
    }
  });
});

describe('calendar decisions (docs/decisions.md)', () => {
  it('ACC-118 ACC-159 a timezone differing from IANA only by case is stored in IANA spelling; raw offsets are refused', async () => {
    const e = await h.entity();
    const r = await h.call('POST', `/v1/legal-entities/${e.id}/calendar`, CONTROLLER, {
      data: { timezone: 'europe/berlin', books_start_month: '2025-01-01' },
    });
    expect(r.status).toBe(201);
    expect(r.data.timezone).toBe('Europe/Berlin');
    const e2 = await h.entity();
    const before = await h.state();
    const offset = await h.call('POST', `/v1/legal-entities/${e2.id}/calendar`, CONTROLLER, {
      data: { timezone: '+02:00', books_start_month: '2025-01-01' },
    });
    expect(offset.status).toBe(422);
    expect(offset.errors[0].code).toBe('invalid_timezone');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-125 ACC-175 setup over legacy closures that reach the current month is 422 current_period_closed until they are reopened', async () => {
    const e = await h.entity();
    await h.legacyClosures(e.id, ['2025-05-01', '2025-06-01']);
    const before = await h.state();
    const refused = await h.call('POST', `/v1/legal-entities/${e.id}/calendar`, CONTROLLER, {
      data: { timezone: 'UTC', books_start_month: '2025-05-01' },
    });
    expect(refused.status).toBe(422);
    expect(refused.errors[0].code).toBe('current_period_closed');
    expect(await h.state()).toEqual(before);
    const reopened = await h.call('POST', '/v1/periods/reopen', CONTROLLER, {
      data: { legal_entity_id: e.id, year: 2025, month: 6 },
      why: { detail: 'legacy closure of the current month' },
    });
    expect(reopened.status).toBe(200);
    const ok = await h.call('POST', `/v1/legal-entities/${e.id}/calendar`, CONTROLLER, {
      data: { timezone: 'UTC', books_start_month: '2025-05-01' },
    });
    expect(ok.status).toBe(201);
    expect(await h.closedOf(e.id)).toEqual(['2025-05-01']);
  });
});
