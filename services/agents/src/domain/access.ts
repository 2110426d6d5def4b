import { forbidden, notFound, type Principal } from '@platform/kit';

/**
 * Roles on an agent (spec 3, Agents authentication): the owner (one) does everything; an editor
 * everything but delete and archive, sharing and tools included; a viewer reads. A swarm member
 * or coding agent follows the top of its parent chain (AGT-326).
 */
export const AGENT_ROLES = ['viewer', 'editor', 'owner'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];
const RANK: Record<AgentRole, number> = { viewer: 0, editor: 1, owner: 2 };
export const roleAtLeast = (role: AgentRole, needed: AgentRole) => RANK[role] >= RANK[needed];

/** Who a call acts as, once the service token's X-Platform-Agent-Id and X-Platform-As-Member are read. */
export interface Caller {
  principal: Principal;
  /** The person the call acts as: the signed-in person, or the named agent's owner (service token + X-Platform-Agent-Id). */
  fid: string | null;
  /** X-Platform-Agent-Id: the agent the service-token call is made by. */
  agentId: string | null;
  /** A platform admin acting as admin (no X-Platform-As-Member: true): reads every agent (AGT-100, AGT-328). */
  admin: boolean;
  /**
   * The service token without X-Platform-Agent-Id: it keeps the access it had before agents had
   * members (AGT-317), an editor's on every agent: the harness, communications and the scheduler.
   */
  service: boolean;
}

/** What the caller holds on an agent, from its top agent's owner and members. */
export interface AgentAccess {
  role: AgentRole | null;
  admin: boolean;
}

/** The caller's role on an agent whose top agent has this owner, given their membership there. */
export function roleOf(caller: Caller, ownerFid: string, memberRole: AgentRole | null): AgentRole | null {
  if (caller.fid !== null && caller.fid === ownerFid) return 'owner';
  if (memberRole) return memberRole;
  return caller.service ? 'editor' : null;
}

export const agentNotFound = () => notFound('Agent', 'agent_not_found');

/**
 * What a caller may do on an agent they asked for: 404 when they cannot see it, as for a missing
 * agent (AGT-327); 403 insufficient_role when their role is below what the action needs. A
 * platform admin reads every agent but changes one only through a role on it (AGT-329).
 */
export function requireRole(a: AgentAccess, needed: AgentRole, mode: 'read' | 'write' = 'write'): AgentRole {
  if (a.role === null && !a.admin) throw agentNotFound();
  if (mode === 'read' && a.role === null) return 'viewer';
  if (a.role === null) {
    throw forbidden('Platform admins read every agent; changing one needs a role on it', 'insufficient_role');
  }
  if (!roleAtLeast(a.role, needed)) throw forbidden(`This needs the ${needed} role on the agent`, 'insufficient_role');
  return a.role;
}

/** What a request's headers and the policy say about its caller, before the database is asked. */
export interface CallerHint {
  /** X-Platform-Agent-Id, when sent. */
  agentId: string | null;
  /** A platform admin without X-Platform-As-Member: true. */
  admin: boolean;
}
