import { EMAIL_RE, Envelope, notFound, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { PrincipalInfo } from '../schemas/grants.ts';
import { dbDirectory } from '../store/directory.ts';
import { module, type Routes, route } from './deps.ts';

/**
 * How every other service resolves a caller to its grants (the kit's httpDirectory), with the
 * shared service token. Tokens carry no roles; this is where they come from.
 */
export const PRINCIPAL_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/principals/lookup',
    action: 'principals.lookup',
    tags: ['principals'],
    summary: 'A principal and its grants, by id (FID or service:<client_id>) or email; services only',
    query: Type.Object({
      id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    }),
    response: Envelope(PrincipalInfo),
    errors: ['invalid_lookup', 'invalid_email', 'not_found'],
    handler: async ({ query, reply }, deps) => {
      const directory = dbDirectory(deps.database.db);
      const { id, email } = query;
      if ((id === undefined) === (email === undefined)) {
        throw unprocessable('invalid_lookup', 'Send exactly one of id or email', 'querystring');
      }
      if (email !== undefined && !EMAIL_RE.test(email)) {
        throw unprocessable('invalid_email', 'Not an email address', 'querystring/email');
      }
      const p = id !== undefined ? await directory.byId(id) : await directory.byEmail(email as string);
      if (!p) throw notFound('Principal');
      return reply.envelope({
        id: p.id,
        kind: p.kind,
        ...(p.email ? { email: p.email } : {}),
        grants: p.grants.map((g) => ({ ...g, verified: g.verified === true })),
      } as never);
    },
  }),
];

export const principalRoutes = module(PRINCIPAL_ROUTES);
