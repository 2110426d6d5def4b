import { Envelope } from '@platform/kit';
import { addContact, changeContactAccess } from '../commands/contacts.ts';
import { Command, IdParams } from '../schemas/common.ts';
import { ActiveInput, Contact, ContactInput, ContactParams } from '../schemas/contacts.ts';
import { module, type Routes, route } from './deps.ts';

const tags = ['contacts'];
const EDITORS = 'Employees listed in VENDORS_EDITORS.';

export const CONTACT_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/vendors/:id/contacts',
    action: 'change',
    tags,
    summary: 'Add a person who may sign in to the vendor portal',
    description: `${EDITORS} An email already a contact at this or another firm (ignoring case) is 409 contact_exists; an unknown firm is 404 vendor_not_found.`,
    params: IdParams,
    body: Command(ContactInput),
    response: Envelope(Contact),
    status: 201,
    errors: ['vendor_not_found', 'contact_exists'],
    run: (ctx, { params, body }) => addContact(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/vendors/:id/contacts/:contact_id/active',
    action: 'change',
    tags,
    summary: 'Allow or stop a contact signing in',
    description: `${EDITORS} Setting the flag a contact already has changes nothing and emits no event. An unknown firm is 404 vendor_not_found; a contact not of that firm 404 contact_not_found.`,
    params: ContactParams,
    body: Command(ActiveInput),
    response: Envelope(Contact),
    errors: ['vendor_not_found', 'contact_not_found'],
    run: (ctx, { params, body }) => changeContactAccess(ctx, params.id, params.contact_id, body.data.active),
  }),
];

export const contactRoutes = module(CONTACT_ROUTES);
