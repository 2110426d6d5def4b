import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import { devFid } from './dev-principals.ts';
import { EMAIL_RE, type PrincipalDirectory, SERVICE_PRINCIPAL_RE } from './directory.ts';
import type { Principal } from './principal.ts';

/**
 * Where a request's principal comes from. null means "this source does not apply"; a source
 * that applies but cannot accept the credentials throws 401, so a bad credential never falls
 * through to a weaker source.
 */
export interface Authenticator {
  authenticate(req: FastifyRequest): Promise<Principal | null>;
}

/** A request header's value (the first, when sent more than once). */
export const headerValue = (req: FastifyRequest, name: string): string | undefined => {
  const raw = req.headers[name];
  return Array.isArray(raw) ? raw[0] : raw;
};

/**
 * The local-only dev headers. `X-Dev-Principal` names the caller (an email or `service:<name>`);
 * `X-Dev-Actor` is the older stand-in name for the same thing (spec 1). Neither is
 * authentication: only with DEV_AUTH=1. A value that names nobody is ignored, as before.
 */
export const devHeaderAuthenticator = (directory: PrincipalDirectory): Authenticator => ({
  async authenticate(req) {
    const v = (headerValue(req, 'x-dev-principal') ?? headerValue(req, 'x-dev-actor'))?.trim();
    if (!v) return null;
    if (v.startsWith('service:')) {
      if (!SERVICE_PRINCIPAL_RE.test(v)) return null;
      return (await directory.byId(v)) ?? { id: v, kind: 'service', grants: [] };
    }
    const email = v.toLowerCase();
    if (!EMAIL_RE.test(email)) return null;
    return (await directory.byEmail(email)) ?? { id: devFid(email), kind: 'person', email, grants: [] };
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
