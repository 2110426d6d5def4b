import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { Grant, GrantInput } from '../schemas/grants.ts';
import type { Db, Grants } from './db.ts';

const toGrant = (r: Selectable<Grants>): Grant => ({
  id: r.id,
  principal_id: r.principal_id,
  role: r.role,
  // The table's CHECK holds it to the schema's values.
  scope_type: r.scope_type as Grant['scope_type'],
  scope_id: r.scope_id,
  verified: r.verified,
  created_at: isoOrThrow(r.created_at),
});

export async function grantsOf(db: Db, principalId: string): Promise<Grant[]> {
  const rows = await db
    .selectFrom('grants')
    .selectAll()
    .where('principal_id', '=', principalId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toGrant);
}

export async function findGrant(db: Db, principalId: string, id: string): Promise<Grant | undefined> {
  const row = await db
    .selectFrom('grants')
    .selectAll()
    .where('principal_id', '=', principalId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toGrant(row) : undefined;
}

/** Inserts unless the principal already holds that role at that scope; undefined tells the caller. */
export async function insertGrant(
  trx: Db,
  id: string,
  principalId: string,
  g: GrantInput,
  by: string,
  now: Date,
): Promise<Grant | undefined> {
  const row = await trx
    .insertInto('grants')
    .values({
      id,
      principal_id: principalId,
      role: g.role,
      scope_type: g.scope_type,
      scope_id: g.scope_id,
      verified: g.verified ?? false,
      created_by: by,
      created_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toGrant(row) : undefined;
}

export async function deleteGrant(trx: Db, principalId: string, id: string): Promise<Grant | undefined> {
  const row = await trx
    .deleteFrom('grants')
    .where('principal_id', '=', principalId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toGrant(row) : undefined;
}
