import { createCan, hasVerifiedGlobal, type Policy, type Principal } from '@platform/kit';

/**
 * Who may do what in identity. People and grants are managed by platform admins (the user admin
 * app); the profile is for people only, a machine client gets 403 (SIGN-053).
 */
export const policy = {
  'people.read': { roles: ['platform_admin'] },
  'people.manage': { roles: ['platform_admin'] },
  'grants.manage': { roles: ['platform_admin'] },
  'roles.read': { anyPerson: true, anyService: true },
  'profile.read': { anyPerson: true },
  'authz.read': { anyPerson: true, anyService: true },
  'gateway.token': { anyPerson: true },
  /** Services resolve callers with the shared service token; that principal is service:platform. */
  'principals.lookup': { services: ['service:platform'] },
} satisfies Policy<string>;

export type Action = keyof typeof policy;
const byPolicy = createCan<Action>(policy);

/** People and grants change only at the hands of the admin themselves, never through the shared service token. */
const ADMIN_WRITES: readonly Action[] = ['people.manage', 'grants.manage'];

export const can = (p: Principal, action: Action): boolean => {
  if (p.via === 'service_token' && ADMIN_WRITES.includes(action)) return false;
  return hasVerifiedGlobal(p, 'super_admin') || byPolicy(p, action);
};

/** Only a verified Super Admin hands out super_admin or verified grants. */
export const canGrantPrivileged = (p: Principal) => hasVerifiedGlobal(p, 'super_admin');
