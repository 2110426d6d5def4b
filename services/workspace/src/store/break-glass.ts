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
  grantsChanged();
  return id;
}

/** Bumped by every write of grants in this process, so the next read reloads them at once. */
let generation = 0;
const grantsChanged = () => {
  generation++;
};

/**
 * How long a process keeps its copy of the unexpired grants: a grant written by another replica or
 * by hand in SQL counts within this time; a grant's end is checked against expires_at on every
 * request, so a lapse counts at once.
 */
export const BREAK_GLASS_REFRESH_MS = 10_000;

interface Snapshot {
  loadedAt: number;
  generation: number;
  /** Each person's latest expires_at among their unexpired grants. */
  until: Map<string, number>;
}
const snapshots = new WeakMap<object, Promise<Snapshot>>();

async function loadSnapshot(db: Db): Promise<Snapshot> {
  const gen = generation;
  const rows = await db
    .selectFrom('break_glass_grants')
    .select(['person', 'expires_at'])
    .where('expired_at', 'is', null)
    .execute();
  const until = new Map<string, number>();
  for (const r of rows) {
    const t = new Date(r.expires_at).getTime();
    until.set(r.person, Math.max(t, until.get(r.person) ?? 0));
  }
  return { loadedAt: performance.now(), generation: gen, until };
}

/**
 * Whether the person holds a live break-glass grant at `now` (not expired, now before expires_at).
 * Asked on every signed-in person's request, so it answers from a copy of the unexpired grants
 * (almost always none) reloaded every BREAK_GLASS_REFRESH_MS and after any grant written here,
 * rather than with a query per request.
 */
export async function holdsBreakGlass(db: Db, person: string, now: Date): Promise<boolean> {
  let snap = snapshots.get(db);
  const current = snap ? await snap : undefined;
  if (!current || current.generation !== generation || performance.now() - current.loadedAt > BREAK_GLASS_REFRESH_MS) {
    snap = loadSnapshot(db);
    snapshots.set(db, snap);
    // A failed load is not kept: the next request tries again.
    snap.catch(() => snapshots.delete(db));
  }
  const until = (await (snap as Promise<Snapshot>)).until.get(person);
  return until !== undefined && now.getTime() < until;
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
  if (rows.length > 0) grantsChanged();
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
