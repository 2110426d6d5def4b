import { Command, Envelope, OptionalDataCommand, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { createCodingAgent } from '../commands/coding-agents.ts';
import { dismissSwarm, spawnSwarm } from '../commands/swarms.ts';
import { agentView } from '../domain/view.ts';
import { Agent, AgentIdParams } from '../schemas/agents.ts';
import {
  CHILDREN_PAGE,
  ChildrenQuery,
  CodingAgentInput,
  Dismissal,
  MAX_SWARM_MEMBERS,
  Swarm,
  SwarmInput,
  SwarmParams,
} from '../schemas/swarms.ts';
import { agentFor } from '../store/access.ts';
import { listChildren } from '../store/children.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['swarms'];

/** Children of an agent: swarms, their dismissal, coding agents, and the children list. */
export const SWARM_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/swarm',
    action: 'StartAgents',
    tags,
    summary: 'Spawn a swarm: ephemeral members of {id}, running at once, under one new swarm_id',
    description:
      `One to ${MAX_SWARM_MEMBERS} members per call (more is 422 validation_failed), each {name, instructions}; ` +
      'the slug is proposed from the name. A member is ephemeral (ttl_at four hours ahead), child_kind swarm, ' +
      'parent_id {id}, owned by the top agent’s owner and following its members (it has none of its own); it ' +
      'takes the parent’s harness, models, max_turns, skills, tools, project and practice; desired_state running, ' +
      'so the runner starts a Job per member. created_by is agent:<id> when an agent asks (service token with ' +
      'X-Platform-Agent-Id), else the person. Needs editor on {id}; an expired or archived parent is 409 ' +
      'parent_not_active. Publishes agent.created and agent.started (reason swarm) per member.',
    params: AgentIdParams,
    body: Command(SwarmInput),
    response: Envelope(Swarm),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role', 'parent_not_active', 'slug_taken'],
    run: (ctx, { params, body }, deps) => spawnSwarm(ctx, params.id, body.data, deps.mailDomain),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/children',
    action: 'ReadAgents',
    tags,
    summary: 'The agents {id} spawned (swarm members and coding agents), archived included, newest first',
    description: `Direct children only; page mode, ${CHILDREN_PAGE.pageSize} by default, at most ${CHILDREN_PAGE.maxPageSize}. Needs viewer on {id}.`,
    params: AgentIdParams,
    query: ChildrenQuery,
    response: PageEnvelope(Agent),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const { agent, held } = await agentFor(deps.database.db, caller, input.params.id, 'viewer');
      const page = pageRequest(input.query, CHILDREN_PAGE.pageSize);
      const { items, total } = await listChildren(deps.database.db, agent.id, page);
      return input.reply.envelope(
        items.map((c) => agentView(c, held)),
        pageMeta(page, total),
      );
    },
  }),

  route({
    method: 'POST',
    url: '/v1/swarms/:id/dismiss',
    action: 'StartAgents',
    tags,
    summary: 'Dismiss a swarm: every member still running spins down (desired_state completed)',
    description:
      'Needs editor on the swarm’s top agent; an unknown swarm, or one the caller cannot see, is 404 ' +
      'swarm_not_found. Each member spun down publishes agent.stopped (reason dismiss), then one swarm.dismissed ' +
      'names the parent and every member. A repeat finds nothing running: 200 with the members as they are, ' +
      'stopped_ids empty, nothing published. The body may be omitted or {data: {}}.',
    params: SwarmParams,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    response: Envelope(Dismissal),
    errors: ['swarm_not_found', 'insufficient_role'],
    run: (ctx, { params }) => dismissSwarm(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/coding-agents',
    action: 'StartAgents',
    tags,
    summary: 'Start an ephemeral coding agent for one repository, a child of {id}',
    description:
      'The parent must be persistent (409 parent_not_persistent) and active, not expired or archived (409 ' +
      'parent_not_active). harness_id must declare repo_scope (422 harness_not_coding; unknown: 422 ' +
      'harness_not_found); omitted, the first coding harness. The agent (child_kind coding, the repository, ' +
      'ttl_at four hours ahead, desired_state running) gets every tool of its harness and the parent’s models, ' +
      'max_turns, project and practice; it is owned by the parent’s owner. Needs editor on {id}. ' +
      'X-Platform-Agent-Id is accepted only with the service token (403 agent_header_not_allowed) and must name ' +
      '{id} (403 agent_header_mismatch); then created_by is agent:<id>, else the person. Publishes agent.created ' +
      'and agent.started (reason coding).',
    params: AgentIdParams,
    body: Command(CodingAgentInput),
    response: Envelope(Agent),
    status: 201,
    errors: [
      'agent_not_found',
      'insufficient_role',
      'agent_header_mismatch',
      'parent_not_persistent',
      'parent_not_active',
      'harness_not_found',
      'harness_not_coding',
      'slug_taken',
    ],
    run: (ctx, { params, body }, deps) => createCodingAgent(ctx, params.id, body.data, deps.mailDomain),
  }),
];
