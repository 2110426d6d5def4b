import { Envelope, unavailable, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { findPerson } from '../store/people.ts';
import { type RouteModule, type Routes, register, route } from './deps.ts';

const GatewayToken = Type.Object({
  token: Type.String({ description: 'Send it in the Cf-Access-Jwt-Assertion header' }),
  audience: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});

/**
 * Local only: the identity service stands in for the access gateway, so services that trust the
 * gateway (vendors, construction, broker, agents, console) verify real gateway JWTs locally too.
 */
export const gatewayRoutes: RouteModule = (app, deps) => {
  const gateway = deps.gateway;
  if (!gateway) return;

  app.get('/gateway/certs', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(gateway.jwks()),
  );

  register(app, deps, GATEWAY_ROUTES);
};

/** Registered only where the stand-in runs (deps.gateway). */
export const GATEWAY_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/gateway/token',
    action: 'gateway.token',
    tags: ['gateway'],
    summary: 'Local access-gateway stand-in: a gateway JWT for a configured application audience',
    query: Type.Object({ audience: Type.String({ minLength: 1, maxLength: 200 }) }),
    response: Envelope(GatewayToken),
    errors: ['unknown_audience', 'no_email'],
    handler: async ({ query, principal: p, reply }, deps) => {
      const gateway = deps.gateway;
      if (!gateway?.audiences.includes(query.audience)) {
        throw unprocessable('unknown_audience', 'Not an application audience of this gateway', 'querystring/audience');
      }
      const person = await findPerson(deps.database.db, p.id);
      const email = person?.email ?? p.email;
      if (!email) throw unavailable('no_email', 'The person has no email to put in a gateway token');
      reply.header('cache-control', 'no-store');
      return reply.envelope(await gateway.issue({ fid: p.id, email }, query.audience, deps.clock()));
    },
  }),
];
