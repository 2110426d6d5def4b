import type { Policy } from './types.ts';

/**
 * Documents (spec 1, Authentication): "Authorization is not wired: endpoints are open apart from
 * the Idempotency-Key requirement on writes". Every action is open; the day it is wired, the rules
 * change here and nowhere else.
 */
export const documents = {
  service: 'documents',
  superAdmin: 'none',
  actions: {
    /** Mint or renew an upload SAS. */
    mint_sas: { anyone: true },
    register: { anyone: true },
    update: { anyone: true },
    /** Lists, single reads (with a read SAS), readable files and their count. */
    read: { anyone: true },
  },
} as const satisfies Policy;
