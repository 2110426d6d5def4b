import { agentNotFound } from '../domain/access.ts';
import {
  archiveChange,
  type ExpireReason,
  expireChange,
  type LifeChange,
  restartChange,
  startChange,
  stopChange,
} from '../domain/lifecycle.ts';
import { agentView } from '../domain/view.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { type AgentRow, findAgent } from '../store/agents.ts';
import { actorOf, refOf } from './agents.ts';
import type { CommandCtx } from './context.ts';

/**
 * The life-cycle commands (spec 3, Agents "States"). Each records only desired_state, status,
 * generation and ttl_at with its outbox row, in the command's transaction; the reconciler makes
 * the world follow after the commit (src/runner/reconciler.ts). A command that finds the agent
 * already where it asks writes and publishes nothing.
 */

/** What a life-cycle change needs of a command's scope (swarms and coding agents pass theirs). */
export type LifeCtx = Pick<CommandCtx, 'trx' | 'now' | 'emit' | 'principal'>;

/** Writes a change to the agent's row and returns the row as it now is. */
async function record(ctx: LifeCtx, row: AgentRow, change: LifeChange): Promise<AgentRow> {
  await ctx.trx
    .updateTable('agents')
    .set({ ...change, updated_at: ctx.now })
    .where('id', '=', row.id)
    .execute();
  const after = await findAgent(ctx.trx, row.id);
  if (!after) throw agentNotFound();
  return after;
}

/**
 * Starts an agent the caller may start (the row locked by the caller): desired_state running; an
 * ephemeral one under a bumped generation. Refuses expired (409 agent_expired) and archived (409
 * agent_archived) agents; an agent already running is returned as it is. Publishes agent.started
 * with `reason` (start, swarm, coding…). `actor` names who acted on the event (default the principal).
 */
export async function startAgentRow(ctx: LifeCtx, row: AgentRow, reason = 'start', actor?: string): Promise<AgentRow> {
  const change = startChange(row);
  if (!change) return row;
  const after = await record(ctx, row, change);
  await ctx.emit({ type: 'agent.started', data: { ...refOf(after, actor ?? ctx.principal.id), reason } });
  return after;
}

/**
 * Stops an agent (the row locked by the caller): a running persistent agent becomes stopped, a
 * running ephemeral one completed (still active). What does not run is returned as it is.
 * Publishes agent.stopped with `reason` (stop, dismiss, delete…).
 */
export async function stopAgentRow(ctx: LifeCtx, row: AgentRow, reason = 'stop', actor?: string): Promise<AgentRow> {
  const change = stopChange(row);
  if (!change) return row;
  const after = await record(ctx, row, change);
  await ctx.emit({ type: 'agent.stopped', data: { ...refOf(after, actor ?? ctx.principal.id), reason } });
  return after;
}

/** The agent this command changes, locked, with the caller's role checked. */
async function target(ctx: CommandCtx, id: string, needed: 'editor' | 'owner') {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent, held } = await agentFor(ctx.trx, caller, id, needed, { lock: true });
  return { agent, held, actor: actorOf(caller) };
}

/** POST /v1/agents/{id}/start (editor). */
export async function startAgent(ctx: CommandCtx, id: string) {
  const { agent, held, actor } = await target(ctx, id, 'editor');
  return agentView(await startAgentRow(ctx, agent, 'start', actor), held);
}

/** POST /v1/agents/{id}/stop (editor). */
export async function stopAgent(ctx: CommandCtx, id: string) {
  const { agent, held, actor } = await target(ctx, id, 'editor');
  return agentView(await stopAgentRow(ctx, agent, 'stop', actor), held);
}

/**
 * POST /v1/agents/{id}/expire (the harness; editor). finished and wall_clock expire the agent
 * (agent.expired); steps only ends the run, which stays active (agent.stopped, reason steps).
 */
export async function expireAgent(ctx: CommandCtx, id: string, reason: ExpireReason) {
  const { agent, held, actor } = await target(ctx, id, 'editor');
  const change = expireChange(agent, reason);
  if (!change) return agentView(agent, held);
  const after = await record(ctx, agent, change);
  await ctx.emit(
    change.status === 'expired'
      ? { type: 'agent.expired', data: { ...refOf(after, actor), reason } }
      : { type: 'agent.stopped', data: { ...refOf(after, actor), reason } },
  );
  return agentView(after, held);
}

/** POST /v1/agents/{id}/archive (owner only). */
export async function archiveAgent(ctx: CommandCtx, id: string) {
  const { agent, held, actor } = await target(ctx, id, 'owner');
  const after = await record(ctx, agent, archiveChange(agent));
  await ctx.emit({ type: 'agent.archived', data: refOf(after, actor) });
  return agentView(after, held);
}

/** POST /v1/agents/{id}/restart (editor). */
export async function restartAgent(ctx: CommandCtx, id: string) {
  const { agent, held, actor } = await target(ctx, id, 'editor');
  const after = await record(ctx, agent, restartChange(agent, ctx.now));
  await ctx.emit({ type: 'agent.restarted', data: refOf(after, actor) });
  return agentView(after, held);
}
