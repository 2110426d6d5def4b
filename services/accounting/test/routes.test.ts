import { randomUUID } from 'node:crypto';
import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/app.ts';
import { CONTROLLER, type Harness, harness, STAFF } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** One ledger shared by the examples that only need somewhere to book. */
let shared: Awaited<ReturnType<Harness['ledger']>> | undefined;
const ledger = async () => {
  shared ??= await h.ledger();
  return shared;
};
const draftUrl = async (suffix = '') => `/v1/journal-entries/${(await h.draft(await ledger())).id}${suffix}`;
const postedUrl = async (suffix = '') => `/v1/journal-entries/${(await h.posted(await ledger())).id}${suffix}`;
const calendarUrl = async (suffix: string) => {
  const e = await h.entity();
  await h.calendar(e.id);
  return `/v1/legal-entities/${e.id}/calendar${suffix}`;
};
/** A fresh entity with a calendar (books from January 2025), and its January closed when asked. */
const freshEntity = async (closeJanuary: boolean) => {
  const e = await h.entity();
  await h.calendar(e.id);
  if (closeJanuary) await h.close(e.id);
  return e.id;
};

describe('15.4 accounting: the checks of every declared command route', () => {
  routeChecks('accounting', {
    app: () => h.app,
    routes: ROUTES,
    allowed: CONTROLLER,
    denied: STAFF,
    state: () => h.state(),
    examples: {
      'POST /v1/accounts': {
        body: () => ({
          data: {
            chart_code: 'CMD',
            code: randomUUID().slice(0, 8),
            name: 'Cash',
            classification: 'asset',
            is_postable: true,
          },
        }),
        rules: {
          unauthenticated: 'ACC-203',
          forbidden: 'ACC-204',
          missingKey: 'PLT-010 ACC-003',
          replay: 'PLT-012 PLT-013',
          conflict: 'PLT-014 ACC-221',
        },
      },
      'POST /v1/accounts/{id}/postability': {
        url: async () => `/v1/accounts/${(await h.account({})).id}/postability`,
        body: { data: { is_postable: false } },
      },
      'POST /v1/legal-entities': {
        body: () => ({ data: { name: `Entity ${randomUUID().slice(0, 8)}`, chart_code: 'US', status: 'active' } }),
      },
      'POST /v1/legal-entities/{id}/calendar': {
        url: async () => `/v1/legal-entities/${(await h.entity()).id}/calendar`,
        body: { data: { timezone: 'UTC', books_start_month: '2025-01-01' } },
      },
      'POST /v1/legal-entities/{id}/calendar/timezone': {
        url: () => calendarUrl('/timezone'),
        body: { data: { timezone: 'Europe/Paris' }, why: { detail: 'the office moved' } },
      },
      'POST /v1/legal-entities/{id}/calendar/books-start': {
        url: () => calendarUrl('/books-start'),
        body: { data: { books_start_month: '2025-02-01' }, why: { detail: 'books start later' } },
      },
      'POST /v1/journal-entries': {
        body: async () => {
          const l = await ledger();
          return {
            data: {
              legal_entity_id: l.entity.id,
              description: 'Rent received',
              transaction_date: '2025-06-10',
              lines: h.lines(l.cash.id, l.revenue.id),
            },
          };
        },
      },
      'POST /v1/journal-entries/{id}/draft': {
        url: () => draftUrl('/draft'),
        body: async () => {
          const l = await ledger();
          return {
            data: {
              description: 'Edited',
              transaction_date: '2025-06-11',
              lines: h.lines(l.cash.id, l.revenue.id, 500),
            },
          };
        },
      },
      'POST /v1/journal-entries/{id}/post': {
        url: () => draftUrl('/post'),
        body: { data: {} },
        rules: {
          unauthenticated: 'ACC-203',
          forbidden: 'ACC-204',
          missingKey: 'ACC-062',
          replay: 'ACC-067',
          conflict: 'ACC-221',
        },
      },
      'POST /v1/journal-entries/{id}/reverse': { url: () => postedUrl('/reverse'), body: { data: {} } },
      'DELETE /v1/journal-entries/{id}': { url: () => draftUrl(), body: { data: { reason: 'entered twice' } } },
      'POST /v1/periods/close': {
        body: async () => ({ data: { legal_entity_id: await freshEntity(false) } }),
      },
      'POST /v1/periods/reopen': {
        body: async () => ({
          data: { legal_entity_id: await freshEntity(true), year: 2025, month: 1 },
          why: { detail: 'a late invoice' },
        }),
      },
    },
  });
});

describe('15.1 accounting: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['POST /v1/accounts']?.['409']).toEqual(['account_code_exists', 'idempotency_key_reused']);
    expect(codes['POST /v1/accounts']?.['401']).toEqual(['unauthenticated']);
    expect(codes['GET /v1/accounts/{id}']?.['404']).toEqual(['account_not_found']);
    expect(codes['GET /v1/accounts/{id}']?.['409']).toBeUndefined();
    expect(codes['POST /v1/journal-entries/{id}/post']?.['403']).toEqual([
      'billing_reference_not_allowed',
      'forbidden',
      'post_month_not_allowed',
    ]);
  });
});
