import type { Policy } from './types.ts';

/**
 * The broker's policy (spec 3, Authentication): one decision per action. Staff (any signed-in
 * person, including a broker credential's identity) relay, report usage, read the catalog, read
 * their own usage and mint their own credentials. The shared service token (the agents service
 * and its harness) posts people, reads the catalog and relays. Platform admins read everyone and
 * manage budgets and routing, but never through the shared service token: the person it names is
 * the calling service's word, not proven (issue 14, item 5).
 */
const ADMIN = ['platform_admin'] as const;

export const broker = {
  service: 'broker',
  superAdmin: 'all',
  actions: {
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
    manage_budgets: { roles: ADMIN, notViaServiceToken: true },
    /** Rules, and turning routing off (or on) for someone. */
    manage_routing: { roles: ADMIN, notViaServiceToken: true },
  },
} as const satisfies Policy;
