import type { CommandScope } from '@platform/kit';

/** What a command runs with: the transaction, the caller and the command's clock reading. */
export type CommandCtx = CommandScope;

export const SERVICE = 'documents';
