import type { Authenticator, Database, Grant } from '@platform/kit';
import { holdsBreakGlass } from '../store/break-glass.ts';
import type { DB } from '../store/db.ts';

/** The grant a live break-glass membership adds: platform admin, global (reads every project). */
export const BREAK_GLASS_GRANT: Grant = { role: 'platform_admin', scope_type: 'global', scope_id: '*' };

/**
 * Break-glass (issue 19, WS-479): a person holding a live time-boxed platform-admin membership
 * (break_glass_grants) is a platform admin for this service while it lasts; once lapsed (and
 * marked expired by POST /internal/jobs/expire-grants) it adds nothing. Wraps the service's
 * authenticator; services and the scheduler are left as they are.
 */
export function withBreakGlass(inner: Authenticator, database: Database<DB>, clock: () => Date): Authenticator {
  return {
    async authenticate(req) {
      const p = await inner.authenticate(req);
      if (p?.kind !== 'person' || p.grants.some((g) => g.role === 'platform_admin' && g.scope_type === 'global')) {
        return p;
      }
      if (!(await holdsBreakGlass(database.db, p.id, clock()))) return p;
      return { ...p, grants: [...p.grants, BREAK_GLASS_GRANT] };
    },
  };
}
