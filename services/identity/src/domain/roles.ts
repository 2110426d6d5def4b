import { policy as accountingPolicy } from '@platform/accounting/policy';
import { policy as brokerPolicy } from '@platform/broker/policy';
import type { Grant, Principal, Rule } from '@platform/kit';
import { policy as workspacePolicy } from '@platform/workspace/policy';
import { policy as identityPolicy } from './permissions.ts';

/**
 * The platform's role-to-action matrix, derived from each service's own policy so the answer of
 * GET /v1/authz/me can never drift from what the services enforce. Actions are named
 * `<service>.<action>`. Each new service adds its policy here.
 */
const POLICIES: Record<string, Record<string, Rule>> = {
  identity: identityPolicy,
  accounting: accountingPolicy,
  workspace: workspacePolicy,
  broker: brokerPolicy,
};

export const ROLES: Record<string, string> = {
  platform_admin: 'Platform administrator: manages people and grants; admin access where a service grants it',
  super_admin: 'Super Admin: every action, but only when the grant is verified; a label alone grants nothing',
  controller: 'Controller: accounting calendars, close and reopen, deletion, chart changes, posting',
  senior_accountant: 'Senior accountant: chart changes and bookkeeping',
  accountant: 'Accountant: bookkeeping (drafts, posting, reversal) and reports',
};

const ALL_ACTIONS = Object.entries(POLICIES).flatMap(([svc, p]) => Object.keys(p).map((a) => `${svc}.${a}`));

const actionsWhere = (test: (rule: Rule) => boolean) =>
  Object.entries(POLICIES).flatMap(([svc, p]) =>
    Object.entries(p)
      .filter(([, rule]) => test(rule))
      .map(([a]) => `${svc}.${a}`),
  );

/**
 * What a role's grant allows. super_admin allows everything only as a verified global grant (the
 * services' `hasVerifiedGlobal`); a label, or a narrower grant, allows nothing.
 */
export function roleActions(role: string, verifiedGlobal = true): string[] {
  if (role === 'super_admin') return verifiedGlobal ? ALL_ACTIONS : [];
  return actionsWhere((r) => r.roles?.includes(role) ?? false);
}

export const isKnownRole = (role: string) => role in ROLES;

export const roleCatalog = () =>
  Object.entries(ROLES).map(([role, description]) => ({ role, description, actions: roleActions(role) }));

type CanEntry = { scope_type: 'global' | 'building'; scope_id: string; actions: string[] };

/**
 * GET /v1/authz/me's `can`: one entry per scope the principal holds a grant in, plus the global
 * actions every signed-in person (or every service) has. Global scope_id is the literal `*`.
 */
export function canEntries(p: Principal): CanEntry[] {
  const byScope = new Map<string, CanEntry>();
  const add = (scope_type: CanEntry['scope_type'], scope_id: string, actions: string[]) => {
    if (actions.length === 0) return;
    const key = `${scope_type}:${scope_id}`;
    const entry = byScope.get(key) ?? { scope_type, scope_id, actions: [] };
    entry.actions = [...new Set([...entry.actions, ...actions])].sort();
    byScope.set(key, entry);
  };
  if (p.kind === 'service') {
    add(
      'global',
      '*',
      actionsWhere((r) => r.anyService === true || (r.services?.includes(p.id) ?? false)),
    );
  } else {
    add(
      'global',
      '*',
      actionsWhere((r) => r.anyPerson === true),
    );
  }
  for (const g of p.grants as Grant[]) {
    if (g.scope_type !== 'global' && g.scope_type !== 'building') continue;
    const verifiedGlobal = g.verified === true && g.scope_type === 'global';
    add(g.scope_type, g.scope_type === 'global' ? '*' : g.scope_id, roleActions(g.role, verifiedGlobal));
  }
  return [...byScope.values()].sort((a, b) =>
    a.scope_type === b.scope_type ? a.scope_id.localeCompare(b.scope_id) : a.scope_type === 'global' ? -1 : 1,
  );
}
