import type { Grant, Principal, PrincipalDirectory } from '@platform/kit';
import type { Db } from './db.ts';
import { grantsOf } from './grants.ts';
import { findPerson, findPersonByEmail } from './people.ts';

const asKitGrants = (grants: Awaited<ReturnType<typeof grantsOf>>): Grant[] =>
  grants.map(({ role, scope_type, scope_id, verified }) => ({ role, scope_type, scope_id, verified }));

/**
 * The people and grants store as the kit's directory: identity resolves its own callers with it,
 * and other services read the same answer through GET /v1/principals/lookup.
 */
export function dbDirectory(db: Db): PrincipalDirectory {
  const person = async (p: Awaited<ReturnType<typeof findPerson>>): Promise<Principal | null> =>
    p ? { id: p.fid, kind: 'person', email: p.email, grants: asKitGrants(await grantsOf(db, p.fid)) } : null;
  return {
    async byId(id) {
      if (id.startsWith('service:')) return { id, kind: 'service', grants: asKitGrants(await grantsOf(db, id)) };
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
      return person(await findPerson(db, id.toLowerCase()));
    },
    async byEmail(email) {
      return person(await findPersonByEmail(db, email));
    },
  };
}
