import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTANT, ADMIN, type As, CONTROLLER, type Harness, harness, SENIOR, SUPERADMIN } from './harness.ts';

/**
 * Issue 14, item 5: the shared service token names a person the calling service vouches for, not
 * one who proved who they are, so it never carries their most powerful grants. In accounting
 * those are the actions that change which months are open to posting, or change or remove what
 * is already booked: calendar setup and corrections, close and reopen, deletion, and posting
 * into any month but Open. Each is 403 through the token, for a controller, a platform admin and
 * a verified Super Admin alike, with nothing written; the same person directly is let through.
 */
let h: Harness;
beforeAll(async () => {
  // June is Open; January..May are soft-closed unless closed.
  h = await harness({ now: '2025-06-15T12:00:00Z' });
});
afterAll(async () => h.close_());

const via = (email: string): As => ({ onBehalfOf: email });

/** Refused through the service token: 403 with `code`, and not a row changed. */
async function expectRefused(run: () => Promise<{ status: number; errors: { code: string }[] }>, code = 'forbidden') {
  const before = await h.state();
  const r = await run();
  expect(r.status, JSON.stringify(r.errors)).toBe(403);
  expect(r.errors[0]?.code).toBe(code);
  expect(await h.state()).toEqual(before);
}

describe('14.5 the service token carries no controller powers in accounting', () => {
  it('14.5 ACC-217 close and reopen through the service token are 403 for a controller, a platform admin and a Super Admin, nothing written; directly they close and reopen', async () => {
    const l = await h.ledger();
    const close = (as: As) => h.call('POST', '/v1/periods/close', as, { data: { legal_entity_id: l.entity.id } });
    const reopen = (as: As) =>
      h.call('POST', '/v1/periods/reopen', as, {
        data: { legal_entity_id: l.entity.id, year: 2025, month: 1 },
        why: { detail: 'Late invoice found' },
      });
    for (const who of [CONTROLLER, ADMIN, SUPERADMIN]) await expectRefused(() => close(via(who)));
    expect(await h.closedOf(l.entity.id)).toEqual([]);

    expect((await close(CONTROLLER)).status).toBe(200);
    for (const who of [CONTROLLER, ADMIN, SUPERADMIN]) await expectRefused(() => reopen(via(who)));
    expect(await h.closedOf(l.entity.id)).toEqual(['2025-01-01']);
    expect((await reopen(ADMIN)).status).toBe(200);
    expect(await h.closedOf(l.entity.id)).toEqual([]);
  });

  it('14.5 ACC-210 ACC-211 DELETE and the deletion-check through the service token are 403 for a controller and a platform admin, the entry kept; directly it is deleted', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const del = (as: As) =>
      h.call('DELETE', `/v1/journal-entries/${p.id}`, as, { data: { reason: 'Posted twice by mistake' } });
    for (const who of [CONTROLLER, ADMIN, SUPERADMIN]) {
      await expectRefused(() => del(via(who)));
      const check = await h.call('GET', `/v1/journal-entries/${p.id}/deletion-check`, via(who));
      expect(check.status).toBe(403);
    }
    expect((await h.call('GET', `/v1/journal-entries/${p.id}`, CONTROLLER)).status).toBe(200);
    const direct = await del(CONTROLLER);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(direct.data.deleted_entry_ids).toEqual([p.id]);
  });

  it('14.5 ACC-214 ACC-215 ACC-216 calendar setup and corrections through the service token are 403, nothing stored; directly they apply', async () => {
    const l = await h.ledger({ calendar: false });
    const setup = (as: As) =>
      h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar`, as, {
        data: { timezone: 'UTC', books_start_month: '2025-01-01' },
      });
    const timezone = (as: As) =>
      h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar/timezone`, as, {
        data: { timezone: 'Europe/Berlin' },
        why: { detail: 'Wrong zone at setup' },
      });
    const booksStart = (as: As) =>
      h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar/books-start`, as, {
        data: { books_start_month: '2025-02-01' },
        why: { detail: 'Books start was wrong' },
      });
    for (const who of [CONTROLLER, ADMIN, SUPERADMIN]) await expectRefused(() => setup(via(who)));
    expect((await setup(CONTROLLER)).status).toBe(201);
    for (const who of [CONTROLLER, ADMIN, SUPERADMIN]) {
      await expectRefused(() => timezone(via(who)));
      await expectRefused(() => booksStart(via(who)));
    }
    expect((await timezone(CONTROLLER)).status).toBe(200);
    expect((await booksStart(ADMIN)).status).toBe(200);
  });

  it('14.5 ACC-068 ACC-070 ACC-071 ACC-073 ACC-074 through the service token a post into any month but Open is 403 post_month_not_allowed and the entry stays a draft; directly the same people may', async () => {
    const l = await h.ledger();
    expect((await h.close(l.entity.id)).status).toBe(200); // January is closed
    const charge = { lineExtra: { charge_id: randomUUID() }, as: 'service:billing' };
    const cases: [string, string, typeof charge | undefined][] = [
      [CONTROLLER, '2025-05-01', undefined], // soft-closed (ACC-068)
      [CONTROLLER, '2025-07-01', undefined], // future (ACC-070)
      [SENIOR, '2025-08-01', undefined], // future (ACC-071)
      [SUPERADMIN, '2025-01-01', undefined], // closed (ACC-073)
      [SUPERADMIN, '2025-07-01', charge], // a future charge (ACC-074)
    ];
    for (const [who, month, opts] of cases) {
      const d = await h.draft(l, opts);
      const post = (as: As) => h.call('POST', `/v1/journal-entries/${d.id}/post?post_month=${month}`, as, { data: {} });
      await expectRefused(() => post(via(who)), 'post_month_not_allowed');
      expect((await h.call('GET', `/v1/journal-entries/${d.id}`, CONTROLLER)).data.status).toBe('draft');
      const direct = await post(who);
      expect(direct.status, `${who} ${month}: ${JSON.stringify(direct.errors)}`).toBe(200);
      expect(direct.data.post_month).toBe(month);
    }
  });

  it('bookkeeping still goes through the service token: drafts, posting into the Open month, reversal', async () => {
    const l = await h.ledger();
    const d = await h.call('POST', '/v1/journal-entries', via(ACCOUNTANT), {
      data: {
        legal_entity_id: l.entity.id,
        description: 'Rent',
        transaction_date: '2025-06-10',
        lines: h.lines(l.cash.id, l.revenue.id),
      },
    });
    expect(d.status).toBe(201);
    const posted = await h.call('POST', `/v1/journal-entries/${d.data.id}/post`, via(CONTROLLER), { data: {} });
    expect(posted.status).toBe(200);
    expect(posted.data.post_month).toBe('2025-06-01');
    const open = await h.draft(l);
    const named = await h.call('POST', `/v1/journal-entries/${open.id}/post?post_month=2025-06-01`, via(CONTROLLER), {
      data: {},
    });
    expect(named.status).toBe(200);
    const reversal = await h.call('POST', `/v1/journal-entries/${d.data.id}/reverse`, via(CONTROLLER), { data: {} });
    expect(reversal.status).toBe(201);
  });
});
