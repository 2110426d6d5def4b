import {
  Command,
  commandScope,
  Envelope,
  OptionalDataCommand,
  type RouteInput,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { CommandCtx } from '../commands/context.ts';
import { archiveAgent, expireAgent, restartAgent, startAgent, stopAgent } from '../commands/lifecycle.ts';
import { EXPIRE_REASONS } from '../domain/lifecycle.ts';
import { agentView } from '../domain/view.ts';
import { Agent, AgentIdParams } from '../schemas/agents.ts';
import { findAgent } from '../store/agents.ts';
import type { DB } from '../store/db.ts';
import { callerHint, type RouteDeps, type Routes, route } from './deps.ts';

const tags = ['agents'];

/** How long start and restart wait for the reconciler's pass before answering anyway. */
export const SETTLE_MS = 5_000;

const NoData = OptionalDataCommand(Type.Object({}, { additionalProperties: false }));

const ExpireInput = Type.Object(
  {
    reason: Type.Union(
      EXPIRE_REASONS.map((r) => Type.Literal(r)),
      {
        description:
          'finished: the run is done; wall_clock: ttl_at passed; steps: the run used its step allowance (stays active)',
      },
    ),
  },
  { additionalProperties: false },
);

type Input = RouteInput<unknown, unknown, { id: string }>;

/**
 * Runs a start or restart once per Idempotency-Key in its transaction, then waits (at most
 * SETTLE_MS) for a reconcile pass to apply it and answers the agent as it then is:
 * observed_generation equals generation when the runner applied it in time, runner_error says
 * why not. A replay answers the stored result at once.
 */
async function thenSettle(input: Input, deps: RouteDeps, work: (ctx: CommandCtx) => Promise<Agent>) {
  const { req, reply, principal } = input;
  const now = deps.clock();
  const hint = callerHint(req, principal, deps.can);
  let result = await runCommand<Agent, DB>({ db: deps.database.db, req, principal }, async (trx) => ({
    status: 200,
    data: await work({ ...commandScope<DB>(deps, trx, principal, now), hint } as unknown as CommandCtx),
  }));
  if (!result.replayed && deps.settle) {
    await deps.settle(SETTLE_MS);
    const fresh = await findAgent(deps.database.db, result.data.id);
    if (fresh) result = { ...result, data: agentView(fresh, result.data.caller_role) };
  }
  return sendCommandResult(reply, result);
}

/** The life cycle (spec 3, Agents "States"): start, stop, expire, archive, restart. */
export const LIFECYCLE_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/start',
    action: 'StartAgents',
    tags,
    summary: 'Start an agent (editors): desired_state running; answers after one reconcile pass (bounded)',
    description:
      'Persistent and ephemeral agents start; an expired agent is 409 agent_expired (restart it instead), an ' +
      'archived one 409 agent_archived. An always-on persistent agent gets its Deployment (its process locally); ' +
      'an on-demand one gets no workload and starts accepting calls; an ephemeral agent runs a Job under a bumped ' +
      'generation, so a stopped (completed) ephemeral agent can start again. Starting a running agent changes ' +
      'nothing. The answer waits up to 5 s for the reconciler to apply the start: observed_generation equals ' +
      'generation when it did, runner_error says why not; a later pass applies it either way. Publishes ' +
      'agent.started (reason start).',
    params: AgentIdParams,
    emptyBody: true,
    body: NoData,
    response: Envelope(Agent),
    errors: ['agent_not_found', 'insufficient_role', 'agent_expired', 'agent_archived'],
    handler: (input, deps) => thenSettle(input, deps, (ctx) => startAgent(ctx, input.params.id)),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/stop',
    action: 'StartAgents',
    tags,
    summary: 'Stop an agent (editors): persistent ones stop, ephemeral ones complete and stay active',
    description:
      'A running persistent agent gets desired_state stopped; a running ephemeral agent desired_state completed ' +
      'with status still active (it can start again). The harness stops on the reconciler’s next pass. Stopping ' +
      'an agent that does not run changes nothing. Publishes agent.stopped (reason stop).',
    params: AgentIdParams,
    emptyBody: true,
    body: NoData,
    response: Envelope(Agent),
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params }) => stopAgent(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/expire',
    action: 'StartAgents',
    tags,
    summary: 'Expire an ephemeral agent (the harness; editors): its run finished or its wall clock ran out',
    description:
      'reason finished or wall_clock: status expired and the run is over (desired_state completed; agent.expired). ' +
      'reason steps: the run used its step allowance; it ends (desired_state completed) and the agent stays ' +
      'active, so it can start again (agent.stopped, reason steps). A persistent agent is 409 not_ephemeral, an ' +
      'archived one 409 agent_archived; expiring an expired agent again changes nothing.',
    params: AgentIdParams,
    body: Command(ExpireInput),
    response: Envelope(Agent),
    errors: ['agent_not_found', 'insufficient_role', 'not_ephemeral', 'agent_archived'],
    run: (ctx, { params, body }) => expireAgent(ctx, params.id, body.data.reason),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/archive',
    action: 'StartAgents',
    tags,
    summary: 'Archive an agent (owner only): status archive, its harness stops',
    description:
      'Any agent not archived yet may be archived, an expired ephemeral one included; archiving an archived agent ' +
      'is 409 agent_archived. A running agent’s desired_state becomes stopped and its workload is removed on the ' +
      'reconciler’s next pass; start and restart then refuse it. Editors get 403 insufficient_role. Publishes ' +
      'agent.archived.',
    params: AgentIdParams,
    emptyBody: true,
    body: NoData,
    response: Envelope(Agent),
    errors: ['agent_not_found', 'insufficient_role', 'agent_archived'],
    run: (ctx, { params }) => archiveAgent(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/restart',
    action: 'StartAgents',
    tags,
    summary: 'Restart an agent (editors) under a new generation; answers after one reconcile pass (bounded)',
    description:
      'generation + 1 and desired_state running. An ephemeral agent, expired or not, becomes active with ttl_at ' +
      'four hours ahead and runs a new Job. An always-on persistent agent’s Deployment is recycled (its pod ' +
      'template carries the generation); an on-demand one has no workload and accepts calls. An archived agent is ' +
      '409 agent_archived. Waits for the reconciler like start. Publishes agent.restarted.',
    params: AgentIdParams,
    emptyBody: true,
    body: NoData,
    response: Envelope(Agent),
    errors: ['agent_not_found', 'insufficient_role', 'agent_archived'],
    handler: (input, deps) => thenSettle(input, deps, (ctx) => restartAgent(ctx, input.params.id)),
  }),
];
