import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import { EDITOR, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const firmUrl = async (suffix: string) => `/v1/vendors/${(await h.firm()).id}${suffix}`;

describe('15.4 vendors: the checks of every declared command route', () => {
  routeChecks('vendors', {
    app: () => h.app,
    routes: ROUTES,
    allowed: EDITOR,
    denied: READER,
    state: () => h.state(),
    examples: {
      'POST /v1/vendors': {
        body: () => ({ data: { name: `Checks ${tag()}`, kind: 'supplier', discipline: 'other' } }),
        otherBody: () => ({ data: { name: `Other ${tag()}`, kind: 'supplier', discipline: 'other' } }),
        rules: {
          unauthenticated: 'VEN-044',
          forbidden: 'VEN-047',
          missingKey: 'PLT-010 VEN-002',
          replay: 'PLT-012 PLT-013',
          conflict: 'PLT-014',
        },
      },
      'POST /v1/vendors/{id}/status': { url: () => firmUrl('/status'), body: { data: { status: 'inactive' } } },
      'POST /v1/vendors/{id}/contacts': {
        url: () => firmUrl('/contacts'),
        body: () => ({ data: { email: `person.${tag()}@firm.test`, given_name: 'Pat', family_name: 'Lee' } }),
      },
      'POST /v1/vendors/{id}/contacts/{contact_id}/active': {
        url: async () => {
          const f = await h.firm();
          const c = await h.contact(f.id);
          return `/v1/vendors/${f.id}/contacts/${c.id}/active`;
        },
        body: { data: { active: false } },
      },
      'POST /v1/vendors/{id}/insurance': {
        url: () => firmUrl('/insurance'),
        body: () => ({
          data: {
            coverage: 'general_liability',
            policy_number: `POL-${tag()}`,
            starts_on: '2025-01-01',
            expires_on: '2025-12-31',
          },
        }),
      },
    },
  });
});

describe('15.1 vendors: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['POST /v1/vendors']?.['409']).toEqual(['idempotency_key_reused', 'vendor_exists']);
    expect(codes['POST /v1/vendors']?.['422']).toEqual([
      'kind_description_not_allowed',
      'kind_description_required',
      'validation_failed',
    ]);
    expect(codes['GET /v1/vendors/{id}']?.['404']).toEqual(['vendor_not_found']);
    expect(codes['GET /v1/vendor-portal/contact']?.['403']).toEqual(['forbidden', 'not_a_vendor_contact']);
  });
});
