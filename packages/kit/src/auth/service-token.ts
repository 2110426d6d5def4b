import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '../errors.ts';
import { UUID_RE } from '../ids.ts';
import { type Authenticator, headerValue } from './authenticate.ts';
import { devFid } from './dev-principals.ts';
import { EMAIL_RE, type PrincipalDirectory } from './directory.ts';
import type { Principal } from './principal.ts';

export interface ServiceTokenOptions {
  /** The accepted tokens: the current one and, during rotation, the previous one. Unset ones are skipped. */
  tokens: readonly (string | undefined)[];
  directory: PrincipalDirectory;
}

/** The principal of a service-token call that names no person. */
export const PLATFORM_SERVICE: Principal = { id: 'service:platform', kind: 'service', grants: [] };

// Digests have one length, so comparing them takes the same time whatever the sent value is.
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The shared service token (SIGN-072): one platform service calling another. With
 * X-Platform-On-Behalf-Of the call acts for that person, marked `via: 'service_token'` because
 * the person is named by the calling service, not proven.
 */
export function serviceTokenAuthenticator(o: ServiceTokenOptions): Authenticator {
  const accepted = o.tokens.filter((t): t is string => Boolean(t)).map(digest);

  const matches = (sent: string) => {
    const d = digest(sent);
    // Every configured token is compared, so the time taken does not say which one matched.
    let ok = false;
    for (const a of accepted) ok = timingSafeEqual(a, d) || ok;
    return ok;
  };

  return {
    async authenticate(req) {
      const sent = headerValue(req, 'x-platform-service-token');
      if (sent === undefined) return null;
      if (!matches(sent)) throw unauthorized('service token not accepted');

      const onBehalfOf = headerValue(req, 'x-platform-on-behalf-of')?.trim();
      if (!onBehalfOf) return { ...PLATFORM_SERVICE, grants: [] };
      if (UUID_RE.test(onBehalfOf)) {
        const id = onBehalfOf.toLowerCase();
        const known = await o.directory.byId(id);
        const person: Principal = known?.kind === 'person' ? known : { id, kind: 'person', grants: [] };
        return { ...person, via: 'service_token' };
      }
      const email = onBehalfOf.toLowerCase();
      if (!EMAIL_RE.test(email)) throw unauthorized('X-Platform-On-Behalf-Of must be a person id or an email');
      // A person the directory does not know still gets the stable FID of their email, so every
      // service attributes their actions to the same id (DECISIONS item 3).
      const known = await o.directory.byEmail(email);
      const person: Principal =
        known?.kind === 'person' ? known : { id: devFid(email), kind: 'person', email, grants: [] };
      return { ...person, via: 'service_token' };
    },
  };
}
