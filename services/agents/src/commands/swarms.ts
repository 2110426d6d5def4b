import { conflict, notFound, uuidv7 } from '@platform/kit';
import { type AgentRole, type Caller, requireRole } from '../domain/access.ts';
import { EPHEMERAL_TTL_MS, mailboxOf, proposeSlug } from '../domain/agents.ts';
import { agentView } from '../domain/view.ts';
import type { Dismissal, Swarm, SwarmInput } from '../schemas/swarms.ts';
import { accessTo, agentFor, resolveCaller } from '../store/access.ts';
import { type AgentRow, findAgent, freeSlug, insertAgent, type NewAgent, topOwner } from '../store/agents.ts';
import { lockSwarm } from '../store/children.ts';
import { actorOf, isSlugRace, refOf, slugTakenError } from './agents.ts';
import type { CommandCtx } from './context.ts';
import { stopAgentRow } from './lifecycle.ts';

export const swarmNotFound = () => notFound('Swarm', 'swarm_not_found');

/** A parent that is expired or archived spawns nothing (AGT-134; swarms alike). */
export function requireActiveParent(parent: AgentRow): void {
  if (parent.status !== 'active') {
    throw conflict('parent_not_active', `The parent agent is ${parent.status}: it spawns no children`);
  }
}

/** Who a child names as its creator: agent:<id> when an agent made the call (AGT-022), else the person or service. */
export const creatorOf = (caller: Caller) => actorOf(caller);

/**
 * A child's row: ephemeral, running under generation 1 until four hours from now, owned by its
 * top agent's owner and following that agent's members (it gets none of its own: members routes
 * answer 409 child_agent by child_kind). `fields` names what differs per child.
 */
export async function spawnChild(
  ctx: CommandCtx,
  parent: AgentRow,
  caller: Caller,
  mailDomain: string,
  fields: Pick<NewAgent, 'name' | 'instructions' | 'child_kind' | 'swarm_id' | 'repository' | 'harness_id' | 'tools'> &
    Partial<Pick<NewAgent, 'skills'>>,
): Promise<AgentRow> {
  const id = uuidv7(ctx.now.getTime());
  const slug = await freeSlug(ctx.trx, proposeSlug(fields.name));
  const row: NewAgent = {
    id,
    slug,
    email: mailboxOf(slug, mailDomain),
    name: fields.name,
    instructions: fields.instructions,
    project_id: parent.project_id,
    practice: parent.practice,
    owner_fid: await topOwner(ctx.trx, parent),
    created_by: creatorOf(caller),
    lifetime: 'ephemeral',
    run_type: 'always_on',
    child_kind: fields.child_kind,
    parent_id: parent.id,
    top_id: parent.top_id,
    swarm_id: fields.swarm_id ?? null,
    repository: fields.repository ?? null,
    status: 'active',
    desired_state: 'running',
    generation: 1,
    model: parent.model,
    memory_model: parent.memory_model,
    harness_id: fields.harness_id,
    max_turns: parent.max_turns,
    skills: fields.skills ?? JSON.stringify([]),
    tools: fields.tools,
    contributes_to_knowledge: parent.contributes_to_knowledge,
    ttl_at: new Date(ctx.now.getTime() + EPHEMERAL_TTL_MS),
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  try {
    await insertAgent(ctx.trx, row);
  } catch (e) {
    if (isSlugRace(e)) throw slugTakenError();
    throw e;
  }
  const child = await findAgent(ctx.trx, id);
  if (!child) throw new Error(`The child ${id} just written is not there`);
  const ref = refOf(child, actorOf(caller));
  await ctx.emit({ type: 'agent.created', data: ref });
  await ctx.emit({ type: 'agent.started', data: { ...ref, reason: fields.child_kind ?? 'swarm' } });
  return child;
}

/**
 * POST /v1/agents/{id}/swarm: one ephemeral member per entry, all under one new swarm id, each
 * with the parent's harness, models, turns, skills and tools and its own name and instructions;
 * desired running, so the reconciler runs a Job per member (AGT-112). Needs editor on the parent.
 */
export async function spawnSwarm(
  ctx: CommandCtx,
  parentId: string,
  input: SwarmInput,
  mailDomain: string,
): Promise<Swarm> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent: parent, held } = await agentFor(ctx.trx, caller, parentId, 'editor', { lock: true });
  requireActiveParent(parent);
  const swarmId = uuidv7(ctx.now.getTime());
  const members: AgentRow[] = [];
  for (const m of input.members) {
    members.push(
      await spawnChild(ctx, parent, caller, mailDomain, {
        name: m.name,
        instructions: m.instructions,
        child_kind: 'swarm',
        swarm_id: swarmId,
        repository: null,
        harness_id: parent.harness_id,
        tools: JSON.stringify(parent.tools),
        skills: JSON.stringify(parent.skills),
      }),
    );
  }
  return { swarm_id: swarmId, members: members.map((a) => agentView(a, held)) };
}

/**
 * POST /v1/swarms/{id}/dismiss: every member still meant to run spins down (desired_state
 * completed, status kept, as an ephemeral stop), each with agent.stopped (reason dismiss), and one
 * swarm.dismissed naming the parent (agent_id, with its lifetime and run type) and every member
 * (AGT-116, AGT-334). Needs editor on the swarm's top agent; a swarm the
 * caller cannot see is 404 swarm_not_found, as a missing one. A repeat finds nothing running:
 * it answers the same members with stopped_ids empty and publishes nothing.
 */
export async function dismissSwarm(ctx: CommandCtx, swarmId: string): Promise<Dismissal> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const members = await lockSwarm(ctx.trx, swarmId);
  const first = members[0];
  if (!first) throw swarmNotFound();
  const access = await accessTo(ctx.trx, caller, first);
  if (access.role === null && !access.admin) throw swarmNotFound();
  const held: AgentRole | null = access.role;
  requireRole(access, 'editor', 'write');

  const actor = actorOf(caller);
  const after: AgentRow[] = [];
  const stoppedIds: string[] = [];
  for (const m of members) {
    const now = await stopAgentRow(ctx, m, 'dismiss', actor);
    if (now !== m) stoppedIds.push(m.id);
    after.push(now);
  }
  const parentId = first.parent_id as string;
  if (stoppedIds.length > 0) {
    const parent = await findAgent(ctx.trx, parentId);
    await ctx.emit({
      type: 'swarm.dismissed',
      data: {
        swarm_id: swarmId,
        agent_id: parentId,
        member_ids: after.map((m) => m.id),
        lifetime: parent?.lifetime ?? first.lifetime,
        run_type: parent?.run_type ?? first.run_type,
        actor_fid: actor,
      },
    });
  }
  return {
    swarm_id: swarmId,
    parent_id: parentId,
    members: after.map((m) => agentView(m, held)),
    stopped_ids: stoppedIds,
  };
}
