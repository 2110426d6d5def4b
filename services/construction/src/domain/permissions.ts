import { type ActionOf, createCan, type PolicyInputs } from '@platform/kit';
import { construction } from '@platform/policies';

/**
 * Who may call what: construction's twenty-eight actions as data (packages/policies/src/construction.ts),
 * read by the kit. The gateway audience and CONSTRUCTION_EDITORS are this deployment's (`callerPolicy`).
 */
export const constructionCan = (inputs: PolicyInputs) => createCan(construction, inputs);
export type Action = ActionOf<typeof construction>;
