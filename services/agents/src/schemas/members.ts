import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { AGENT_ROLES } from '../domain/access.ts';
import { Enum, Fid } from './common.ts';

export const MemberParams = Type.Object({ id: Uuid, principal: Fid });

/** PUT /v1/agents/{id}/members/{principal}: the role to give (pinned: {data: {role}}). */
export const MemberInput = Type.Object(
  { role: Enum(['editor', 'viewer'] as const, 'editor (everything but delete and archive) or viewer (read)') },
  { additionalProperties: false },
);
export type MemberInput = Static<typeof MemberInput>;

/** One person with access to an agent: the owner (added_at: the agent's creation), then editors and viewers. */
export const Member = Type.Object({
  principal_fid: Fid,
  role: Enum(AGENT_ROLES),
  added_at: Timestamp,
});
export type Member = Static<typeof Member>;
