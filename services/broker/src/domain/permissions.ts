import { type ActionOf, createCan } from '@platform/kit';
import { broker } from '@platform/policies';

/** The broker's policy: the data in packages/policies/src/broker.ts, read by the kit. */
export const can = createCan(broker);
export type Action = ActionOf<typeof broker>;
