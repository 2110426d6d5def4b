import type { CommandScope } from '@platform/kit';
import type { BrokerEvent } from '../events.ts';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading and its typed emit. */
export type CommandCtx = CommandScope<DB, BrokerEvent>;
