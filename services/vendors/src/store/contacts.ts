import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { Contact } from '../schemas/contacts.ts';
import type { Contacts, Db } from './db.ts';

const toContact = (r: ContactRow): Contact => ({
  id: r.id,
  vendor_id: r.firm_id,
  email: r.email,
  given_name: r.given_name,
  family_name: r.family_name,
  phone: r.phone ?? null,
  active: r.active,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

const COLUMNS = [
  'id',
  'firm_id',
  'email',
  'given_name',
  'family_name',
  'phone',
  'active',
  'created_at',
  'updated_at',
] as const;
type ContactRow = Pick<Selectable<Contacts>, (typeof COLUMNS)[number]>;

/** Inserts unless the email (lower-case) is already a contact at any firm; undefined on that conflict. */
export async function insertContact(
  trx: Db,
  c: Omit<Contact, 'created_at' | 'updated_at'>,
  by: string,
  now: Date,
): Promise<Contact | undefined> {
  const { vendor_id, ...rest } = c;
  const row = await trx
    .insertInto('contacts')
    .values({ ...rest, firm_id: vendor_id, created_by: by, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toContact(row) : undefined;
}

/** The firm's contact, locked until the command's transaction ends. */
export async function lockContact(trx: Db, firmId: string, id: string): Promise<Contact | undefined> {
  const row = await trx
    .selectFrom('contacts')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('firm_id', '=', firmId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row ? toContact(row) : undefined;
}

export async function setContactActive(trx: Db, id: string, active: boolean, now: Date): Promise<Contact> {
  const row = await trx
    .updateTable('contacts')
    .set({ active, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toContact(row);
}

/** A firm's people by family name, then given name. */
export async function contactsOf(db: Db, firmId: string, opts: { activeOnly?: boolean } = {}): Promise<Contact[]> {
  let q = db.selectFrom('contacts').select(COLUMNS).where('firm_id', '=', firmId);
  if (opts.activeOnly) q = q.where('active', '=', true);
  const rows = await q.orderBy('family_name').orderBy('given_name').orderBy('id').execute();
  return rows.map(toContact);
}

export async function contactByEmail(db: Db, email: string): Promise<Contact | undefined> {
  const row = await db.selectFrom('contacts').select(COLUMNS).where('email', '=', email).executeTakeFirst();
  return row ? toContact(row) : undefined;
}
