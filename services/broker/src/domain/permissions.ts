import { createCan, type Policy } from '@platform/kit';

/**
 * The broker's policy (spec 3, Authentication): one decision per action. Staff (any signed-in
 * person, including a broker credential's identity) relay, report usage, read the catalog, read
 * their own usage and mint their own credentials. The shared service token (the agents service
 * and its harness) posts people, reads the catalog and relays. Platform admins read everyone and
 * manage budgets and routing.
 */
export type Action =
  | 'relay'
  | 'report_usage'
  | 'read_catalog'
  | 'read_own'
  | 'mint_credentials'
  | 'post_people'
  | 'read_everyone'
  | 'report_for_others'
  | 'manage_budgets'
  | 'manage_routing';

const ADMIN = ['platform_admin'] as const;

export const policy: Policy<Action> = {
  relay: { anyPerson: true, anyService: true },
  report_usage: { anyPerson: true },
  read_catalog: { anyPerson: true, anyService: true },
  /** Own usage, own budget, routing settings and families. */
  read_own: { anyPerson: true },
  mint_credentials: { anyPerson: true },
  post_people: { anyService: true },
  /** The roster, everyone's usage and budgets, routing exceptions and stats. */
  read_everyone: { roles: ADMIN },
  /** POST /v1/usage with actor_fid naming someone else. */
  report_for_others: { roles: ADMIN },
  manage_budgets: { roles: ADMIN },
  /** Rules, and turning routing off (or on) for someone. */
  manage_routing: { roles: ADMIN },
};

export const can = createCan(policy);
