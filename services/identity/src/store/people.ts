import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Person } from '../schemas/people.ts';
import type { Db, People } from './db.ts';

export interface PersonRow extends Person {
  password_hash: string | null;
}

const toPerson = (r: Selectable<People>): PersonRow => ({
  fid: r.fid,
  email: r.email,
  email_verified: r.email_verified,
  name: { first: r.first_name, last: r.last_name },
  has_password: r.password_hash !== null,
  password_hash: r.password_hash,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** The API never shows the hash. */
export const publicPerson = ({ password_hash: _, ...p }: PersonRow): Person => p;

export async function findPerson(db: Db, fid: string): Promise<PersonRow | undefined> {
  const row = await db.selectFrom('people').selectAll().where('fid', '=', fid).executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export async function findPersonByEmail(db: Db, email: string): Promise<PersonRow | undefined> {
  const row = await db
    .selectFrom('people')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export interface NewPerson {
  fid: string;
  email: string;
  email_verified: boolean;
  first: string;
  last: string;
  password_hash?: string | null;
}

/** Inserts unless the email is taken; undefined tells the caller it was. */
export async function insertPerson(trx: Db, p: NewPerson, by: string, now: Date): Promise<PersonRow | undefined> {
  const row = await trx
    .insertInto('people')
    .values({
      fid: p.fid,
      email: p.email.trim(),
      email_verified: p.email_verified,
      first_name: p.first,
      last_name: p.last,
      password_hash: p.password_hash ?? null,
      created_by: by,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export async function updatePerson(
  trx: Db,
  fid: string,
  set: { first_name?: string; last_name?: string; password_hash?: string },
  now: Date,
): Promise<PersonRow | undefined> {
  const row = await trx
    .updateTable('people')
    .set({ ...set, updated_at: now })
    .where('fid', '=', fid)
    .returningAll()
    .executeTakeFirst();
  return row ? toPerson(row) : undefined;
}

export async function listPeople(db: Db, page: { page: number; pageSize: number }, email?: string) {
  let q = db.selectFrom('people');
  if (email) q = q.where(sql`lower(email)`, 'like', `%${email.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy(sql`lower(email)`)
      .orderBy('fid')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => publicPerson(toPerson(r))), total: Number(count.n) };
}
