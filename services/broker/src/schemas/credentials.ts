import { Command, OptionalDataCommand, Timestamp } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { NAME_MAX } from '../domain/credentials.ts';
import { TOKEN_TTL_SEC } from '../tokens.ts';

export const CredentialKind = Type.Union([Type.Literal('personal'), Type.Literal('service')], {
  description:
    'personal: tokens act as the owner (their sign-in email, their budget); service: tokens act as ' +
    '<client_id>@service.broker, an identity of its own with its own budget, grouped under the owner',
});

const Name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX,
  description: `Trimmed; 1 to ${NAME_MAX} characters (422 invalid_name when blank)`,
});

export const ClientId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The credential\'s id: "bk-" and 24 hex digits; the HTTP Basic user name on /v1/oauth/token',
});

export const Credential = Type.Object({
  client_id: ClientId,
  name: Type.String(),
  kind: CredentialKind,
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description: 'disabled: no new tokens (tokens already issued last until they expire)',
  }),
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'null: never expires' }),
  expired: Type.Boolean({ description: 'expires_at has passed: the credential can no longer exchange' }),
  email: Type.String({
    description: "The email its tokens carry: the owner's for personal, <client_id>@service.broker for service",
  }),
  secret_set_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Credential = Static<typeof Credential>;

const Secret = Type.String({
  description:
    'The client secret, shown by this response only (a replay of the request answers without it); the broker keeps only its hash',
});

export const IssuedToken = Type.Object({
  access_token: Type.String({ description: 'An ES256 JWT; verify it with /.well-known/jwks.json' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: `Seconds: always ${TOKEN_TTL_SEC}` }),
  expires_at: Timestamp,
});
export type IssuedToken = Static<typeof IssuedToken>;

export const CreatedCredential = Type.Composite([Credential, Type.Object({ secret: Type.Optional(Secret) })]);
export type CreatedCredential = Static<typeof CreatedCredential>;

export const RotatedCredential = Type.Composite([
  Credential,
  Type.Object({
    secret: Type.Optional(Secret),
    token: Type.Optional(
      Type.Union([IssuedToken, Type.Null()], {
        description:
          'A one-hour token for the new secret; null when the credential has expired; absent on a replay of the request',
      }),
    ),
  }),
]);
export type RotatedCredential = Static<typeof RotatedCredential>;

export const TokenAnswer = Type.Object({
  client_id: ClientId,
  token: Type.Optional(
    Type.Object(IssuedToken.properties, { description: 'Absent on a replay of the request: tokens are never stored' }),
  ),
});
export type TokenAnswer = Static<typeof TokenAnswer>;

export const CreateCredential = Command(
  Type.Object(
    {
      name: Name,
      kind: Type.Optional(CredentialKind),
      expires_at: Type.Optional(
        Type.Union([Timestamp, Type.Null()], {
          description:
            'When it stops exchanging; null or absent: never. Must be in the future (422 invalid_expires_at); no latest date',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type CreateCredential = Static<typeof CreateCredential>['data'];

export const RenameCredential = Command(Type.Object({ name: Name }, { additionalProperties: false }));

/** Commands that carry nothing: the body may be omitted or be {data: {}}. */
export const EmptyCommand = OptionalDataCommand(Type.Object({}, { additionalProperties: false }));

export const CredentialParams = Type.Object({ client_id: ClientId });
