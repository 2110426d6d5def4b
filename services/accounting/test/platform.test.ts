import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { type BusMessage, chain, NatsBus, OutboxPublisher, openDatabase, SharedPglite } from '@platform/kit';
import { routesMissingSchemas, validateOpenApi } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildApp } from '../src/app.ts';
import type { DB } from '../src/store/db.ts';
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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('envelope', () => {
  it('PLT-001 PLT-002 PLT-004 PLT-034 a single record is at payload.data inside {header, payload} and nothing else', async () => {
    const a = await h.account({ code: 'E1' });
    const r = await h.call('GET', `/v1/accounts/${a.id}`, CONTROLLER);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(Object.keys(r.body.payload)).toEqual(['data']);
    expect(r.data.id).toBe(a.id);
    expect(r.body.header).toMatchObject({ service: 'accounting', api_version: 'v1' });
    expect(r.body.header.request_id).toBe(r.headers['x-request-id']);
  });

  it('PLT-003 PLT-005 a list is an array at payload.data with meta.pagination', async () => {
    const r = await h.call('GET', '/v1/accounts', CONTROLLER);
    expect(Array.isArray(r.data)).toBe(true);
    expect(Object.keys(r.body.payload).sort()).toEqual(['data', 'meta']);
    expect(r.body.payload.meta.pagination).toMatchObject({ mode: 'cursor' });
  });

  it('PLT-006 PLT-007 page mode: pagination[pageSize] bounds the page and pagination[page]=2 holds what follows page 1', async () => {
    const l = await h.ledger();
    for (let i = 0; i < 5; i++) await h.draft(l, { transaction_date: `2025-06-0${i + 1}` });
    const q = `/v1/journal-entries?legal_entity_id=${l.entity.id}&pagination[pageSize]=2`;
    const p1 = await h.call('GET', `${q}&pagination[page]=1`, CONTROLLER);
    const p2 = await h.call('GET', `${q}&pagination[page]=2`, CONTROLLER);
    expect(p1.data).toHaveLength(2);
    expect(p2.data).toHaveLength(2);
    const ids1 = p1.data.map((e: { id: string }) => e.id);
    expect(p2.data.some((e: { id: string }) => ids1.includes(e.id))).toBe(false);
    expect(p2.body.payload.meta.pagination).toEqual({
      mode: 'page',
      page: 2,
      pageSize: 2,
      totalItems: 5,
      totalPages: 3,
    });
  });

  it('PLT-035 an accounting error is enveloped: {header, payload: {errors: [{code, message}]}}', async () => {
    const r = await h.call('GET', `/v1/accounts/${randomUUID()}`, CONTROLLER);
    expect(r.status).toBe(404);
    expect(Object.keys(r.body).sort()).toEqual(['header', 'payload']);
    expect(r.errors[0]).toMatchObject({ code: 'account_not_found' });
  });
});

describe('commands', () => {
  const body = () => ({
    data: {
      chart_code: 'CMD',
      code: randomUUID().slice(0, 8),
      name: 'Cash',
      classification: 'asset',
      is_postable: true,
    },
  });
  // 401, 403, 400 without a key, replay and 409 of every command route: routes.test.ts (issue 15.4).

  it('PLT-008 PLT-009 a command reads body.data and succeeds with and without why {code, detail}', async () => {
    const a = await h.call('POST', '/v1/accounts', CONTROLLER, {
      ...body(),
      why: { code: 'setup', detail: 'new chart' },
    });
    const b = await h.call('POST', '/v1/accounts', CONTROLLER, body());
    expect([a.status, b.status]).toEqual([201, 201]);
  });

  it('a body not shaped {data: {...}} is 422 naming the field, and unparseable JSON is 400; nothing written', async () => {
    const before = await h.state();
    const flat = await h.call('POST', '/v1/accounts', CONTROLLER, body().data);
    expect(flat.status).toBe(422);
    expect(flat.errors[0]).toMatchObject({ code: 'validation_failed' });
    expect(flat.errors[0].field).toBeTruthy();
    const extra = await h.call('POST', '/v1/accounts', CONTROLLER, { ...body(), extra: 1 });
    expect(extra.status).toBe(422);
    expect(extra.errors[0].field).toBe('body/extra');
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/accounts',
      headers: { 'x-dev-principal': CONTROLLER, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      payload: '{"data": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().payload.errors[0].code).toBe('malformed_json');
    expect(await h.state()).toEqual(before);
  });

  it('an Idempotency-Key that is not 1-255 visible ASCII is 400 and writes nothing', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/accounts', CONTROLLER, body(), 'x'.repeat(256));
    expect(r.status).toBe(400);
    expect(r.errors[0].code).toBe('invalid_idempotency_key');
    expect(await h.state()).toEqual(before);
  });

  it('ACC-220 the same key on another path id is 409 and writes nothing', async () => {
    const l = await h.ledger();
    const d1 = await h.draft(l);
    const d2 = await h.draft(l);
    const key = randomUUID();
    expect((await h.call('POST', `/v1/journal-entries/${d1.id}/post`, CONTROLLER, { data: {} }, key)).status).toBe(200);
    const before = await h.state();
    const r = await h.call('POST', `/v1/journal-entries/${d2.id}/post`, CONTROLLER, { data: {} }, key);
    expect(r.status).toBe(409);
    expect(await h.state()).toEqual(before);
  });
});

describe('ops routes and OpenAPI', () => {
  it('PLT-022 PLT-023 liveness and readiness answer 200 with the database up; GET / is enveloped discovery', async () => {
    expect((await h.call('GET', '/healthz', null)).status).toBe(200);
    expect((await h.call('GET', '/readyz', null)).status).toBe(200);
    const root = await h.call('GET', '/', null);
    expect(root.status).toBe(200);
    expect(root.data.links).toMatchObject({ openapi_json: '/openapi.json', healthz: '/healthz' });
    expect((await h.app.inject({ method: 'GET', url: '/api-docs' })).statusCode).toBe(200);
  });

  it('PLT-024 readiness fails without the database', async () => {
    const pg = new PGlite();
    await pg.waitReady;
    const database = await openDatabase<DB>({ schema: 'accounting', pglite: new SharedPglite(pg) });
    const app = await buildApp({ database, authenticator: chain(), logLevel: 'silent' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await pg.close();
    const r = await app.inject({ method: 'GET', url: '/readyz' });
    expect(r.statusCode).toBe(503);
    expect(r.json().payload.errors[0].code).toBe('database_unavailable');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });

  it('PLT-026 PLT-027 the OpenAPI spec is served as YAML and JSON; a real validator accepts it and every route has schemas', async () => {
    const json = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const yaml = await h.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(json.statusCode).toBe(200);
    expect(yaml.statusCode).toBe(200);
    expect(parseYaml(yaml.body)).toEqual(json.json());
    const doc = json.json();
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(routesMissingSchemas(doc)).toEqual([]);
  });

  it('PLT-025 PLT-030 every API route is under /v1/ and appears in the service own OpenAPI document', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(doc.paths);
    const api = paths.filter((p) => !['/', '/healthz', '/readyz'].includes(p));
    expect(api.length).toBeGreaterThan(20);
    for (const p of api) expect(p.startsWith('/v1/')).toBe(true);
    for (const p of [
      '/v1/accounts',
      '/v1/accounts/tree',
      '/v1/accounts/{id}',
      '/v1/journal-entries',
      '/v1/journal-entries/{id}/post',
      '/v1/journal-entries/{id}/deletion-check',
      '/v1/legal-entities/{id}/calendar',
      '/v1/period-calendar/current',
      '/v1/periods/history',
      '/v1/trial-balance',
      '/v1/balance-sheet',
      '/v1/balances/consolidated',
    ]) {
      expect(paths).toContain(p);
    }
    expect(paths.some((p) => p.startsWith('/v1/documents') || p.startsWith('/v1/vendors'))).toBe(false);
  });

  it('PLT-032 PLT-033 dates and timestamps are ISO 8601 strings and identifiers are UUIDs', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const e = (await h.call('GET', `/v1/journal-entries/${p.id}`, ACCOUNTANT)).data;
    expect(e.id).toMatch(UUID);
    expect(e.legal_entity_id).toMatch(UUID);
    for (const line of e.lines) {
      expect(line.id).toMatch(UUID);
      expect(line.account_id).toMatch(UUID);
    }
    expect(e.transaction_date).toMatch(ISO_DATE);
    expect(e.post_month).toMatch(ISO_DATE);
    expect(Number.isNaN(Date.parse(e.created_at))).toBe(false);
    expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
  });
});

const natsUrl = process.env.TEST_NATS_URL;
describe.skipIf(!natsUrl)('events over NATS JetStream (TEST_NATS_URL)', () => {
  it('ACC-229 ACC-230 a deletion reaches the public subject without the reason and the restricted one with it', async () => {
    const service = `acct${randomUUID().slice(0, 6)}`;
    const bus = await NatsBus.connect(natsUrl as string, { streams: ['accounting'], ackWaitMs: 2000 });
    const pub: BusMessage[] = [];
    const restricted: BusMessage[] = [];
    const stops = [
      await bus.subscribe('accounting.journal_entry.deleted', `pub_${service}`, (m) => {
        pub.push(m);
      }),
      await bus.subscribe('restricted.accounting.journal_entry.deleted', `res_${service}`, (m) => {
        restricted.push(m);
      }),
    ];
    try {
      const l = await h.ledger();
      const d = await h.draft(l);
      const reason = `typo ${randomUUID()}`;
      const del = await h.call('DELETE', `/v1/journal-entries/${d.id}`, CONTROLLER, { data: { reason } });
      expect(del.status).toBe(200);
      await new OutboxPublisher(h.db, bus, { pollMs: 1000 }).drain();
      for (let i = 0; i < 200; i++) {
        const seen = (list: BusMessage[]) => list.some((m) => JSON.stringify(m.data).includes(d.id));
        if (seen(pub) && seen(restricted)) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const mine = (list: BusMessage[]) => list.filter((m) => JSON.stringify(m.data).includes(d.id));
      expect(mine(pub)).toHaveLength(1);
      expect(JSON.stringify(mine(pub)[0].data)).not.toContain(reason);
      expect(mine(restricted)).toHaveLength(1);
      expect(JSON.stringify(mine(restricted)[0].data)).toContain(reason);
    } finally {
      for (const s of stops) await s();
      await bus.close();
    }
  });
});

describe('read permissions and rejected input', () => {
  it('ACC-218 period history is for controllers and platform admins; other people and system principals get 403', async () => {
    const l = await h.ledger();
    for (const who of [CONTROLLER, ADMIN]) {
      expect((await h.call('GET', `/v1/periods/history?legal_entity_id=${l.entity.id}`, who)).status).toBe(200);
    }
    for (const who of [ACCOUNTANT, SENIOR, STAFF, SUPERLABEL, PAYMENTS, BILLING]) {
      const r = await h.call('GET', `/v1/periods/history?legal_entity_id=${l.entity.id}`, who);
      expect(r.status).toBe(403);
    }
  });

  it('ACC-219 the current calendar read is open to staff and to system services', async () => {
    const l = await h.ledger();
    for (const who of [STAFF, 'anyone@example.com', PAYMENTS, 'service:intelligence']) {
      const r = await h.call('GET', `/v1/period-calendar/current?legal_entity_id=${l.entity.id}`, who);
      expect(r.status).toBe(200);
      expect(r.data.legal_entity_id).toBe(l.entity.id);
    }
  });

  it('ACC-222 ACC-223 malformed or empty fields fail schema validation before any domain check; nothing is written, no event', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const before = await h.state();
    const cases: [string, string, unknown][] = [
      // An unknown entity would be a domain refusal (404); the malformed date fails first.
      ['POST', `/v1/legal-entities/${randomUUID()}/calendar`, { data: { timezone: 'UTC', books_start_month: 'soon' } }],
      [
        'POST',
        '/v1/journal-entries',
        { data: { legal_entity_id: l.entity.id, description: '', transaction_date: '2025-06-01', lines: [] } },
      ],
      [
        'POST',
        '/v1/journal-entries',
        {
          data: {
            legal_entity_id: 'not-a-uuid',
            description: 'x',
            transaction_date: '2025-06-01',
            lines: h.lines(l.cash.id, l.revenue.id),
          },
        },
      ],
      [
        'POST',
        `/v1/journal-entries/${d.id}/draft`,
        { data: { description: 'x', transaction_date: '2025-13-40', lines: h.lines(l.cash.id, l.revenue.id) } },
      ],
      [
        'POST',
        '/v1/accounts',
        { data: { chart_code: ' ', code: '1', name: 'x', classification: 'asset', is_postable: 'true' } },
      ],
      ['DELETE', `/v1/journal-entries/${d.id}`, { data: { reason: '' } }],
      ['POST', '/v1/periods/close', { data: {} }],
    ];
    for (const [method, url, body] of cases) {
      const r = await h.call(method as 'POST', url, CONTROLLER, body);
      expect(r.status, `${method} ${url}`).toBe(422);
      expect(r.errors[0].code).toBe('validation_failed');
    }
    expect(await h.state()).toEqual(before);
  });
});

describe('hostile input answers 4xx, never 500 (review findings)', () => {
  it('ACC-222 ACC-223 urn:uuid ids, year 0000, NUL characters, huge pages, forged cursors and bad id lists are 422; nothing written', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const before = await h.state();
    const lines = h.lines(l.cash.id, l.revenue.id);
    const requests: [string, string, unknown?][] = [
      ['GET', `/v1/journal-entries/urn:uuid:${d.id}`],
      [
        'POST',
        '/v1/journal-entries',
        {
          data: { legal_entity_id: `urn:uuid:${l.entity.id}`, description: 'x', transaction_date: '2025-06-01', lines },
        },
      ],
      [
        'POST',
        '/v1/journal-entries',
        { data: { legal_entity_id: l.entity.id, description: 'x', transaction_date: '0000-06-01', lines } },
      ],
      [
        'POST',
        '/v1/journal-entries',
        { data: { legal_entity_id: l.entity.id, description: 'nul\u0000', transaction_date: '2025-06-01', lines } },
      ],
      ['GET', `/v1/journal-entries?pagination[page]=${'9'.repeat(30)}`],
      ['GET', `/v1/accounts?after=${Buffer.from(JSON.stringify(['US', '1000', 'not-a-uuid'])).toString('base64url')}`],
      ['GET', `/v1/journal-entries/${d.id}/deletion-check?related_entry_ids=${'-'.repeat(36)}`],
      ['GET', `/v1/accounts/${l.cash.id}/balance?as_of_month=0000-01`],
    ];
    for (const [method, url, body] of requests) {
      const r = await h.call(method as 'GET', url, CONTROLLER, body);
      expect(r.status, `${method} ${url}`).toBe(422);
    }
    expect(await h.state()).toEqual(before);
  });

  it('ACC-032 ACC-064 amounts near the safe-integer limit: totals over it are refused; balance is judged exactly', async () => {
    const l = await h.ledger();
    const max = Number.MAX_SAFE_INTEGER;
    const before = await h.state();
    const tooBig = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, {
      data: {
        legal_entity_id: l.entity.id,
        description: 'overflow',
        transaction_date: '2025-06-01',
        lines: [
          { account_id: l.cash.id, direction: 'debit', amount: max },
          { account_id: l.cash.id, direction: 'debit', amount: 2 },
          { account_id: l.revenue.id, direction: 'credit', amount: max },
        ],
      },
    });
    expect(tooBig.status).toBe(422);
    expect(tooBig.errors[0].code).toBe('amount_too_large');
    expect(await h.state()).toEqual(before);
    // 2^53 - 2 + 1 vs 2^53 - 2 + 2: equal in floating point, not in fact.
    const close = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, {
      data: {
        legal_entity_id: l.entity.id,
        description: 'one unit off',
        transaction_date: '2025-06-01',
        lines: [
          { account_id: l.cash.id, direction: 'debit', amount: max - 2 },
          { account_id: l.cash.id, direction: 'debit', amount: 2 },
          { account_id: l.revenue.id, direction: 'credit', amount: max - 2 },
          { account_id: l.revenue.id, direction: 'credit', amount: 1 },
        ],
      },
    });
    expect(close.status).toBe(201);
    const post = await h.call('POST', `/v1/journal-entries/${close.data.id}/post`, CONTROLLER, { data: {} });
    expect(post.status).toBe(422);
    expect(post.errors[0].code).toBe('unbalanced_entry');
  });

  it('ACC-059 ACC-166 ACC-192 upper-case ids name the same records and the same entity lock', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const upper = d.id.toUpperCase();
    expect((await h.call('GET', `/v1/journal-entries/${upper}`, CONTROLLER)).data.id).toBe(d.id);
    const edit = await h.call('POST', `/v1/journal-entries/${upper}/draft`, ACCOUNTANT, {
      data: {
        legal_entity_id: l.entity.id.toUpperCase(),
        description: 'edited',
        transaction_date: '2025-06-02',
        lines: h.lines(l.cash.id.toUpperCase(), l.revenue.id),
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.data.lines[0].account_id).toBe(l.cash.id);
    const del = await h.call('DELETE', `/v1/journal-entries/${upper}`, CONTROLLER, { data: { reason: 'typo' } });
    expect(del.status).toBe(200);
    expect(del.data.deleted_entry_ids).toEqual([d.id]);
  });
});

describe('order of refusals and canonical requests (second review)', () => {
  it('ACC-204 ACC-222 a lone surrogate is 422; a NUL from a caller without permission is still 403 first', async () => {
    const l = await h.ledger();
    const before = await h.state();
    const lines = h.lines(l.cash.id, l.revenue.id);
    const body = (description: string) => ({
      data: { legal_entity_id: l.entity.id, description, transaction_date: '2025-06-01', lines },
    });
    const surrogate = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body('half \ud800 a pair'));
    expect(surrogate.status).toBe(422);
    expect(surrogate.errors[0].code).toBe('validation_failed');
    const forbidden = await h.call('POST', '/v1/journal-entries', STAFF, body('nul\u0000'));
    expect(forbidden.status).toBe(403);
    const noKey = await h.call('POST', '/v1/journal-entries', ACCOUNTANT, body('nul\u0000'), null);
    expect(noKey.status).toBe(400);
    expect(await h.state()).toEqual(before);
  });

  it('ACC-067 PLT-012 a retry that differs only in the path id case replays instead of conflicting', async () => {
    const l = await h.ledger();
    const d = await h.draft(l);
    const key = randomUUID();
    const first = await h.call('POST', `/v1/journal-entries/${d.id}/post`, CONTROLLER, { data: {} }, key);
    expect(first.status).toBe(200);
    const retry = await h.call('POST', `/v1/journal-entries/${d.id.toUpperCase()}/post`, CONTROLLER, { data: {} }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.data).toEqual(first.data);
  });
});
