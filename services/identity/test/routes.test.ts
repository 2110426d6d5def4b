import { randomUUID } from 'node:crypto';
import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import { ADMIN, CONTROLLER, identityHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof identityHarness>>;
beforeAll(async () => {
  h = await identityHarness();
});
afterAll(async () => h?.close());

const state = () => h.state();

const email = () => `p-${randomUUID().slice(0, 8)}@example.com`;
async function person() {
  const r = await h.call('POST', '/v1/people', ADMIN, { data: { email: email() } });
  expect(r.status).toBe(201);
  return r.body.payload.data as { fid: string };
}
const ACCOUNTANT_GLOBAL = { role: 'accountant', scope_type: 'global', scope_id: '*' };
const RULES = {
  unauthenticated: 'SIGN-067',
  forbidden: 'SIGN-070',
  missingKey: 'PLT-010',
  replay: 'PLT-012 PLT-013',
  conflict: 'PLT-014',
};

describe('15.4 identity: the checks of every declared command route', () => {
  routeChecks('identity', {
    app: () => h.app,
    routes: ROUTES,
    allowed: ADMIN,
    denied: CONTROLLER,
    state,
    examples: {
      'POST /v1/people': { body: () => ({ data: { email: email() } }), rules: RULES },
      'POST /v1/people/{fid}/name': {
        url: async () => `/v1/people/${(await person()).fid}/name`,
        body: { data: { first: 'Ada', last: 'Lovelace' } },
        rules: RULES,
      },
      'POST /v1/people/{fid}/password': {
        url: async () => `/v1/people/${(await person()).fid}/password`,
        body: { data: { password: 'correct horse battery staple' } },
        rules: RULES,
      },
      'POST /v1/people/{fid}/grants': {
        url: async () => `/v1/people/${(await person()).fid}/grants`,
        body: { data: ACCOUNTANT_GLOBAL },
        rules: RULES,
      },
      'DELETE /v1/people/{fid}/grants/{grant_id}': {
        url: async () => {
          const p = await person();
          const g = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, { data: ACCOUNTANT_GLOBAL });
          expect(g.status).toBe(201);
          return `/v1/people/${p.fid}/grants/${g.body.payload.data.id}`;
        },
        body: {},
        rules: RULES,
      },
    },
  });
});

describe('15.1 identity: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['POST /v1/people']?.['409']).toEqual(['email_taken', 'idempotency_key_reused']);
    expect(codes['POST /v1/people/{fid}/grants']?.['422']).toEqual([
      'invalid_scope',
      'unknown_role',
      'validation_failed',
    ]);
    expect(codes['GET /v1/principals/lookup']?.['404']).toEqual(['not_found']);
  });
});
