import type { CommandScope, KitTables } from '@platform/kit';
import type { WorkspaceEvent } from '../events.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading, and X-Platform-As-Member. */
export interface CommandCtx extends CommandScope<KitTables, WorkspaceEvent> {
  /** X-Platform-As-Member: true — a platform admin acts only as their memberships allow. */
  asMember: boolean;
}

export interface WhyValue {
  code?: string;
  detail?: string;
}
