import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import type { DevPrincipals } from './dev-principals.ts';
import type { Principal } from './principal.ts';

/** Where a request's principal comes from. More sources (bearer JWT, gateway, service token) plug in here. */
export interface Authenticator {
  authenticate(req: FastifyRequest): Promise<Principal | null>;
}

/**
 * The local-only dev headers. `X-Dev-Principal` names the caller; `X-Dev-Actor` is the older
 * stand-in name for the same thing (spec 1). Neither is authentication: only with DEV_AUTH=1.
 */
export const devHeaderAuthenticator = (principals: DevPrincipals): Authenticator => ({
  async authenticate(req) {
    const raw = req.headers['x-dev-principal'] ?? req.headers['x-dev-actor'];
    const value = Array.isArray(raw) ? raw[0] : raw;
    return value ? principals.resolve(value) : null;
  },
});

export const noAuthenticator: Authenticator = { authenticate: async () => null };

/** First source that recognises the request wins. */
export const chain = (...sources: Authenticator[]): Authenticator => ({
  async authenticate(req) {
    for (const s of sources) {
      const p = await s.authenticate(req);
      if (p) return p;
    }
    return null;
  },
});

/** 401 without a principal. */
export function requirePrincipal(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** 401 without a principal, 403 when `allowed` says no. */
export function authorize(req: FastifyRequest, allowed: (p: Principal) => boolean): Principal {
  const p = requirePrincipal(req);
  if (!allowed(p)) throw forbidden();
  return p;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * A preValidation hook: who may call the route is settled before the body is validated, so an
 * unauthenticated caller learns nothing about the schema (401, then 403, then 422).
 */
export const guard = (allowed: (p: Principal) => boolean) => async (req: FastifyRequest) => {
  authorize(req, allowed);
};
