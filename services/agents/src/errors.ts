import { defineErrors } from '@platform/kit';

/**
 * Every error code the agents service answers beyond the kit's own (spec 3, Agents errors): its
 * status, what it means. Routes declare which of them they answer; the OpenAPI lists them per
 * status. Each area adds its codes here.
 */
export const ERRORS = defineErrors({
  agent_not_found: { status: 404, meaning: 'No such agent, or the caller has no access to it' },
  insufficient_role: { status: 403, meaning: "The caller's role on the agent does not allow this" },
  agent_header_not_allowed: {
    status: 403,
    meaning: 'X-Platform-Agent-Id is accepted only from the platform service token',
  },
  child_agent: { status: 409, meaning: 'Swarm members and coding agents have no members: they follow their top agent' },
  agent_owner: { status: 409, meaning: 'The owner is not changed or removed through members' },
  slug_taken: { status: 409, meaning: 'Another agent holds this slug' },
  ephemeral_not_allowed: { status: 422, meaning: 'Only an agent may create an ephemeral agent' },
  harness_not_found: { status: 422, meaning: 'No such harness' },
  tool_not_permitted: { status: 422, meaning: 'The harness does not permit this tool' },
  skills_not_allowed: { status: 422, meaning: 'The harness does not allow skills' },
  agent_running: { status: 409, meaning: 'run_type and harness_id change only while the agent is stopped' },
});
export type ErrorCode = keyof typeof ERRORS;
