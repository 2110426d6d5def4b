import { type ActionOf, createCan } from '@platform/kit';
import { accounting } from '@platform/policies';

/**
 * Who may do what in accounting: the data in packages/policies/src/accounting.ts, read by the kit.
 * Routes ask `can(principal, action)`, never compare roles.
 */
export const can = createCan(accounting);
export type Action = ActionOf<typeof accounting>;
