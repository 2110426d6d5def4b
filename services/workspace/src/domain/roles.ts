import { conflict, forbidden, notFound } from '@platform/kit';

/**
 * Project roles (spec 2, Authentication 5): viewers read; editors write tasks, views and files;
 * owners update projects, delete views and goals, and reorder views. A platform admin reads every
 * project as an owner would, but changes one only with a membership, at its role (issue 14, item 6).
 */
export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

export const roleAtLeast = (role: Role, needed: Role) => RANK[role] >= RANK[needed];

export interface ProjectAccess {
  /** The caller's membership role, if any. */
  member: Role | null;
  /** A platform admin acting as admin (not limited by X-Platform-As-Member): reads every project. */
  admin: boolean;
  /**
   * Set when the caller's owner membership does not count as owner (through the shared service
   * token: workspace.act_as_owner), with what they are told; they act as an editor.
   */
  ownerRefused?: string;
}

/** The role a caller reads with: their membership, or owner for an admin; null when they cannot see it. */
export const readRole = (a: ProjectAccess): Role | null => (a.admin ? 'owner' : a.member);

/** The role a caller changes the project with: their membership alone, an owner's as an editor's where refused. */
export const writeRole = (a: ProjectAccess): Role | null =>
  a.member === 'owner' && a.ownerRefused !== undefined ? 'editor' : a.member;

/**
 * What a caller who may see the project may do: 404 when they cannot see it (never 403, so a
 * project's existence is not revealed), 403 when their role is below what the action needs. A
 * write counts only the membership: a platform admin without one is 403.
 */
export function requireRole(a: ProjectAccess, needed: Role, mode: 'read' | 'write' = 'write'): Role {
  const visible = readRole(a);
  if (visible === null) throw projectNotFound();
  const role = mode === 'read' ? visible : writeRole(a);
  if (role === null) throw forbidden('Platform admins read every project; changing one needs a membership');
  if (!roleAtLeast(role, needed)) {
    const refused = a.member !== null && roleAtLeast(a.member, needed) ? a.ownerRefused : undefined;
    throw forbidden(refused ?? `This needs the ${needed} role on the project`);
  }
  return role;
}

export const projectNotFound = () => notFound('Project', 'project_not_found');

/** Any write (task, check-in, view, goal) on an archived project: 409 project_archived. */
export function requireActiveProject(p: { status: string }): void {
  if (p.status === 'archived') {
    throw conflict('project_archived', 'The project is archived; restore it before changing it');
  }
}
