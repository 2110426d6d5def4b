import type { EventSpecs } from '@platform/kit';
import { Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const memberEvent = (description: string, roleDescription: string) => ({
  description,
  payload: Type.Object({
    agent_id: Uuid,
    principal_fid: Type.String({ description: 'The member (a FID)' }),
    role: Type.String({ description: roleDescription }),
    actor_fid: Type.String(),
  }),
});

/** Sharing a top-level agent (spec 3, Agents events): agent id, principal and role; nothing else. */
export const MEMBER_EVENTS = {
  'agent.member_added': memberEvent('A person was given a role on an agent', 'editor or viewer'),
  'agent.member_role_changed': memberEvent("A member's role on an agent changed", 'the new role: editor or viewer'),
  'agent.member_removed': memberEvent('A member was removed from an agent', 'the role they held'),
} as const satisfies EventSpecs;
