import { isCommandRoute, registeredRoutes, routeName } from '@platform/kit';
import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import { RELAY_ROUTES } from '../src/routes/relay.ts';
import { ADMIN, type Harness, harness, OTHER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** Everything a broker command could write, row by row. */
const TABLES = [
  'identities',
  'usage_events',
  'usage_daily',
  'budget_settings',
  'budget_overrides',
  'routing_rules',
  'routing_opt_outs',
  'routing_decisions',
  'credentials',
  'broker_conversations',
  'outbox',
  'idempotency_keys',
];

async function state() {
  const out: Record<string, unknown> = {};
  for (const table of TABLES) {
    const r = await sql<{ rows: unknown }>`
      SELECT coalesce(json_agg(t ORDER BY row_to_json(t)::text), '[]') AS rows FROM ${sql.table(table)} t`.execute(
      h.db,
    );
    out[table] = r.rows[0]?.rows;
  }
  return out;
}

/** A service (the shared service token's kind of caller), as the dev header names it. */
const SERVICE = 'service:agents';

/** An identity in the roster, for the budget routes that name one. */
async function rostered(): Promise<string> {
  const email = `budget.${tag()}@broker.test`;
  const r = await h.call('POST', '/v1/people', { service: null }, { data: { email, kind: 'person' } });
  h.expectStatus('POST /v1/people', r, 201);
  return email;
}

/** A credential of ADMIN's: the URL of one of its routes. */
async function credentialUrl(action: string): Promise<string> {
  const r = await h.call('POST', '/v1/credentials/mine', ADMIN, { data: { name: `Checks ${tag()}` } });
  h.expectStatus('POST /v1/credentials/mine', r, 201);
  return `/v1/credentials/mine/${(r.data as { client_id: string }).client_id}/${action}`;
}

describe('15.4 broker: the checks of every declared command route', () => {
  routeChecks('broker', {
    app: () => h.app,
    routes: ROUTES,
    allowed: ADMIN,
    denied: OTHER,
    state,
    examples: {
      'POST /v1/people': {
        allowed: SERVICE,
        body: () => ({ data: { email: `checks.${tag()}@broker.test`, kind: 'agent' } }),
        rules: { forbidden: 'BRK-172', missingKey: 'BRK-003' },
      },
      'POST /v1/usage': {
        denied: SERVICE,
        body: { data: { provider: 'openai', model: 'gpt-4o', input_tokens: 100, output_tokens: 10 } },
        rules: { missingKey: 'BRK-047', replay: 'BRK-048', conflict: 'BRK-049' },
      },
      'PUT /v1/budgets/default': {
        body: { data: { limit: 12_000 } },
        rules: { forbidden: 'BRK-182', missingKey: 'BRK-003' },
      },
      'PUT /v1/budgets/{actor}': {
        url: async () => `/v1/budgets/${await rostered()}`,
        body: { data: { limit: 2_500 } },
        rules: { forbidden: 'BRK-182', missingKey: 'BRK-003' },
      },
      'DELETE /v1/budgets/{actor}': {
        url: async () => `/v1/budgets/${await rostered()}`,
        rules: { forbidden: 'BRK-182', missingKey: 'BRK-003' },
      },
      'PUT /v1/routing/rules': {
        body: { data: { rules: [{ name: 'Checks', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-nano' }] } },
        rules: { forbidden: 'BRK-183', missingKey: 'BRK-003' },
      },
      'PUT /v1/routing/auto-route': {
        body: () => ({ data: { email: `routing.${tag()}@broker.test`, enabled: false } }),
        rules: { forbidden: 'BRK-185', missingKey: 'BRK-003' },
      },
      'POST /v1/credentials/mine': {
        denied: SERVICE,
        body: () => ({ data: { name: `Checks ${tag()}` } }),
        shownOnce: ['secret'],
        rules: { missingKey: 'BRK-003', replay: 'BRK-150' },
      },
      'POST /v1/credentials/mine/{client_id}/rotate': {
        denied: SERVICE,
        url: () => credentialUrl('rotate'),
        shownOnce: ['secret', 'token'],
        rules: { missingKey: 'BRK-003', replay: 'BRK-151' },
      },
      'POST /v1/credentials/mine/{client_id}/disable': { denied: SERVICE, url: () => credentialUrl('disable') },
      'POST /v1/credentials/mine/{client_id}/enable': { denied: SERVICE, url: () => credentialUrl('enable') },
      'POST /v1/credentials/mine/{client_id}/rename': {
        denied: SERVICE,
        url: () => credentialUrl('rename'),
        body: { data: { name: 'Renamed by the checks' } },
      },
      'POST /v1/credentials/mine/{client_id}/token': {
        denied: SERVICE,
        url: () => credentialUrl('token'),
        shownOnce: ['token'],
        rules: { missingKey: 'BRK-003', replay: 'BRK-155' },
      },
    },
  });
});

describe('15.4 broker: declared routes', () => {
  it('15.4 BRK-194 every /v1 route is declared but the OAuth token exchange, which answers OAuth errors', () => {
    const declared = [...ROUTES, ...RELAY_ROUTES].map((r) => `${r.method} ${r.url}`);
    const served = registeredRoutes(h.app).filter((r) => r.split(' ')[1]?.startsWith('/v1/'));
    expect(served.filter((r) => !declared.includes(r))).toEqual(['POST /v1/oauth/token']);
    expect(declared.filter((r) => !served.includes(r))).toEqual([]);
  });

  it('15.4 BRK-120 the relay routes are declared, and none is a command', () => {
    expect(RELAY_ROUTES.map(routeName)).toEqual([
      'POST /v1/relay/messages',
      'POST /v1/relay/v1/messages',
      'POST /v1/relay/chat/completions',
      'POST /v1/relay/responses',
      'POST /v1/relay/speech',
      'POST /v1/relay/audio/transcriptions',
    ]);
    expect(RELAY_ROUTES.filter(isCommandRoute)).toEqual([]);
  });
});

describe('15.1 broker: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['PUT /v1/budgets/{actor}']?.['422']).toEqual(['bad_limit', 'validation_failed']);
    expect(codes['GET /v1/budgets/{actor}']?.['404']).toEqual(['person_not_found']);
    expect(codes['GET /v1/usage']?.['422']).toEqual(['bad_period', 'validation_failed']);
    expect(codes['POST /v1/credentials/mine/{client_id}/token']?.['409']).toEqual([
      'credential_disabled',
      'credential_expired',
      'idempotency_key_reused',
    ]);
    expect(codes['POST /v1/credentials/mine']?.['403']).toEqual(['forbidden', 'session_required']);
    const relay = codes['POST /v1/relay/chat/completions'];
    expect(relay?.['402']).toEqual(['over_budget']);
    expect(relay?.['502']).toEqual(['upstream_failed']);
    expect(relay?.['503']).toEqual(
      expect.arrayContaining(['provider_unavailable', 'auth_keys_unavailable', 'identity_unavailable']),
    );
    // Not a command: no Idempotency-Key codes.
    expect(relay?.['400']).toEqual(['bad_request', 'malformed_json']);
    expect(relay?.['409']).toBeUndefined();
  });
});

describe('15.4 broker: success statuses per route', () => {
  it('15.4 BRK-043 BRK-044 POST /v1/people documents 201 (a new identity) and 200 (a changed one) with the same body', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const responses = doc.paths['/v1/people'].post.responses;
    expect(responses['201']).toBeDefined();
    expect(responses['200']).toEqual(responses['201']);
  });
});
