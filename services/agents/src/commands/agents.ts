import { conflict, forbidden, unprocessable, uuidv7 } from '@platform/kit';
import { agentNotFound } from '../domain/access.ts';
import {
  checkSkills,
  EPHEMERAL_TTL_MS,
  grantedTools,
  MIN_TURNS,
  mailboxOf,
  proposeSlug,
  requireHarness,
} from '../domain/agents.ts';
import { agentView } from '../domain/view.ts';
import type { AgentInput } from '../schemas/agents.ts';
import { resolveCaller } from '../store/access.ts';
import { type AgentRow, findAgent, freeSlug, insertAgent, slugTaken } from '../store/agents.ts';
import { copyMembers } from '../store/members.ts';
import type { CommandCtx } from './context.ts';

export const slugTakenError = () => conflict('slug_taken', 'Another agent holds this slug');

/** A unique-index violation on the slug, raced by a concurrent create or save: 409 slug_taken. */
export const isSlugRace = (e: unknown) =>
  (e as { code?: string }).code === '23505' && String((e as Error).message).includes('agents_slug');

/** The agent-event fields every event about this agent carries. */
export const refOf = (a: AgentRow, actorFid: string) => ({
  agent_id: a.id,
  parent_id: a.parent_id,
  swarm_id: a.swarm_id,
  lifetime: a.lifetime,
  run_type: a.run_type,
  generation: a.generation,
  actor_fid: actorFid,
});

/** Who an event names as having acted: the person, the agent (agent:<id>), or the service. */
export const actorOf = (c: { fid: string | null; agentId: string | null; principal: { id: string } }) =>
  c.agentId ? `agent:${c.agentId}` : (c.fid ?? c.principal.id);

/**
 * POST /v1/agents. The owner is the caller, or with the service token and X-Platform-Agent-Id that
 * agent's owner, and the new agent copies that agent's members (AGT-102, AGT-103). Ephemeral only
 * when an agent creates it (AGT-027, AGT-028). A new agent is stopped until started.
 */
export async function createAgent(ctx: CommandCtx, input: AgentInput, mailDomain: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  if (caller.fid === null) {
    throw forbidden('The service token creates an agent only for an agent (X-Platform-Agent-Id)', 'insufficient_role');
  }
  const lifetime = input.lifetime ?? 'persistent';
  if (lifetime === 'ephemeral' && caller.agentId === null) {
    throw unprocessable('ephemeral_not_allowed', 'Only an agent may create an ephemeral agent', 'data/lifetime');
  }
  const harness = requireHarness(input.harness_id);
  const tools = grantedTools(harness, input.tools ?? []);
  checkSkills(harness, input.skills ?? []);

  let slug: string;
  if (input.slug !== undefined) {
    if (await slugTaken(ctx.trx, input.slug)) throw slugTakenError();
    slug = input.slug;
  } else {
    slug = await freeSlug(ctx.trx, proposeSlug(input.name));
  }

  const id = uuidv7(ctx.now.getTime());
  const row = {
    id,
    slug,
    name: input.name ?? null,
    instructions: input.instructions ?? null,
    project_id: input.project_id ?? null,
    practice: input.practice ?? null,
    conversation_id: input.conversation_id ?? null,
    owner_fid: caller.fid,
    created_by: caller.agentId ? `agent:${caller.agentId}` : caller.fid,
    email: mailboxOf(slug, mailDomain),
    lifetime,
    run_type: input.run_type ?? 'always_on',
    top_id: id,
    model: input.model ?? 'auto',
    memory_model: input.memory_model ?? 'auto',
    harness_id: harness.id,
    max_turns: Math.max(input.max_turns ?? MIN_TURNS, MIN_TURNS),
    skills: JSON.stringify(
      (input.skills ?? []).map((s) => ({ skill_id: s.skill_id, version_id: s.version_id ?? null })),
    ),
    tools: JSON.stringify(tools),
    contributes_to_knowledge: input.contributes_to_knowledge ?? false,
    ttl_at: lifetime === 'ephemeral' ? new Date(ctx.now.getTime() + EPHEMERAL_TTL_MS) : null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  try {
    await insertAgent(ctx.trx, row);
  } catch (e) {
    if (isSlugRace(e)) throw slugTakenError();
    throw e;
  }
  if (caller.agentId !== null) {
    const parent = await findAgent(ctx.trx, caller.agentId);
    if (parent) await copyMembers(ctx.trx, parent.top_id, id, ctx.now);
  }
  const created = await findAgent(ctx.trx, id);
  if (!created) throw agentNotFound();
  await ctx.emit({ type: 'agent.created', data: refOf(created, actorOf(caller)) });
  return agentView(created, 'owner');
}
