import type { CommandScope } from '@platform/kit';
import type { WorkspaceEvent } from '../events.ts';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading, and X-Platform-As-Member. */
export interface CommandCtx extends CommandScope<DB, WorkspaceEvent> {
  /** X-Platform-As-Member: true — a platform admin acts only as their memberships allow. */
  asMember: boolean;
}

export interface WhyValue {
  code?: string;
  detail?: string;
}
