import { Command, Envelope } from '@platform/kit';
import { createAgent } from '../commands/agents.ts';
import { agentView } from '../domain/view.ts';
import { Agent, AgentIdParams, AgentInput } from '../schemas/agents.ts';
import { agentFor } from '../store/access.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['agents'];

/** Creating and reading one agent; the list, by-slug, save and delete live in agent-crud.ts. */
export const AGENT_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents',
    action: 'ManageAgents',
    tags,
    summary: 'Create an agent: persistent by default, stopped until started; the caller owns it',
    description:
      'slug is proposed from the name when omitted (a taken proposal gets -2, -3…); a slug another agent holds is ' +
      '409 slug_taken. The mailbox is the slug at the environment’s domain. lifetime ephemeral only from an agent ' +
      '(service token with X-Platform-Agent-Id; else 422 ephemeral_not_allowed); such a create takes that agent’s ' +
      'owner and copies its members. max_turns is at least 10 (10 when omitted). Tools must be on the harness ' +
      '(422 tool_not_permitted; always-granted ones are dropped), skills only on a harness that allows them ' +
      '(422 skills_not_allowed). Publishes agent.created.',
    body: Command(AgentInput),
    response: Envelope(Agent),
    status: 201,
    errors: [
      'slug_taken',
      'ephemeral_not_allowed',
      'harness_not_found',
      'tool_not_permitted',
      'skills_not_allowed',
      'insufficient_role',
    ],
    run: (ctx, { body }, deps) => createAgent(ctx, body.data, deps.mailDomain),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id',
    action: 'ReadAgents',
    tags,
    summary: 'One agent, with the caller’s role on it (caller_role); 404 without access, as for a missing agent',
    params: AgentIdParams,
    response: Envelope(Agent),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const { agent, held } = await agentFor(deps.database.db, caller, input.params.id, 'viewer');
      return input.reply.envelope(agentView(agent, held));
    },
  }),
];
