import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../src/auth/authenticate.ts';
import { createCan, type Principal } from '../src/auth/principal.ts';
import type { Database } from '../src/db/database.ts';
import { Envelope } from '../src/envelope.ts';
import { conflict, notFound } from '../src/errors.ts';
import { type App, createServiceApp } from '../src/http/app.ts';
import { declareRoutes, defineErrors } from '../src/http/routes.ts';
import { documentedErrorCodes } from '../src/testing/route-checks.ts';

const can = createCan({ service: 'demo', superAdmin: 'none', actions: { 'things.read': { anyPerson: true } } });
const ERRORS = defineErrors({
  thing_not_found: { status: 404, meaning: 'No such thing' },
  stale_version: { status: 409, meaning: 'The thing changed since it was read' },
});
const { route, register } = declareRoutes<'things.read', keyof typeof ERRORS, { database: never; clock: () => Date }>({
  can,
  errors: ERRORS,
});
const person: Principal = { id: 'p1', kind: 'person', grants: [] };
const authenticator: Authenticator = { authenticate: async () => person } as unknown as Authenticator;

let app: App;
beforeAll(async () => {
  app = await createServiceApp({
    service: 'demo',
    title: 'Demo',
    description: 'Declared routes',
    database: { ping: async () => true } as unknown as Database,
    authenticator,
    logLevel: 'silent',
    routes: (a) =>
      register(a, { database: undefined as never, clock: () => new Date() }, [
        route({
          method: 'GET',
          url: '/v1/things/:name',
          action: 'things.read',
          summary: 'One thing',
          params: Type.Object({ name: Type.String() }),
          response: Envelope(Type.Object({ name: Type.String(), by: Type.String() })),
          errors: ['thing_not_found'],
          handler: async ({ params, principal, reply }) => {
            if (params.name === 'missing') throw notFound('Thing', 'thing_not_found');
            if (params.name === 'stale') throw conflict('stale_version', 'Changed');
            return reply.envelope({ name: params.name, by: principal.id });
          },
        }),
      ]),
  });
  await app.ready();
});
afterAll(async () => app.close());

describe('15.1 15.4 declared routes', () => {
  it('15.4 the handler gets the typed params and the principal', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/things/a' });
    expect(r.json().payload.data).toEqual({ name: 'a', by: 'p1' });
  });

  it('15.1 a declared code is answered with its status', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/things/missing' });
    expect(r.statusCode).toBe(404);
    expect(r.json().payload.errors[0].code).toBe('thing_not_found');
  });

  it('15.1 in tests, a code the route did not declare is refused: 500 undeclared_error_code naming it', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/things/stale' });
    expect(r.statusCode).toBe(500);
    expect(r.json().payload.errors[0]).toMatchObject({ code: 'undeclared_error_code' });
    expect(r.json().payload.errors[0].message).toContain('stale_version');
  });

  it('15.1 the OpenAPI lists the codes per status as an enum on errors[].code, and no status the route cannot answer', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc)['GET /v1/things/{name}'];
    expect(codes?.['404']).toEqual(['thing_not_found']);
    expect(codes?.['401']).toEqual(['unauthenticated']);
    expect(codes?.['422']).toEqual(['validation_failed']);
    expect(codes?.['409']).toBeUndefined();
  });
});
