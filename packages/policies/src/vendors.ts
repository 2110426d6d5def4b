import type { Policy } from './types.ts';

/**
 * Vendors' caller table (spec 1, Vendors authentication). Employees sign in at the access gateway
 * for the internal application and read; those listed in VENDORS_EDITORS also change. Firm contacts
 * sign in for the vendor portal and use only /v1/vendor-portal/. Another platform service, with the
 * vendors service token and the person it acts for, reads and uses the portal for that person but
 * never changes. Locally the dev header names a person who counts as both. Grants play no part.
 * A person's platform access token (spec 2) counts as an employee's (issue 14.2).
 */
export const vendors = {
  service: 'vendors',
  superAdmin: 'none',
  apps: {
    internal: {
      audience: 'VENDORS_ACCESS_AUD',
      elsewhere: 'An internal-application token is not accepted on /v1/vendor-portal/ routes',
    },
    portal: {
      audience: 'VENDORS_PORTAL_ACCESS_AUD',
      elsewhere: 'A vendor-portal token is accepted only on /v1/vendor-portal/ routes',
    },
  },
  /**
   * Spec 2 makes the platform access token valid here too (issue 14.2): it is a staff caller, as
   * an employee of the internal application, never a portal contact.
   */
  platformToken: {
    app: 'internal',
    elsewhere: 'A platform access token is not accepted on /v1/vendor-portal/ routes',
  },
  lists: { editors: 'VENDORS_EDITORS' },
  actions: {
    /** Reads of the directory: employees, and services on behalf of a person (VEN-045, VEN-050). */
    read: { anyPerson: true, apps: ['internal'] },
    /** Commands: employees listed in VENDORS_EDITORS only; services never (VEN-046, VEN-047, VEN-051). */
    change: {
      listed: 'editors',
      apps: ['internal'],
      notViaServiceToken: true,
      refusal: 'Only employees listed in VENDORS_EDITORS may change vendors; a platform service never does',
    },
    /** The vendor portal: a contact's portal token, or a service acting for the contact (VEN-048, VEN-053). */
    portal: { anyPerson: true, apps: ['portal'] },
  },
} as const satisfies Policy;
