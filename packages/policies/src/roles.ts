/**
 * The role catalogue: every role a grant may name (identity refuses others, 422 unknown_role),
 * with what it is for. Which actions each role allows is read from the policies, never listed here.
 */
export const ROLES: Readonly<Record<string, string>> = {
  platform_admin: 'Platform administrator: manages people and grants; admin access where a service grants it',
  super_admin:
    'Super Admin: every action of identity, accounting, workspace and the broker, but only as a verified global grant; a label alone grants nothing',
  controller: 'Controller: accounting calendars, close and reopen, deletion, chart changes, posting',
  senior_accountant: 'Senior accountant: chart changes and bookkeeping',
  accountant: 'Accountant: bookkeeping (drafts, posting, reversal) and reports',
};

/** The role whose verified global grant the policies' `superAdmin: 'all'` is about. */
export const SUPER_ADMIN = 'super_admin';
