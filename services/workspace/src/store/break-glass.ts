import { uuidv7 } from '@platform/kit';
import type { Db } from './db.ts';

/**
 * Break-glass grants (issue 19): time-boxed platform-admin memberships. A grant is live while it
 * is not expired and `now` is before expires_at; expire-grants marks the lapsed ones expired.
 */
export interface BreakGlassGrant {
  id: string;
  person: string;
  granted_by: string;
  reason: string;
  granted_at: Date;
  expires_at: Date;
  expired_at: Date | null;
}

export async function insertBreakGlassGrant(
  db: Db,
  g: { person: string; granted_by: string; reason: string; expires_at: Date },
  now: Date,
): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('break_glass_grants')
    .values({ id, ...g, granted_at: now })
    .execute();
  return id;
}

/** Whether the person holds a live break-glass grant at `now`. */
export async function holdsBreakGlass(db: Db, person: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('break_glass_grants')
    .select('id')
    .where('person', '=', person)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks every lapsed grant (expires_at at or before now) expired; the ids expired. */
export async function expireLapsedGrants(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('break_glass_grants')
    .set({ expired_at: now })
    .where('expired_at', 'is', null)
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function findBreakGlassGrant(db: Db, id: string): Promise<BreakGlassGrant | undefined> {
  const r = await db.selectFrom('break_glass_grants').selectAll().where('id', '=', id).executeTakeFirst();
  return r
    ? {
        ...r,
        granted_at: new Date(r.granted_at),
        expires_at: new Date(r.expires_at),
        expired_at: r.expired_at === null ? null : new Date(r.expired_at),
      }
    : undefined;
}
