import { conflict } from '@platform/kit';
import { agentNotFound, type Caller, requireRole } from '../domain/access.ts';
import type { Member } from '../schemas/members.ts';
import { accessTo, agentFor, resolveCaller } from '../store/access.ts';
import { type AgentRow, lockAgent } from '../store/agents.ts';
import type { Db } from '../store/db.ts';
import { addMember, listMembers, lockMember, removeMember, setMemberRole } from '../store/members.ts';
import { actorOf } from './agents.ts';
import type { CommandCtx } from './context.ts';

/** Swarm members and coding agents have no members of their own: they follow their top agent (AGT-119..121). */
export const requireTopLevel = (a: AgentRow) => {
  if (a.parent_id !== null || a.top_id !== a.id) {
    throw conflict('child_agent', 'A swarm member or coding agent has no members: share its top agent');
  }
};

const ownerOnly = () => conflict('agent_owner', 'The owner is not changed or removed through members');

/** Everyone with access to a top agent: the owner first, then editors and viewers in added order (AGT-117, AGT-118). */
export async function membersOf(db: Db, top: AgentRow): Promise<Member[]> {
  const rows = await listMembers(db, top.id);
  return [
    { principal_fid: top.owner_fid, role: 'owner', added_at: top.created_at.toISOString() },
    ...rows.map((r) => ({ principal_fid: r.principal_fid, role: r.role, added_at: r.added_at.toISOString() })),
  ];
}

const memberEvent = (agent: AgentRow, principal: string, role: string, caller: Caller) => ({
  agent_id: agent.id,
  principal_fid: principal,
  role,
  actor_fid: actorOf(caller),
});

/**
 * PUT /v1/agents/{id}/members/{principal}: gives viewer or editor (AGT-122, AGT-123); needs editor
 * (AGT-125, AGT-320). Giving the role a member already holds changes nothing and publishes
 * nothing. Answers everyone with access (AGT-130).
 */
export async function putMember(ctx: CommandCtx, id: string, principal: string, role: 'editor' | 'viewer') {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await agentFor(ctx.trx, caller, id, 'editor', { lock: true });
  requireTopLevel(agent);
  if (principal === agent.owner_fid) throw ownerOnly();
  const current = await lockMember(ctx.trx, agent.id, principal);
  if (!current) {
    await addMember(ctx.trx, agent.id, principal, role, ctx.now);
    await ctx.emit({ type: 'agent.member_added', data: memberEvent(agent, principal, role, caller) });
  } else if (current.role !== role) {
    await setMemberRole(ctx.trx, agent.id, principal, role);
    await ctx.emit({ type: 'agent.member_role_changed', data: memberEvent(agent, principal, role, caller) });
  }
  return membersOf(ctx.trx, agent);
}

/**
 * DELETE /v1/agents/{id}/members/{principal}: needs editor, except a member removing themselves,
 * which any member may (AGT-126, AGT-127). Removing someone who holds no membership changes
 * nothing. Answers everyone left with access (AGT-131).
 */
export async function deleteMember(ctx: CommandCtx, id: string, principal: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const agent = await lockAgent(ctx.trx, id);
  if (!agent) throw agentNotFound();
  const access = await accessTo(ctx.trx, caller, agent);
  const self = caller.fid !== null && caller.fid === principal && access.role !== null;
  requireRole(access, self ? 'viewer' : 'editor', 'write');
  requireTopLevel(agent);
  if (principal === agent.owner_fid) throw ownerOnly();
  const current = await lockMember(ctx.trx, agent.id, principal);
  if (current) {
    await removeMember(ctx.trx, agent.id, principal);
    await ctx.emit({ type: 'agent.member_removed', data: memberEvent(agent, principal, current.role, caller) });
  }
  return membersOf(ctx.trx, agent);
}

/** GET /v1/agents/{id}/members: viewer and up; a child agent is 409 child_agent. */
export async function readMembers(db: Db, caller: Caller, id: string): Promise<Member[]> {
  const { agent } = await agentFor(db, caller, id, 'viewer');
  requireTopLevel(agent);
  return membersOf(db, agent);
}
