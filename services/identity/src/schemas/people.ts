import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';

/** Unset name parts are empty strings, never null or absent (SIGN-052). */
export const Name = Type.Object({
  first: Type.String({ maxLength: 100 }),
  last: Type.String({ maxLength: 100 }),
});

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });

export const Person = Type.Object({
  fid: Uuid,
  email: Type.String(),
  email_verified: Type.Boolean(),
  name: Name,
  has_password: Type.Boolean({ description: 'Whether the person can sign in with a password' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Person = Static<typeof Person>;

export const PersonInput = Type.Object(
  {
    email: Email,
    email_verified: Type.Optional(Type.Boolean({ default: false })),
    name: Type.Optional(Type.Partial(Name, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type PersonInput = Static<typeof PersonInput>;

export const NameInput = Type.Object(
  { first: Type.String({ maxLength: 100 }), last: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const PasswordInput = Type.Object(
  {
    password: Type.String({
      minLength: 12,
      maxLength: 256,
      description: 'At least 12 characters; stored only as a scrypt hash',
    }),
  },
  { additionalProperties: false },
);

/** The profile contract (SIGN-051): fid, email, email_verified, name {first, last}. */
export const Profile = Type.Object({
  fid: Uuid,
  email: Type.String(),
  email_verified: Type.Boolean(),
  name: Name,
});
