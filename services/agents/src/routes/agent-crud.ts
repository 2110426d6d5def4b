import { Command, Envelope, PageEnvelope, pageMeta, pageRequest, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { deleteAgent, saveAgent } from '../commands/agent-save.ts';
import { agentNotFound, requireRole } from '../domain/access.ts';
import { agentView } from '../domain/view.ts';
import { AGENT_PAGE, AgentListQuery } from '../schemas/agent-list.ts';
import { Agent, AgentIdParams, AgentSave, SlugParams } from '../schemas/agents.ts';
import { accessTo } from '../store/access.ts';
import { listAgents } from '../store/agent-list.ts';
import { findAgentBySlug } from '../store/agents.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['agents'];

const ACCESS =
  'Access follows the top agent’s owner and members (a swarm member or coding agent follows its top ancestor); ' +
  'no access is 404 as for a missing agent, a role too low 403 insufficient_role; a platform admin reads every ' +
  'agent but changes one only through a role on it, sending X-Platform-As-Member: true.';

/** The agent list, by-slug, raw save and delete (create and read-one are in agents.ts). */
export const AGENT_CRUD_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/agents',
    action: 'ReadAgents',
    tags,
    summary: 'The agents the caller owns or is a member of, newest first; page mode, 50 by default, at most 200',
    description:
      'Default: top-level agents that are not archived (expired ephemeral top-level agents included). ' +
      'lifetime=persistent: top-level persistent agents; lifetime=ephemeral: swarm members that are not archived. ' +
      'status=archive: archived top-level agents (status narrows to that status; unset leaves archived ones out). ' +
      'desired_state narrows; q matches, any case, a part of the name, slug, email address, instructions, owner FID ' +
      'or creator (FID, or agent:<id>), and a whole email address also the owner or creator signed in as it when ' +
      'identity does not know them (the FID the platform derives from the email); project_id (comma-separated) ' +
      'must match as well. A platform admin lists every agent unless X-Platform-As-Member: true; the service token ' +
      'alone (an editor everywhere) lists every agent; with X-Platform-Agent-Id, the agents of that agent’s owner.',
    query: AgentListQuery,
    response: PageEnvelope(Agent),
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const { lifetime, status, desired_state, q, project_id } = input.query;
      const page = pageRequest(input.query, AGENT_PAGE.pageSize);
      const projectIds = project_id ? [...new Set(project_id.toLowerCase().split(','))].slice(0, 100) : undefined;
      const { items, total } = await listAgents(
        deps.database.db,
        caller,
        { lifetime, status, desired_state, q, projectIds },
        page,
      );
      return input.reply.envelope(
        items.map((i) => agentView(i.row, i.role)),
        pageMeta(page, total),
      );
    },
  }),

  route({
    method: 'GET',
    url: '/v1/agents/by-slug/:slug',
    action: 'ReadAgents',
    tags,
    summary: 'One agent by its slug (inbound mail finds its agent so); 404 without access, as for a missing agent',
    description: ACCESS,
    params: SlugParams,
    response: Envelope(Agent),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const agent = await findAgentBySlug(deps.database.db, input.params.slug);
      if (!agent) throw agentNotFound();
      const access = await accessTo(deps.database.db, caller, agent);
      requireRole(access, 'viewer', 'read');
      return input.reply.envelope(agentView(agent, access.role));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/agents/:id',
    action: 'ManageAgents',
    tags,
    summary: 'Save a persistent agent (raw PUT); needs editor',
    description:
      'name, instructions, project_id, practice and conversation_id not sent are cleared. slug, run_type, model, ' +
      'memory_model, harness_id, max_turns (at least 10), skills, tools and contributes_to_knowledge not sent are ' +
      'kept. A slug another agent holds is 409 slug_taken (the mailbox follows the slug). Tools must be on the ' +
      'harness the agent ends up with (422 tool_not_permitted; always-granted ones are dropped), skills only on a ' +
      'harness that allows them (422 skills_not_allowed). Changing run_type or harness_id while the agent should ' +
      'be running is 409 agent_running: stop it first. A change of instructions, model, memory_model, skills, ' +
      'harness_id or tools bumps generation (the workload rolls). An ephemeral agent is 409 ephemeral_agent (its ' +
      'definition is fixed; it ends by expiry or dismissal). Publishes agent.updated naming the changed fields, and ' +
      'agent.skills_changed or agent.tools_changed when those changed; a save that changes nothing publishes ' +
      `nothing. ${ACCESS}`,
    params: AgentIdParams,
    body: Command(AgentSave),
    response: Envelope(Agent),
    errors: [
      'agent_not_found',
      'insufficient_role',
      'ephemeral_agent',
      'slug_taken',
      'agent_running',
      'harness_not_found',
      'tool_not_permitted',
      'skills_not_allowed',
    ],
    run: (ctx, { params, body }, deps) => saveAgent(ctx, params.id, body.data, deps.mailDomain),
  }),

  route({
    method: 'DELETE',
    url: '/v1/agents/:id',
    action: 'ManageAgents',
    tags,
    summary: 'Delete a persistent agent and its children; the owner only',
    description:
      'Editors and viewers get 403 insufficient_role. Its swarm members and coding agents go with it, and the ' +
      'runner removes their workloads. An ephemeral agent is 409 ephemeral_agent. Publishes agent.deleted, and ' +
      `agent.stopped (reason delete) when it was running. ${ACCESS}`,
    params: AgentIdParams,
    response: Envelope(Type.Object({ id: Uuid, deleted: Type.Literal(true) })),
    errors: ['agent_not_found', 'insufficient_role', 'ephemeral_agent'],
    run: (ctx, { params }) => deleteAgent(ctx, params.id),
  }),
];
