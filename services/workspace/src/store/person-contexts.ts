import { sql } from 'kysely';
import type { Db } from './db.ts';

/** person-context-refresh's tables (issue 19): the roster, each person's sources and assignments. */

export interface KnownPerson {
  person_id: string;
  email: string | null;
  personalization: boolean;
}

/** Adds the roster's people not yet known and updates the known ones' email and name; how many were new. */
export async function upsertRoster(
  db: Db,
  people: readonly { person_id: string; email: string; name: string }[],
  now: Date,
): Promise<number> {
  let added = 0;
  for (const p of people) {
    const r = await db
      .insertInto('person_contexts')
      .values({ person_id: p.person_id, email: p.email, name: p.name, first_seen_at: now })
      .onConflict((oc) => oc.column('person_id').doUpdateSet({ email: p.email, name: p.name }))
      // xmax is 0 on a row this statement inserted (not on one it updated).
      .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
      .executeTakeFirst();
    if (r?.inserted) added += 1;
  }
  return added;
}

export async function knownPeople(db: Db): Promise<KnownPerson[]> {
  return db
    .selectFrom('person_contexts')
    .select(['person_id', 'email', 'personalization'])
    .orderBy('person_id')
    .execute();
}

/** Sets a person's personalization choice (known or not yet). */
export async function setPersonalization(db: Db, personId: string, on: boolean, now: Date) {
  await db
    .insertInto('person_contexts')
    .values({ person_id: personId, personalization: on, first_seen_at: now })
    .onConflict((oc) => oc.column('person_id').doUpdateSet({ personalization: on }))
    .execute();
}

export async function personEmail(db: Db, personId: string): Promise<string | null> {
  const r = await db.selectFrom('person_contexts').select('email').where('person_id', '=', personId).executeTakeFirst();
  return r?.email ?? null;
}

/** The version (updated_at) last read of each of the person's sources. */
export async function readVersions(db: Db, personId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('person_context_sources')
    .select(['source_id', 'updated_at'])
    .where('person_id', '=', personId)
    .execute();
  return new Map(rows.map((r) => [r.source_id, new Date(r.updated_at).getTime()]));
}

/** Records what one refresh of a person read: the sources and their versions, the assignments seen. */
export async function recordRefresh(
  db: Db,
  personId: string,
  read: readonly { source_id: string; kind: string; updated_at: Date }[],
  assignments: readonly { assignment_id: string; project_id: string; role: string }[],
  nightly: boolean,
  now: Date,
): Promise<{ retired: number }> {
  return db.transaction().execute(async (trx) => {
    for (const s of read) {
      await trx
        .insertInto('person_context_sources')
        .values({ person_id: personId, ...s, read_at: now })
        .onConflict((oc) =>
          oc.columns(['person_id', 'source_id']).doUpdateSet({ updated_at: s.updated_at, kind: s.kind, read_at: now }),
        )
        .execute();
    }
    for (const a of assignments) {
      await trx
        .insertInto('person_assignments')
        .values({ person_id: personId, ...a, last_seen_at: now, retired_at: null })
        .onConflict((oc) =>
          oc.columns(['person_id', 'assignment_id']).doUpdateSet({
            project_id: a.project_id,
            role: a.role,
            last_seen_at: now,
            retired_at: null,
          }),
        )
        .execute();
    }
    let retired = 0;
    if (nightly) {
      // The whole 90-day window was reread: an assignment it no longer shows is stale.
      const rows = await trx
        .updateTable('person_assignments')
        .set({ retired_at: now })
        .where('person_id', '=', personId)
        .where('retired_at', 'is', null)
        .where('last_seen_at', '<', now)
        .returning('assignment_id')
        .execute();
      retired = rows.length;
    }
    await trx
      .updateTable('person_contexts')
      .set(nightly ? { refreshed_at: now, nightly_at: now } : { refreshed_at: now })
      .where('person_id', '=', personId)
      .execute();
    return { retired };
  });
}

export async function personAssignments(db: Db, personId: string) {
  return db
    .selectFrom('person_assignments')
    .select(['assignment_id', 'project_id', 'role', 'last_seen_at', 'retired_at'])
    .where('person_id', '=', personId)
    .orderBy('assignment_id')
    .execute();
}
