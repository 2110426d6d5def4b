import type { CommandScope, EventOf } from '@platform/kit';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading and its typed emit. */
export type CommandCtx = CommandScope<DB, EventOf<typeof events>>;
