import { pageQuery, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { Agent } from './agents.ts';

/** At most this many members per swarm call: a larger fan-out is several calls, each its own swarm. */
export const MAX_SWARM_MEMBERS = 20;
/** The children list: newest first, page mode. */
export const CHILDREN_PAGE = { pageSize: 50, maxPageSize: 200 };

export const SwarmMemberInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'The member’s name; its slug is proposed from it' }),
    instructions: Type.String({ minLength: 1, maxLength: 100_000, description: 'What this member is to do' }),
  },
  { additionalProperties: false },
);

export const SwarmInput = Type.Object(
  {
    members: Type.Array(SwarmMemberInput, {
      minItems: 1,
      maxItems: MAX_SWARM_MEMBERS,
      description: `One to ${MAX_SWARM_MEMBERS} members, spawned together as one swarm`,
    }),
  },
  { additionalProperties: false },
);
export type SwarmInput = Static<typeof SwarmInput>;

export const Swarm = Type.Object({
  swarm_id: Uuid,
  members: Type.Array(Agent, { description: 'The members, in the order the request named them' }),
});
export type Swarm = Static<typeof Swarm>;

export const SwarmParams = Type.Object({ id: Uuid });

export const Dismissal = Type.Object({
  swarm_id: Uuid,
  parent_id: Uuid,
  members: Type.Array(Agent, { description: 'Every member of the swarm, as it stands after the dismissal' }),
  stopped_ids: Type.Array(Uuid, {
    description: 'The members this call spun down; empty when none was running (a repeated dismissal)',
  }),
});
export type Dismissal = Static<typeof Dismissal>;

export const ChildrenQuery = Type.Object({ ...pageQuery(CHILDREN_PAGE) }, { additionalProperties: false });

export const CodingAgentInput = Type.Object(
  {
    repository: Type.String({
      minLength: 1,
      maxLength: 300,
      pattern: '^\\S+$',
      description: 'The one repository the agent works in (a name such as platform, owner/name, or a clone URL)',
    }),
    harness_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A harness declaring repo_scope (else 422 harness_not_coding); omitted: the first coding harness',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CodingAgentInput = Static<typeof CodingAgentInput>;
