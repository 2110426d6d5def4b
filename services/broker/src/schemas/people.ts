import { Command, pageQuery, Timestamp } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';

export const IdentityKind = Type.Union([Type.Literal('person'), Type.Literal('agent'), Type.Literal('service')]);

export const Email = Type.String({ format: 'email', maxLength: 320 });

/** An identity of the roster: a person, an agent mailbox or a service. */
export const Person = Type.Object({
  fid: Type.String({ description: "The identity's FID" }),
  email: Type.String(),
  name: Type.String(),
  kind: IdentityKind,
  creator_fid: Type.Union([Type.String(), Type.Null()], { description: 'Agents and services: who created them' }),
  creator_email: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Person = Static<typeof Person>;

export const PeopleQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the email or name (any case)' })),
    people_only: Type.Optional(Type.Boolean({ description: 'true leaves agents and services out' })),
    ...pageQuery({ pageSize: 50, maxPageSize: 500 }),
  },
  { additionalProperties: false },
);
export type PeopleQuery = Static<typeof PeopleQuery>;

/** POST /v1/people: creates the identity of an email, or updates the fields sent. */
export const PersonInput = Type.Object(
  {
    email: Email,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    kind: Type.Optional(
      Type.Union([Type.Literal('person'), Type.Literal('agent'), Type.Literal('service')], {
        description: 'agent when a new identity names none (the agents service posts agent mailboxes)',
      }),
    ),
    creator_email: Type.Optional(
      Type.Union([Email, Type.Null()], {
        description: 'Agents and services: the person whose budget group they join; null clears it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PersonInput = Static<typeof PersonInput>;

export const PersonCommand = Command(PersonInput);
