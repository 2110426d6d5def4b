import { accounting } from './accounting.ts';
import { agents } from './agents.ts';
import { broker } from './broker.ts';
import { construction } from './construction.ts';
import { documents } from './documents.ts';
import { identity } from './identity.ts';
import type { Policy } from './types.ts';
import { vendors } from './vendors.ts';
import { workspace } from './workspace.ts';

export * from './roles.ts';
export * from './types.ts';
export { accounting, agents, broker, construction, documents, identity, vendors, workspace };

/** Every service's policy, by service name: what identity's matrix is built from. A new service adds one here. */
export const POLICIES: Readonly<Record<string, Policy>> = {
  identity,
  accounting,
  vendors,
  documents,
  workspace,
  broker,
  construction,
  agents,
};
