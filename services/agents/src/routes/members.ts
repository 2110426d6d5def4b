import { Command, Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { deleteMember, putMember, readMembers } from '../commands/members.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { Member, MemberInput, MemberParams } from '../schemas/members.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['members'];
const WHO =
  'principal is a FID. Members belong to top-level agents: a swarm member or coding agent is 409 child_agent. ' +
  'No access is 404, a role too low 403 insufficient_role; a platform admin changes members only through a role ' +
  'on the agent (X-Platform-As-Member: true).';

/** Sharing an agent: the owner, editors and viewers. */
export const MEMBER_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/agents/:id/members',
    action: 'ReadAgents',
    tags,
    summary: 'Everyone with access: the owner first, then editors and viewers in the order they were added',
    description: 'Needs viewer. A swarm member or coding agent has none: 409 child_agent.',
    params: AgentIdParams,
    response: Envelope(Type.Array(Member)),
    errors: ['agent_not_found', 'child_agent'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      return input.reply.envelope(await readMembers(deps.database.db, caller, input.params.id));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/agents/:id/members/:principal',
    action: 'ManageAgents',
    tags,
    summary: 'Give a person viewer or editor on the agent; needs editor; answers everyone with access',
    description:
      'A new member joins the end of the added order; a new role keeps their place. The owner’s principal is 409 ' +
      'agent_owner. Publishes agent.member_added or agent.member_role_changed (nothing when the role is the one ' +
      `held). ${WHO}`,
    params: MemberParams,
    body: Command(MemberInput),
    response: Envelope(Type.Array(Member)),
    errors: ['agent_not_found', 'insufficient_role', 'child_agent', 'agent_owner'],
    run: (ctx, { params, body }) => putMember(ctx, params.id, params.principal, body.data.role),
  }),

  route({
    method: 'DELETE',
    url: '/v1/agents/:id/members/:principal',
    action: 'ManageAgents',
    tags,
    summary: 'Remove a member; needs editor, except removing yourself; answers everyone left with access',
    description:
      'The owner’s principal is 409 agent_owner. Removing a principal who is not a member changes nothing. ' +
      `Publishes agent.member_removed with the role they held. ${WHO}`,
    params: MemberParams,
    response: Envelope(Type.Array(Member)),
    errors: ['agent_not_found', 'insufficient_role', 'child_agent', 'agent_owner'],
    run: (ctx, { params }) => deleteMember(ctx, params.id, params.principal),
  }),
];
