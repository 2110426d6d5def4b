import type { CommandScope, EventOf, KitTables } from '@platform/kit';
import type { events } from '../events.ts';

/** What a command runs with: the transaction, the caller, the command's clock reading and its typed emit. */
export type CommandCtx = CommandScope<KitTables, EventOf<typeof events>>;
