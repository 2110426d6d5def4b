import { createCan, type Policy, type Principal } from '@platform/kit';

/**
 * Workspace actions. Who may do what on a project follows project roles (domain/roles.ts), held in
 * the workspace's own tables; the identity grants matter only for platform admins, who read every
 * project without a membership (spec 2, Authentication 6).
 */
export type Action = 'use' | 'read_all_projects';

export const policy: Policy<Action> = {
  /** Any signed-in person: create projects, and act on projects as their project role allows. */
  use: { anyPerson: true },
  /** Read every project without a membership; with an owner's rights on each. */
  read_all_projects: { roles: ['platform_admin'] },
};

export const can = createCan(policy);

/** A platform admin, unless X-Platform-As-Member: true limits them to their memberships (it never grants admin). */
export const actsAsAdmin = (p: Principal, asMember: boolean) => !asMember && can(p, 'read_all_projects');
