import type { Policy } from './types.ts';

/**
 * Who may do what in identity. People and grants are managed by platform admins (the user admin
 * app); the profile is for people only, a machine client gets 403 (SIGN-053).
 */
export const identity = {
  service: 'identity',
  superAdmin: 'all',
  actions: {
    'people.read': { roles: ['platform_admin'], scope: 'global' },
    /** People and grants change only at the hands of the admin themselves, never through the shared service token. */
    'people.manage': { roles: ['platform_admin'], scope: 'global', notViaServiceToken: true },
    'grants.manage': { roles: ['platform_admin'], scope: 'global', notViaServiceToken: true },
    /**
     * Grant or remove super_admin and verified grants, and set a Super Admin's password: no role
     * holds it, so only a verified Super Admin may.
     */
    'grants.manage_privileged': { notViaServiceToken: true },
    'roles.read': { anyPerson: true, anyService: true },
    'profile.read': { anyPerson: true },
    'authz.read': { anyPerson: true, anyService: true },
    'gateway.token': { anyPerson: true },
    /** Services resolve callers with the shared service token; that principal is service:platform. */
    'principals.lookup': { services: ['service:platform'] },
  },
} as const satisfies Policy;
