import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DESIRED_STATES, LIFETIMES, STATUSES } from '../domain/agents.ts';
import { Enum } from './common.ts';

/** The agent list's page sizes: 50 by default, at most 200 (as construction's lists). */
export const AGENT_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

const UUID_LIST = '^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$';

export const AgentListQuery = Type.Object(
  {
    lifetime: Type.Optional(
      Enum(LIFETIMES, 'persistent: top-level persistent agents; ephemeral: non-archived swarm members, newest first'),
    ),
    status: Type.Optional(Enum(STATUSES, 'archive lists archived top-level agents; unset leaves archived ones out')),
    desired_state: Type.Optional(Enum(DESIRED_STATES)),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Contains, any case: name, slug, email address, instructions, owner FID or creator (FID or agent:<id>); ' +
          "a whole email address also matches the owner or creator it signs in as when identity doesn't know it",
      }),
    ),
    project_id: Type.Optional(
      Type.String({
        maxLength: 3_700,
        pattern: UUID_LIST,
        description: 'Project ids separated by commas (at most 100): agents of any of them, alongside q',
      }),
    ),
    ...pageQuery(AGENT_PAGE),
  },
  { additionalProperties: false },
);
export type AgentListQuery = Static<typeof AgentListQuery>;
