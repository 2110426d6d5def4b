import type { Policy } from './types.ts';

/**
 * Who may do what in accounting (spec 1, Authentication; where it is silent, docs/decisions.md
 * "Accounting permissions"). The actions that change which months are open to posting, or change
 * or remove what is already booked (calendar, close and reopen, deletion, posting outside the
 * Open month) are never taken through the shared service token: the person it names is the
 * calling service's word, not proven, so it carries bookkeeping but not a controller's powers
 * (issue 14, item 5).
 */
const FINANCE = ['controller', 'senior_accountant', 'accountant', 'platform_admin'] as const;
const BOOKKEEPERS = ['controller', 'senior_accountant', 'accountant'] as const;
const CONTROLLERS = ['controller', 'platform_admin'] as const;
const LEDGER_SERVICES = ['service:payments', 'service:billing'] as const;

export const accounting = {
  service: 'accounting',
  superAdmin: 'all',
  actions: {
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
    /**
     * Posting-month choices (spec 1, "Posting month"); posting into the Open month is journal.write.
     * A soft-closed month: controllers.
     */
    'journal.post_soft_closed': { roles: ['controller'], notViaServiceToken: true },
    /** A future month, for an entry that is not a charge: controllers and senior accountants. */
    'journal.post_future': { roles: ['controller', 'senior_accountant'], notViaServiceToken: true },
    /** A closed month, or a future month for a charge: no role holds it, only a verified Super Admin. */
    'journal.post_closed': { notViaServiceToken: true },
    'journal.post_future_charge': { notViaServiceToken: true },
    /** DeleteJournalEntry: controllers, platform admins, the Payments service principal (acting as itself). */
    'journal.delete': { roles: CONTROLLERS, services: ['service:payments'], notViaServiceToken: true },
    'deletions.read': { roles: CONTROLLERS },
    /** Calendar setup and corrections: a person with controller or platform-admin access. */
    'calendar.manage': { roles: CONTROLLERS, notViaServiceToken: true },
    /** Current calendar read: staff and system services. */
    'calendar.read': { anyPerson: true, anyService: true },
    /** Close and reopen: Controller or Admin (read as platform admin). */
    'periods.manage': { roles: CONTROLLERS, notViaServiceToken: true },
    'periods.history': { roles: CONTROLLERS },
    'reports.read': { roles: FINANCE },
  },
} as const satisfies Policy;
