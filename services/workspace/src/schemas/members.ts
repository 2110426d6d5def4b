import { type Static, Type } from '@sinclair/typebox';
import { PRINCIPAL_ID_PATTERN } from '../domain/members.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';
import { RoleName } from './projects.ts';

/** A principal named in a request: a person's FID (UUID) or service:<name>. */
export const MemberPrincipalId = Type.String({
  pattern: PRINCIPAL_ID_PATTERN,
  description: "A person's FID (UUID) or service:<name>",
});

export const MemberParams = Type.Object({ id: Uuid, principal_id: MemberPrincipalId });

export const Member = Type.Object({
  principal_id: PrincipalId,
  role: RoleName,
  added_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Member = Static<typeof Member>;

/** POST /v1/projects/{id}/members: an owner adds (invites) someone with a role. */
export const MemberInput = Type.Object(
  { principal_id: MemberPrincipalId, role: RoleName },
  { additionalProperties: false },
);
export type MemberInput = Static<typeof MemberInput>;

/** POST /v1/projects/{id}/members/{principal_id}: either a new role or remove: true. */
export const MemberChangeInput = Type.Object(
  {
    role: Type.Optional(RoleName),
    remove: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type MemberChangeInput = Static<typeof MemberChangeInput>;

/** The answer to a membership change: the membership as it now is, or null once removed. */
export const MemberChangeResult = Type.Object({
  principal_id: PrincipalId,
  removed: Type.Boolean(),
  member: Type.Union([Type.Null(), Member]),
});

export const JoinRequestStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('declined'),
]);

export const JoinRequest = Type.Object({
  project_id: Uuid,
  principal_id: PrincipalId,
  status: JoinRequestStatus,
  message: Type.String(),
  role: Type.Union([Type.Null(), RoleName], { description: 'The role given on approval' }),
  decided_by: Type.Union([Type.Null(), PrincipalId]),
  decided_at: Type.Union([Type.Null(), Timestamp]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type JoinRequest = Static<typeof JoinRequest>;

export const JoinRequestInput = Type.Object(
  { message: Type.Optional(Type.String({ maxLength: 500, description: 'A short note to the owners' })) },
  { additionalProperties: false },
);
export type JoinRequestInput = Static<typeof JoinRequestInput>;

export const DecisionInput = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
    role: Type.Optional(RoleName),
  },
  { additionalProperties: false },
);
export type DecisionInput = Static<typeof DecisionInput>;
