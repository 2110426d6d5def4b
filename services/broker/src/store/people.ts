import { forbidden, isoOrThrow, type PageRequest, type Principal } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import {
  fidOfEmail,
  type IdentityKind,
  inScope,
  type NewIdentity,
  nameFromEmail,
  type ReadScope,
} from '../domain/people.ts';
import { can } from '../domain/permissions.ts';
import type { Person } from '../schemas/people.ts';
import type { Db, Identities } from './db.ts';

const COLUMNS = ['fid', 'email', 'name', 'kind', 'creator_fid', 'creator_email', 'created_at', 'updated_at'] as const;

const toPerson = (r: Pick<Selectable<Identities>, (typeof COLUMNS)[number]>): Person => ({
  fid: r.fid,
  email: r.email,
  name: r.name,
  // The table's CHECK holds it to the schema's values.
  kind: r.kind as IdentityKind,
  creator_fid: r.creator_fid ?? null,
  creator_email: r.creator_email ?? null,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** The creator's roster FID, or the stable FID of their email when the roster does not know them. */
const creatorFid = (email: string) =>
  sql<string>`coalesce((SELECT fid FROM identities WHERE email = ${email}), ${fidOfEmail(email)})`;

/** First sight of a caller: recorded once; an identity already there (by FID or email) is left as it is. */
export async function insertSeen(db: Db, e: NewIdentity, now: Date): Promise<void> {
  await db
    .insertInto('identities')
    .values({
      fid: e.fid,
      email: e.email,
      name: e.name,
      kind: e.kind,
      creator_fid: e.creator_email ? creatorFid(e.creator_email) : null,
      creator_email: e.creator_email ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function findByEmail(db: Db, email: string): Promise<Person | undefined> {
  const row = await db
    .selectFrom('identities')
    .select(COLUMNS)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export async function findByFid(db: Db, fid: string): Promise<Person | undefined> {
  const row = await db.selectFrom('identities').select(COLUMNS).where('fid', '=', fid).executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

/** The FIDs of the identities `fid` created. */
export async function createdBy(db: Db, fid: string): Promise<string[]> {
  const rows = await db.selectFrom('identities').select('fid').where('creator_fid', '=', fid).execute();
  return rows.map((r) => r.fid);
}

/** Whom the caller may read: admins everyone; anyone else themselves and the identities they created. */
export async function readScopeOf(db: Db, p: Principal): Promise<ReadScope> {
  if (can(p, 'read_everyone')) return { everyone: true };
  return { everyone: false, fids: [p.id, ...(await createdBy(db, p.id))] };
}

/** A creator named by a POST: their roster FID; someone the roster does not know joins it as a person. */
export async function ensureCreator(trx: Db, email: string, now: Date): Promise<string> {
  await insertSeen(trx, { fid: fidOfEmail(email), email, name: nameFromEmail(email), kind: 'person' }, now);
  return (await findByEmail(trx, email))?.fid ?? fidOfEmail(email);
}

/** The row of an email, locked for the command that is about to change it. */
export async function lockByEmail(trx: Db, email: string): Promise<Person | undefined> {
  const row = await trx
    .selectFrom('identities')
    .select(COLUMNS)
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export interface IdentityWrite {
  email: string;
  name?: string;
  kind: IdentityKind;
  /** undefined: keep; null: clear. */
  creator?: { fid: string; email: string } | null;
}

/** Creates the identity of an email or changes the fields given; one row per email whatever the race. */
export async function upsertIdentity(
  trx: Db,
  w: IdentityWrite,
  now: Date,
): Promise<{ person: Person; created: boolean }> {
  const creator =
    w.creator === undefined ? {} : { creator_fid: w.creator?.fid ?? null, creator_email: w.creator?.email ?? null };
  const row = await trx
    .insertInto('identities')
    .values({
      fid: fidOfEmail(w.email),
      email: w.email,
      name: w.name ?? nameFromEmail(w.email),
      kind: w.kind,
      creator_fid: null,
      creator_email: null,
      ...creator,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        kind: w.kind,
        updated_at: now,
        ...(w.name === undefined ? {} : { name: w.name }),
        ...creator,
      }),
    )
    .returning([...COLUMNS, sql<boolean>`(xmax = 0)`.as('inserted')])
    .executeTakeFirstOrThrow();
  return { person: toPerson(row), created: row.inserted === true };
}

export interface PeopleFilter {
  scope: ReadScope;
  q?: string;
  peopleOnly?: boolean;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The roster as the caller may see it, by email. */
export async function listPeople(
  db: Db,
  f: PeopleFilter,
  page: PageRequest,
): Promise<{ items: Person[]; total: number }> {
  let base = db.selectFrom('identities');
  if (!f.scope.everyone) {
    base = base.where('fid', 'in', f.scope.fids);
  }
  if (f.q) {
    const pattern = likePattern(f.q);
    base = base.where((eb) => eb.or([eb('email', 'ilike', pattern), eb('name', 'ilike', pattern)]));
  }
  if (f.peopleOnly) base = base.where('kind', '=', 'person');
  const [rows, count] = await Promise.all([
    base
      .select(COLUMNS)
      .orderBy(sql`email COLLATE "C"`)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map(toPerson), total: Number(count?.n ?? 0) };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The FID a query names by FID or email: an email the roster does not know stands for the stable
 * FID of that email, so a read about it finds what was billed to it.
 */
export async function fidOf(db: Db, ref: string): Promise<string> {
  if (!ref.includes('@')) return UUID_RE.test(ref) ? ref.toLowerCase() : ref;
  return (await findByEmail(db, ref))?.fid ?? fidOfEmail(ref);
}

/**
 * Whose figures a report covers (savings, routing stats): null for everyone the caller may read
 * when they read everyone, else the FIDs in their scope, or the one actor they name (403 outside
 * their scope).
 */
export async function reportActors(db: Db, p: Principal, actor: string | undefined): Promise<string[] | null> {
  const scope = await readScopeOf(db, p);
  if (actor === undefined) return scope.everyone ? null : [...scope.fids];
  const fid = await fidOf(db, actor);
  if (!inScope(scope, fid)) throw forbidden('Only your own figures and those of identities you created');
  return [fid];
}
