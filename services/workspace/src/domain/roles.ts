import { conflict, forbidden, notFound } from '@platform/kit';

/**
 * Project roles (spec 2, Authentication 5): viewers read; editors write tasks, views and files;
 * owners update projects, delete views and goals, and reorder views. A platform admin has an
 * owner's rights on every project.
 */
export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

export const roleAtLeast = (role: Role, needed: Role) => RANK[role] >= RANK[needed];

export interface ProjectAccess {
  /** The caller's membership role, if any. */
  member: Role | null;
  /** A platform admin acting as admin (not limited by X-Platform-As-Member). */
  admin: boolean;
}

/** The role a caller acts with on a project: their membership, or owner for an admin; null when they cannot see it. */
export const effectiveRole = (a: ProjectAccess): Role | null => (a.admin ? 'owner' : a.member);

/**
 * What a caller who may see the project may do: 404 when they cannot see it (never 403, so a
 * project's existence is not revealed), 403 when their role is below what the action needs.
 */
export function requireRole(a: ProjectAccess, needed: Role): Role {
  const role = effectiveRole(a);
  if (role === null) throw projectNotFound();
  if (!roleAtLeast(role, needed)) throw forbidden(`This needs the ${needed} role on the project`);
  return role;
}

export const projectNotFound = () => notFound('Project', 'project_not_found');

/** Any write (task, check-in, view, goal) on an archived project: 409 project_archived. */
export function requireActiveProject(p: { status: string }): void {
  if (p.status === 'archived') {
    throw conflict('project_archived', 'The project is archived; restore it before changing it');
  }
}
