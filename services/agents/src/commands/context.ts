import type { CommandScope, EventOf } from '@platform/kit';
import type { CallerHint } from '../domain/access.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller and what their headers say, the clock reading, the typed emit. */
export interface CommandCtx extends CommandScope<DB, EventOf<typeof events>> {
  hint: CallerHint;
}
