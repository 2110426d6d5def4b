import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.ts';
import { type Authenticator, headerValue } from './authenticate.ts';
import type { Principal } from './principal.ts';

/** The principal of a call the platform's scheduler makes with X-Platform-Scheduler-Token. */
export const SCHEDULER_PRINCIPAL: Principal = { id: 'service:scheduler', kind: 'service', grants: [] };

export interface SchedulerTokenOptions {
  /** SCHEDULER_TOKEN; unset, the header authenticates no one (and is ignored). */
  token: string | undefined;
  /**
   * The routes the scheduler may call (Fastify route patterns, a trailing `*` matching any rest):
   * on any other route the header is ignored, so the token opens nothing else (DECISIONS item 8).
   */
  routes: readonly string[];
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

const matchesRoute = (patterns: readonly string[], url: string | undefined) =>
  url !== undefined && patterns.some((p) => (p.endsWith('*') ? url.startsWith(p.slice(0, -1)) : url === p));

/**
 * The scheduler's calls (DECISIONS item 8): `X-Platform-Scheduler-Token: $SCHEDULER_TOKEN` on the
 * routes named, as SCHEDULER_PRINCIPAL (a service). A wrong token there is 401; elsewhere, or
 * without the setting, the header is not looked at and the request falls to the other sources.
 */
export function schedulerTokenAuthenticator(o: SchedulerTokenOptions): Authenticator {
  const expected = o.token ? digest(o.token) : null;
  return {
    async authenticate(req: FastifyRequest) {
      if (!expected) return null;
      const sent = headerValue(req, 'x-platform-scheduler-token');
      if (sent === undefined || !matchesRoute(o.routes, req.routeOptions?.url)) return null;
      if (!timingSafeEqual(digest(sent), expected)) throw unauthorized('scheduler token not accepted');
      return { ...SCHEDULER_PRINCIPAL, grants: [] };
    },
  };
}

/**
 * The guard of a scheduler-only route (a job): its action may admit others who pass every policy (a
 * Super Admin), but only the scheduler runs a job; anyone else is unauthenticated there (401,
 * DECISIONS item 8).
 */
export async function schedulerOnly(req: FastifyRequest): Promise<void> {
  if (req.principal?.id !== SCHEDULER_PRINCIPAL.id) {
    throw unauthorized('The scheduler token (X-Platform-Scheduler-Token) is required');
  }
}
