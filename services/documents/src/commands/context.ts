import type { CommandScope } from '@platform/kit';
import type { DB } from '../store/db.ts';

/** What a command runs with: the transaction, the caller and the command's clock reading. */
export type CommandCtx = CommandScope<DB>;

export const SERVICE = 'documents';
