import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';

export const ScopeType = Type.Union([Type.Literal('global'), Type.Literal('building')]);

export const Grant = Type.Object({
  id: Uuid,
  principal_id: Type.String({ description: "A person's FID or service:<client_id>" }),
  role: Type.String(),
  scope_type: ScopeType,
  scope_id: Type.String({ description: 'The literal * for global grants; the building id otherwise' }),
  verified: Type.Boolean({ description: 'Verified by a Super Admin; only verified super_admin grants count' }),
  created_at: Timestamp,
});
export type Grant = Static<typeof Grant>;

export const GrantInput = Type.Object(
  {
    role: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'A role of GET /v1/roles' }),
    scope_type: ScopeType,
    scope_id: Type.String({ minLength: 1, maxLength: 64, description: '* for global; a building id otherwise' }),
    verified: Type.Optional(Type.Boolean({ description: 'Only a verified Super Admin may set this' })),
  },
  { additionalProperties: false },
);
export type GrantInput = Static<typeof GrantInput>;

/** GET /v1/authz/me (SIGN-055..058). */
export const CanEntry = Type.Object({
  scope_type: ScopeType,
  scope_id: Type.String(),
  actions: Type.Array(Type.String()),
});
export const Authz = Type.Object({
  fid: Type.String({ description: "The bearer's id: a person's FID, or service:<client_id>" }),
  kind: Type.Union([Type.Literal('person'), Type.Literal('service')]),
  can: Type.Array(CanEntry),
});

export const Role = Type.Object({
  role: Type.String(),
  description: Type.String(),
  actions: Type.Array(Type.String()),
});

/** What services read to resolve a caller (GET /v1/principals/lookup). */
export const PrincipalInfo = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('person'), Type.Literal('service')]),
  email: Type.Optional(Type.String()),
  grants: Type.Array(
    Type.Object({ role: Type.String(), scope_type: ScopeType, scope_id: Type.String(), verified: Type.Boolean() }),
  ),
});
