import { Envelope } from '@platform/kit';
import { addContact, changeContactAccess } from '../commands/contacts.ts';
import { Command, IdempotencyHeaders, IdParams } from '../schemas/common.ts';
import { ActiveInput, Contact, ContactInput, ContactParams } from '../schemas/contacts.ts';
import { command, commander, type RouteModule } from './deps.ts';

const tags = ['contacts'];
const EDITORS = 'Employees listed in VENDORS_EDITORS.';

export const contactRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/vendors/:id/contacts',
    {
      preValidation: commander(deps),
      schema: {
        tags,
        summary: 'Add a person who may sign in to the vendor portal',
        description: `${EDITORS} An email already a contact at this or another firm (ignoring case) is 409 contact_exists; an unknown firm is 404 vendor_not_found.`,
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(ContactInput),
        response: { 201: Envelope(Contact) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => addContact(ctx, req.params.id, req.body.data), 201),
  );

  app.post(
    '/v1/vendors/:id/contacts/:contact_id/active',
    {
      preValidation: commander(deps),
      schema: {
        tags,
        summary: 'Allow or stop a contact signing in',
        description: `${EDITORS} Setting the flag a contact already has changes nothing and emits no event. An unknown firm is 404 vendor_not_found; a contact not of that firm 404 contact_not_found.`,
        headers: IdempotencyHeaders,
        params: ContactParams,
        body: Command(ActiveInput),
        response: { 200: Envelope(Contact) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) =>
        changeContactAccess(ctx, req.params.id, req.params.contact_id, req.body.data.active),
      ),
  );
};
