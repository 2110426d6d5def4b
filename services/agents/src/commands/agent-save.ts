import { conflict } from '@platform/kit';
import { agentNotFound } from '../domain/access.ts';
import {
  checkSkills,
  definitionChanged,
  grantedTools,
  MIN_TURNS,
  mailboxOf,
  requireHarness,
  type SkillGrant,
} from '../domain/agents.ts';
import { agentView } from '../domain/view.ts';
import type { AgentSave } from '../schemas/agents.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { type AgentRow, findAgent, slugTaken } from '../store/agents.ts';
import { actorOf, isSlugRace, refOf, slugTakenError } from './agents.ts';
import type { CommandCtx } from './context.ts';

/** PUT and DELETE change persistent agents only; an ephemeral one is read, and ends by expiry or dismissal. */
const requirePersistent = (a: AgentRow) => {
  if (a.lifetime !== 'persistent') {
    throw conflict(
      'ephemeral_agent',
      'Ephemeral agents are not saved or deleted: dismiss their swarm or let them expire',
    );
  }
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields a save compares, in the order agent.updated names them. */
const SAVED = [
  'slug',
  'name',
  'instructions',
  'project_id',
  'practice',
  'conversation_id',
  'run_type',
  'model',
  'memory_model',
  'harness_id',
  'max_turns',
  'skills',
  'tools',
  'contributes_to_knowledge',
] as const;
type Saved = (typeof SAVED)[number];

/**
 * Raw PUT /v1/agents/{id} (spec 3): name, instructions, project_id, practice and conversation_id
 * not sent are cleared (AGT-015..019); everything else not sent is kept (AGT-040, AGT-048). Tools
 * and skills are checked against the harness the agent ends up with (AGT-108, AGT-109). run_type
 * and harness_id do not change under a running agent (409 agent_running). A change of the
 * definition bumps generation so the runner rolls the workload (AGT-030..035). A save that changes
 * nothing writes nothing and publishes nothing.
 */
export async function saveAgent(ctx: CommandCtx, id: string, input: AgentSave, mailDomain: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent: before, held } = await agentFor(ctx.trx, caller, id, 'editor', { lock: true });
  requirePersistent(before);

  const harness = requireHarness(input.harness_id ?? before.harness_id);
  const beforeSkills = before.skills as unknown as SkillGrant[];
  const beforeTools = before.tools as unknown as string[];
  const skills = input.skills?.map((s) => ({ skill_id: s.skill_id, version_id: s.version_id ?? null })) ?? beforeSkills;
  const tools = grantedTools(harness, input.tools ?? beforeTools);
  checkSkills(harness, skills);

  const slug = input.slug ?? before.slug;
  const after: Record<Saved, unknown> = {
    slug,
    name: input.name ?? null,
    instructions: input.instructions ?? null,
    project_id: input.project_id ?? null,
    practice: input.practice ?? null,
    conversation_id: input.conversation_id ?? null,
    run_type: input.run_type ?? before.run_type,
    model: input.model ?? before.model,
    memory_model: input.memory_model ?? before.memory_model,
    harness_id: harness.id,
    max_turns: Math.max(input.max_turns ?? before.max_turns, MIN_TURNS),
    skills,
    tools,
    contributes_to_knowledge: input.contributes_to_knowledge ?? before.contributes_to_knowledge,
  };
  const changed = SAVED.filter((f) => !same(before[f], after[f]));
  if (changed.length === 0) return agentView(before, held);

  if (before.desired_state === 'running' && (changed.includes('run_type') || changed.includes('harness_id'))) {
    throw conflict('agent_running', 'Stop the agent before changing its run_type or harness_id');
  }
  if (changed.includes('slug') && (await slugTaken(ctx.trx, slug, before.id))) throw slugTakenError();

  const bump = definitionChanged(
    { ...before, skills: beforeSkills, tools: beforeTools },
    { ...(after as Record<Saved, never>), skills, tools },
  );
  try {
    await ctx.trx
      .updateTable('agents')
      .set({
        slug,
        email: changed.includes('slug') ? mailboxOf(slug, mailDomain) : before.email,
        name: after.name as string | null,
        instructions: after.instructions as string | null,
        project_id: after.project_id as string | null,
        practice: after.practice as string | null,
        conversation_id: after.conversation_id as string | null,
        run_type: after.run_type as string,
        model: after.model as string,
        memory_model: after.memory_model as string,
        harness_id: harness.id,
        max_turns: after.max_turns as number,
        skills: JSON.stringify(skills),
        tools: JSON.stringify(tools),
        contributes_to_knowledge: after.contributes_to_knowledge as boolean,
        generation: bump ? before.generation + 1 : before.generation,
        updated_at: ctx.now,
      })
      .where('id', '=', before.id)
      .execute();
  } catch (e) {
    if (isSlugRace(e)) throw slugTakenError();
    throw e;
  }
  const saved = await findAgent(ctx.trx, before.id);
  if (!saved) throw agentNotFound();
  const ref = refOf(saved, actorOf(caller));
  await ctx.emit({ type: 'agent.updated', data: { ...ref, fields: changed } });
  if (changed.includes('skills')) {
    await ctx.emit({ type: 'agent.skills_changed', data: { ...ref, skill_ids: skills.map((s) => s.skill_id) } });
  }
  if (changed.includes('tools')) await ctx.emit({ type: 'agent.tools_changed', data: { ...ref, tools } });
  return agentView(saved, held);
}

/**
 * DELETE /v1/agents/{id}: the owner only (AGT-322). Its children go with it (foreign keys
 * cascade); the reconciler removes the workloads of agents that no longer exist. A running agent
 * is also reported stopped (reason delete).
 */
export async function deleteAgent(ctx: CommandCtx, id: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await agentFor(ctx.trx, caller, id, 'owner', { lock: true });
  requirePersistent(agent);
  const ref = refOf(agent, actorOf(caller));
  if (agent.desired_state === 'running') {
    await ctx.emit({ type: 'agent.stopped', data: { ...ref, reason: 'delete' } });
  }
  await ctx.emit({ type: 'agent.deleted', data: ref });
  await ctx.trx.deleteFrom('agents').where('id', '=', agent.id).execute();
  return { id: agent.id, deleted: true as const };
}
