import { Type } from '@sinclair/typebox';
import { Contact } from './contacts.ts';
import { Firm } from './firms.ts';

/** The signed-in portal user: their firm, themselves and their active colleagues. */
export const PortalContact = Type.Object({
  vendor: Firm,
  contact: Contact,
  colleagues: Type.Array(Contact, { description: 'The other active contacts of the same firm' }),
});
