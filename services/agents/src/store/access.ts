import { forbidden, type Principal } from '@platform/kit';
import {
  type AgentAccess,
  type AgentRole,
  agentNotFound,
  type Caller,
  type CallerHint,
  requireRole,
  roleOf,
} from '../domain/access.ts';
import { type AgentRow, findAgent, lockAgent, memberRole, topOwner } from './agents.ts';
import type { Db } from './db.ts';

/** The shared service token, or a service acting for a person with it: the only senders of X-Platform-Agent-Id (AGT-137). */
const isServiceIdentity = (p: Principal) => p.kind === 'service' || p.via === 'service_token';

/**
 * Who the call acts as. With the service token and X-Platform-Agent-Id, as that agent's owner
 * (AGT-316); with the service token alone, the service's pre-membership access (AGT-317); a
 * person as themselves, a platform admin reading every agent unless X-Platform-As-Member.
 */
export async function resolveCaller(db: Db, principal: Principal, hint: CallerHint): Promise<Caller> {
  if (hint.agentId !== null) {
    if (!isServiceIdentity(principal)) {
      throw forbidden(
        'X-Platform-Agent-Id is accepted only with the platform service token',
        'agent_header_not_allowed',
      );
    }
    const agent = /^[0-9a-f-]{36}$/i.test(hint.agentId) ? await findAgent(db, hint.agentId.toLowerCase()) : undefined;
    if (!agent) throw forbidden('X-Platform-Agent-Id names no agent', 'agent_header_not_allowed');
    return { principal, fid: await topOwner(db, agent), agentId: agent.id, admin: false, service: false };
  }
  if (principal.kind === 'service') return { principal, fid: null, agentId: null, admin: false, service: true };
  return { principal, fid: principal.id, agentId: null, admin: hint.admin, service: false };
}

/** The caller's access to an agent: the role they hold on its top agent, and whether they read as an admin. */
export async function accessTo(db: Db, caller: Caller, agent: AgentRow): Promise<AgentAccess> {
  const owner = await topOwner(db, agent);
  const member = await memberRole(db, agent.top_id, caller.fid);
  return { role: roleOf(caller, owner, member), admin: caller.admin };
}

export interface VisibleAgent {
  agent: AgentRow;
  /** The role the caller acts with: for an admin's read without a role, viewer. */
  role: AgentRole;
  /** The role the caller holds (caller_role), null for an admin reading without one. */
  held: AgentRole | null;
}

/**
 * The agent as this caller may use it, or 404 when absent or invisible to them, 403
 * insufficient_role when their role is too low. `lock` takes the agent's row lock (commands).
 */
export async function agentFor(
  db: Db,
  caller: Caller,
  id: string,
  needed: AgentRole,
  opts: { mode?: 'read' | 'write'; lock?: boolean } = {},
): Promise<VisibleAgent> {
  const agent = opts.lock ? await lockAgent(db, id) : await findAgent(db, id);
  if (!agent) throw agentNotFound();
  const access = await accessTo(db, caller, agent);
  const role = requireRole(access, needed, opts.mode ?? (needed === 'viewer' ? 'read' : 'write'));
  return { agent, role, held: access.role };
}
