import { type Static, Type } from '@sinclair/typebox';
import { Email, Text, Timestamp, Uuid } from './common.ts';

export const ContactInput = Type.Object(
  {
    email: Email,
    given_name: Text(100),
    family_name: Text(100),
    phone: Type.Optional(Text(50)),
    active: Type.Optional(Type.Boolean({ description: 'May sign in to the vendor portal; defaults to true' })),
  },
  { additionalProperties: false },
);
export type ContactInput = Static<typeof ContactInput>;

export const Contact = Type.Object({
  id: Uuid,
  vendor_id: Uuid,
  email: Type.String({ description: 'Lower-case' }),
  given_name: Type.String(),
  family_name: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Contact = Static<typeof Contact>;

export const ActiveInput = Type.Object({ active: Type.Boolean() }, { additionalProperties: false });

export const ContactParams = Type.Object({ id: Uuid, contact_id: Uuid });
