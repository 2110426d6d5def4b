import { type ActionOf, createCan } from '@platform/kit';
import { documents } from '@platform/policies';

/**
 * Who may do what in documents: the data in packages/policies/src/documents.ts, read by the kit.
 * Spec 1 leaves authorization unwired, so every action is open; routes still ask, so wiring it
 * is a change of data.
 */
export const can = createCan(documents);
export type Action = ActionOf<typeof documents>;
