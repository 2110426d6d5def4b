import type { Agent } from '../schemas/agents.ts';
import type { AgentRow } from '../store/agents.ts';
import type { AgentRole } from './access.ts';
import type { SkillGrant } from './agents.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An agent as every route shows it: its row without the call secret's hash (AGT-052), with the caller's role. */
export function agentView(r: AgentRow, callerRole: AgentRole | null): Agent {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    instructions: r.instructions,
    project_id: r.project_id,
    practice: r.practice,
    conversation_id: r.conversation_id,
    owner_fid: r.owner_fid,
    created_by: r.created_by,
    email: r.email,
    last_heartbeat_at: iso(r.last_heartbeat_at),
    lifetime: r.lifetime as Agent['lifetime'],
    run_type: r.run_type as Agent['run_type'],
    status: r.status as Agent['status'],
    desired_state: r.desired_state as Agent['desired_state'],
    generation: r.generation,
    observed_generation: r.observed_generation,
    runner_error: r.runner_error,
    model: r.model,
    memory_model: r.memory_model,
    harness_id: r.harness_id,
    max_turns: r.max_turns,
    skills: r.skills as unknown as SkillGrant[],
    tools: r.tools as unknown as string[],
    contributes_to_knowledge: r.contributes_to_knowledge,
    workspace_conversation_id: r.workspace_conversation_id,
    call_secret_pending: r.call_secret_hash !== null,
    caller_role: callerRole,
    ttl_at: iso(r.ttl_at),
    parent_id: r.parent_id,
    swarm_id: r.swarm_id,
    child_kind: r.child_kind as Agent['child_kind'],
    repository: r.repository,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
