import type { Db } from '@platform/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { ConversationSaver, ReplyToSave } from './ports.ts';

export interface WorkspaceConversationsOptions {
  db: Db;
  /** Unset: saving is skipped. */
  workspaceUrl?: string;
  serviceToken?: string;
  log: FastifyBaseLogger;
}

/** Saves API-credential relay calls as workspace conversations (owned by the conversations area). */
export class WorkspaceConversations implements ConversationSaver {
  constructor(readonly o: WorkspaceConversationsOptions) {}

  save(_reply: ReplyToSave): void {}

  async settled(): Promise<void> {}
}
