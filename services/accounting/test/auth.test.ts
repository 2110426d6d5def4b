import { randomUUID } from 'node:crypto';
import { type App, noAuthenticator } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ACCOUNTANT, CONTROLLER, type Harness, harness, PAYMENTS, STAFF } from './harness.ts';

let h: Harness;
let l: Awaited<ReturnType<Harness['ledger']>>;
let entryId: string;
beforeAll(async () => {
  h = await harness();
  l = await h.ledger();
  entryId = (await h.posted(l)).id;
});
afterAll(async () => h.close_());

const accountBody = () => ({
  data: {
    chart_code: l.chart,
    code: randomUUID().slice(0, 8),
    name: 'Escrow',
    classification: 'liability',
    is_postable: true,
  },
});
const entryBody = () => ({
  data: {
    legal_entity_id: l.entity.id,
    description: 'Rent',
    transaction_date: '2025-06-10',
    lines: h.lines(l.cash.id, l.revenue.id),
  },
});

/** Reads across the service's route families. */
const reads = () => [
  '/v1/accounts',
  '/v1/accounts/tree',
  `/v1/accounts/${l.cash.id}`,
  `/v1/legal-entities/${l.entity.id}`,
  `/v1/period-calendar/current?legal_entity_id=${l.entity.id}`,
  '/v1/journal-entries',
  `/v1/journal-entries/${entryId}`,
  `/v1/trial-balance?legal_entity_id=${l.entity.id}`,
  `/v1/balance-sheet?legal_entity_id=${l.entity.id}`,
  `/v1/accounts/${l.cash.id}/balance?legal_entity_id=${l.entity.id}`,
  `/v1/periods/history?legal_entity_id=${l.entity.id}`,
];
/** Commands across the service's route families. */
const commands = (): [string, () => unknown][] => [
  ['/v1/accounts', accountBody],
  [`/v1/accounts/${l.cash.id}/postability`, () => ({ data: { is_postable: false } })],
  ['/v1/legal-entities', () => ({ data: { name: 'New', chart_code: l.chart, status: 'active' } })],
  ['/v1/journal-entries', entryBody],
  ['/v1/periods/close', () => ({ data: { legal_entity_id: l.entity.id } })],
];

describe('authentication', () => {
  it('ACC-203 a request without credentials is 401 unauthenticated on reads and commands, and commands write nothing', async () => {
    for (const url of reads()) {
      const r = await h.call('GET', url, null);
      expect(r.status, url).toBe(401);
      expect(r.errors[0].code).toBe('unauthenticated');
    }
    for (const [url, body] of commands()) {
      const before = await h.state();
      const r = await h.call('POST', url, null, body());
      expect(r.status, url).toBe(401);
      expect(r.errors[0].code).toBe('unauthenticated');
      // Credentials are checked before the Idempotency-Key.
      const noKey = await h.call('POST', url, null, body(), null);
      expect(noKey.status, url).toBe(401);
      expect(await h.state()).toEqual(before);
    }
  });

  it('ACC-205 X-Dev-Actor is a local-development stand-in: outside local development a request carrying only X-Dev-Actor is 401', async () => {
    // Local development (DEV_AUTH=1): the stand-in header names the caller.
    const local = await h.app.inject({
      method: 'GET',
      url: `/v1/accounts/${l.cash.id}`,
      headers: { 'x-dev-actor': CONTROLLER },
    });
    expect(local.statusCode).toBe(200);

    // DEV_AUTH off: the same service without the dev-header source.
    const prod: App = await buildApp({ database: h.database, authenticator: noAuthenticator, logLevel: 'silent' });
    await prod.ready();
    try {
      for (const url of [
        `/v1/accounts/${l.cash.id}`,
        '/v1/accounts',
        `/v1/trial-balance?legal_entity_id=${l.entity.id}`,
      ]) {
        const r = await prod.inject({ method: 'GET', url, headers: { 'x-dev-actor': CONTROLLER } });
        expect(r.statusCode, url).toBe(401);
        expect(r.json().payload.errors[0].code).toBe('unauthenticated');
      }
      const before = await h.state();
      const r = await prod.inject({
        method: 'POST',
        url: '/v1/accounts',
        headers: { 'x-dev-actor': CONTROLLER, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
        payload: JSON.stringify(accountBody()),
      });
      expect(r.statusCode).toBe(401);
      expect(r.json().payload.errors[0].code).toBe('unauthenticated');
      expect(await h.state()).toEqual(before);
    } finally {
      await prod.close();
    }
  });
});

describe('permissions', () => {
  it('ACC-204 a signed-in caller without the needed permission gets 403 forbidden on reads', async () => {
    const refused: [string, string][] = [
      ['/v1/accounts', STAFF],
      ['/v1/accounts/tree', STAFF],
      [`/v1/accounts/${l.cash.id}`, STAFF],
      [`/v1/legal-entities/${l.entity.id}`, STAFF],
      ['/v1/journal-entries', STAFF],
      [`/v1/trial-balance?legal_entity_id=${l.entity.id}`, STAFF],
      [`/v1/balance-sheet?legal_entity_id=${l.entity.id}`, PAYMENTS],
      [`/v1/balances/consolidated?chart_code=${l.chart}`, 'someone@example.com'],
      [`/v1/periods/history?legal_entity_id=${l.entity.id}`, ACCOUNTANT],
      ['/v1/deleted-journal-entries', ACCOUNTANT],
    ];
    for (const [url, as] of refused) {
      const r = await h.call('GET', url, as);
      expect(r.status, `${as} ${url}`).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
    }
  });

  it('ACC-204 a signed-in caller without the needed permission gets 403 forbidden on commands, and nothing is written', async () => {
    const refused: [string, () => unknown, string][] = [
      ['/v1/accounts', accountBody, STAFF],
      ['/v1/accounts', accountBody, ACCOUNTANT],
      [`/v1/accounts/${l.cash.id}/postability`, () => ({ data: { is_postable: false } }), ACCOUNTANT],
      ['/v1/legal-entities', () => ({ data: { name: 'New', chart_code: l.chart, status: 'active' } }), ACCOUNTANT],
      ['/v1/journal-entries', entryBody, STAFF],
      ['/v1/periods/close', () => ({ data: { legal_entity_id: l.entity.id } }), PAYMENTS],
    ];
    for (const [url, body, as] of refused) {
      const before = await h.state();
      const r = await h.call('POST', url, as, body());
      expect(r.status, `${as} ${url}`).toBe(403);
      expect(r.errors[0].code).toBe('forbidden');
      // The permission is checked before the Idempotency-Key and before body validation.
      expect((await h.call('POST', url, as, body(), null)).status).toBe(403);
      expect((await h.call('POST', url, as, { data: { nonsense: true } })).status).toBe(403);
      expect(await h.state()).toEqual(before);
    }
    const del = await h.call('DELETE', `/v1/journal-entries/${entryId}`, ACCOUNTANT, { data: { reason: 'wrong' } });
    expect(del.status).toBe(403);
    expect((await h.call('GET', `/v1/journal-entries/${entryId}`, CONTROLLER)).status).toBe(200);
  });
});
