import { AppError, type Principal, unauthorized } from '@platform/kit';
import type { FastifyRequest } from 'fastify';

/** The console's one role table (spec 3, Authentication): a ladder, each role including those below. */
export const ROLES = ['viewer', 'engineer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, engineer: 1, admin: 2 };

export interface RoleLists {
  /** DEVOPS_ADMIN_EMAILS, lower-case. */
  admins: readonly string[];
  /** DEVOPS_ENGINEER_EMAILS, lower-case. */
  engineers: readonly string[];
}

/** An address on both lists is admin (OPS-040); on neither, viewer (OPS-044). Case never matters. */
export function roleOf(email: string, lists: RoleLists): Role {
  const e = email.trim().toLowerCase();
  if (lists.admins.includes(e)) return 'admin';
  if (lists.engineers.includes(e)) return 'engineer';
  return 'viewer';
}

/** Whether a caller holding `held` reaches a surface needing `needed` (OPS-042, OPS-043). */
export const reaches = (held: Role, needed: Role): boolean => RANK[held] >= RANK[needed];

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's console role, set once the gateway token is verified (null: no caller). */
    consoleRole: Role | null;
  }
}

/** The role a request's principal holds: only a gateway caller has one. */
export function roleOfPrincipal(p: Principal | null, lists: RoleLists): Role | null {
  if (!p?.email || p.via !== 'gateway') return null;
  return roleOf(p.email, lists);
}

export const insufficientRole = (needed: Role, held: Role) =>
  new AppError(403, 'insufficient_role', `This needs the ${needed} role; the caller is ${held}`);

/**
 * The one hook every console route declares: 401 without a verified caller, 403
 * insufficient_role below `role`. It runs before the Idempotency-Key and the body are looked at.
 */
export const requires = (role: Role) => async (req: FastifyRequest) => {
  const held = req.consoleRole;
  if (!held) throw unauthorized();
  if (!reaches(held, role)) throw insufficientRole(role, held);
};
