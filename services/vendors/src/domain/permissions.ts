import { type ActionOf, createCan, type PolicyInputs } from '@platform/kit';
import { vendors } from '@platform/policies';

/**
 * Who may call what: vendors' caller table as data (packages/policies/src/vendors.ts), read by the
 * kit. The gateway audiences and the editors list are this deployment's (`callerPolicy(config)`).
 */
export const vendorsCan = (inputs: PolicyInputs) => createCan(vendors, inputs);
export type Action = ActionOf<typeof vendors>;
