import { type ActionOf, createCan, type PolicyInputs } from '@platform/kit';
import { agents } from '@platform/policies';

/**
 * Who may call what: the agents service's actions as data (packages/policies/src/agents.ts), read
 * by the kit; this deployment's gateway audience comes from `callerPolicy`. What a caller may do on
 * one agent then follows their role on it (domain/access.ts).
 */
export const agentsCan = (inputs: PolicyInputs) => createCan(agents, inputs);
export type Action = ActionOf<typeof agents>;
