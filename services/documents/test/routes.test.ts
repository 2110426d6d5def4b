import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/app.ts';
import { can } from '../src/domain/permissions.ts';
import { type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

describe('15.4 documents: the checks of every declared command route', () => {
  // Authorization is not wired (spec 1): every action is open, so the 401 and 403 checks do not apply.
  routeChecks('documents', {
    app: () => h.app,
    routes: ROUTES,
    can,
    allowed: 'anyone',
    denied: null,
    state: () => h.state(),
    examples: {
      'POST /v1/documents': { body: async () => ({ data: h.registration(await h.upload('hello')) }) },
      'POST /v1/documents/{id}': {
        url: async () => `/v1/documents/${(await h.document()).id}`,
        body: { data: { filename: 'Renamed.pdf' } },
      },
    },
  });
});

describe('15.1 documents: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['POST /v1/documents']?.['413']).toEqual(['body_too_large', 'upload_too_large']);
    expect(codes['POST /v1/documents']?.['409']).toEqual(['blob_already_registered', 'idempotency_key_reused']);
    expect(codes['POST /v1/documents/sas']?.['409']).toEqual(['blob_already_registered']);
    expect(codes['GET /v1/documents/{id}']?.['503']).toContain('storage_unavailable');
  });
});
