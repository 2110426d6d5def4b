import { type ActionOf, createCan } from '@platform/kit';
import { identity } from '@platform/policies';

/**
 * Who may do what in identity: the data in packages/policies/src/identity.ts, read by the kit
 * (people and grants never through the shared service token; privileged grants only by a verified
 * Super Admin).
 */
export const can = createCan(identity);
export type Action = ActionOf<typeof identity>;
