import type { Db } from './db.ts';

/** The person an upstream account is linked to, if any. */
export async function findLinkedPerson(db: Db, issuer: string, sub: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('upstream_identities')
    .select('fid')
    .where('issuer', '=', issuer)
    .where('sub', '=', sub)
    .executeTakeFirst();
  return row?.fid;
}

/** The upstream account a person is linked to at this issuer, if any. */
export async function linkedSub(db: Db, issuer: string, fid: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('upstream_identities')
    .select('sub')
    .where('issuer', '=', issuer)
    .where('fid', '=', fid)
    .executeTakeFirst();
  return row?.sub;
}

/**
 * Links an upstream account to a person. False when either side is already linked (a concurrent
 * first sign-in got there first): the caller reads the store again instead of guessing.
 */
export async function linkPerson(db: Db, issuer: string, sub: string, fid: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto('upstream_identities')
    .values({ issuer, sub, fid, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('fid')
    .executeTakeFirst();
  return row !== undefined;
}
