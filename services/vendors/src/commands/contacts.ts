import { conflict, notFound, uuidv7 } from '@platform/kit';
import { initialActive, normaliseEmail } from '../domain/contacts.ts';
import { isChange } from '../domain/firms.ts';
import type { Contact, ContactInput } from '../schemas/contacts.ts';
import { insertContact, lockContact, setContactActive } from '../store/contacts.ts';
import { findFirm } from '../store/firms.ts';
import type { CommandCtx } from './context.ts';
import { vendorNotFound } from './firms.ts';

/**
 * Adds a person who may sign in to the vendor portal for the firm. An email that is already a
 * contact at this or any other firm (ignoring case) is 409 contact_exists (VEN-020..022).
 */
export async function addContact(
  { trx, principal, now, emit }: CommandCtx,
  firmId: string,
  input: ContactInput,
): Promise<Contact> {
  if (!(await findFirm(trx, firmId))) throw vendorNotFound();
  const contact = await insertContact(
    trx,
    {
      id: uuidv7(now.getTime()),
      vendor_id: firmId,
      email: normaliseEmail(input.email),
      given_name: input.given_name,
      family_name: input.family_name,
      phone: input.phone ?? null,
      active: initialActive(input.active),
    },
    principal.id,
    now,
  );
  if (!contact) throw conflict('contact_exists', 'This email is already a contact at this or another firm');
  // Ids and flags only: never the contact's email or name (VEN-055, VEN-056).
  await emit({
    type: 'vendor.contact_added',
    data: { vendor_id: firmId, contact_id: contact.id, active: contact.active, actor_fid: principal.id },
  });
  return contact;
}

/** Allows or stops a contact signing in; the value already held changes nothing and emits nothing. */
export async function changeContactAccess(
  { trx, principal, now, emit }: CommandCtx,
  firmId: string,
  contactId: string,
  active: boolean,
): Promise<Contact> {
  if (!(await findFirm(trx, firmId))) throw vendorNotFound();
  const held = await lockContact(trx, firmId, contactId);
  if (!held) throw notFound('Contact', 'contact_not_found');
  if (!isChange(held.active, active)) return held;
  const contact = await setContactActive(trx, contactId, active, now);
  await emit({
    type: 'vendor.contact_access_changed',
    data: { vendor_id: firmId, contact_id: contactId, active, actor_fid: principal.id },
  });
  return contact;
}
