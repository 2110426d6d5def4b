import type { CommandScope } from '@platform/kit';
import type { AccountingEvent } from '../events.ts';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading and its typed emit. */
export type CommandCtx = CommandScope<DB, AccountingEvent>;

export interface WhyValue {
  code?: string;
  detail?: string;
}
