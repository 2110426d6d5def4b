import { createCan, hasVerifiedGlobal, type Policy, type Principal, type Scope } from '@platform/kit';

/**
 * Who may do what in accounting. Roles come from grants (identity service, or locally the dev
 * principals file); routes ask `can(principal, action)`, never compare roles. Decisions where
 * the spec is silent are in docs/decisions.md ("Accounting permissions").
 */
const FINANCE = ['controller', 'senior_accountant', 'accountant', 'platform_admin'] as const;
const BOOKKEEPERS = ['controller', 'senior_accountant', 'accountant'] as const;
const CONTROLLERS = ['controller', 'platform_admin'] as const;
const LEDGER_SERVICES = ['service:payments', 'service:billing'] as const;

export const policy = {
  'legal_entities.create': { roles: CONTROLLERS },
  'legal_entities.read': { roles: FINANCE, anyService: true },
  'accounts.list': { roles: FINANCE },
  /** System principals may read a single account to validate a chart before posting. */
  'accounts.read_one': { roles: FINANCE, anyService: true },
  /** Chart changes and account-use changes. */
  'accounts.change': { roles: ['controller', 'senior_accountant', 'platform_admin'] },
  'journal.read': { roles: FINANCE, services: LEDGER_SERVICES },
  /** Create, edit drafts (the people who create may edit), post, reverse. */
  'journal.write': { roles: BOOKKEEPERS, services: LEDGER_SERVICES },
  /** DeleteJournalEntry: controllers, platform admins, the Payments service principal. */
  'journal.delete': { roles: CONTROLLERS, services: ['service:payments'] },
  'deletions.read': { roles: CONTROLLERS },
  /** Calendar setup and corrections: a person with controller or platform-admin access. */
  'calendar.manage': { roles: CONTROLLERS },
  /** Current calendar read: staff and system services. */
  'calendar.read': { anyPerson: true, anyService: true },
  /** Close and reopen: Controller or Admin (read as platform admin). */
  'periods.manage': { roles: CONTROLLERS },
  'periods.history': { roles: CONTROLLERS },
  'reports.read': { roles: FINANCE },
} satisfies Policy<string>;

export type Action = keyof typeof policy;
const byPolicy = createCan<Action>(policy);

/**
 * A verified global Super Admin grant may do everything in accounting; a `super_admin` role label
 * that the identity service did not verify counts for nothing.
 */
export const can = (p: Principal, action: Action, scope?: Scope): boolean =>
  hasVerifiedGlobal(p, 'super_admin') || byPolicy(p, action, scope);
