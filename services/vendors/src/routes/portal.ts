import { Envelope, forbidden } from '@platform/kit';
import { mayUsePortal } from '../domain/contacts.ts';
import { PortalContact } from '../schemas/portal.ts';
import { contactByEmail, contactsOf } from '../store/contacts.ts';
import { findFirm } from '../store/firms.ts';
import { module, type Routes, route } from './deps.ts';

const notAVendorContact = () =>
  forbidden('The signed-in person is not an active contact of an active firm', 'not_a_vendor_contact');

export const PORTAL_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/vendor-portal/contact',
    action: 'portal',
    tags: ['vendor portal'],
    summary: 'The signed-in portal user: their firm, themselves and their colleagues',
    description:
      'Firm contacts (vendor-portal gateway token), and platform services for the contact named in X-Platform-On-Behalf-Of. 403 not_a_vendor_contact unless an active contact of an active firm.',
    response: Envelope(PortalContact),
    errors: ['not_a_vendor_contact'],
    handler: async ({ principal, reply }, deps) => {
      const db = deps.database.db;
      // The contact the caller signed in as, or the one a service acts for.
      const email = principal.email?.toLowerCase();
      const contact = email === undefined ? undefined : await contactByEmail(db, email);
      const firm = contact ? await findFirm(db, contact.vendor_id) : undefined;
      if (!contact || !firm || !mayUsePortal(contact, firm)) throw notAVendorContact();
      const colleagues = (await contactsOf(db, firm.id, { activeOnly: true })).filter((c) => c.id !== contact.id);
      return reply.envelope({ vendor: firm, contact, colleagues });
    },
  }),
];

export const portalRoutes = module(PORTAL_ROUTES);
