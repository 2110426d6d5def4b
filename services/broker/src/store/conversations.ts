import { uuidv7 } from '@platform/kit';
import type { Db } from './db.ts';

/** The broker's side of saved conversations: conversations and the links that find them, never text. */

export interface ConversationRow {
  id: string;
  owner_email: string;
  workspace_conversation_id: string | null;
}

export type LinkKind = 'response' | 'conversation' | 'messages';

export interface Link {
  kind: LinkKind;
  key: string;
  message_count: number;
}

const COLUMNS = ['id', 'owner_email', 'workspace_conversation_id'] as const;

export async function newConversation(db: Db, owner: string, now: Date): Promise<ConversationRow> {
  return db
    .insertInto('broker_conversations')
    .values({ id: uuidv7(), owner_email: owner, client_key: null, created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The conversation an X-Platform-Conversation-Id names for this owner, created on first use. */
export async function conversationByClientKey(db: Db, owner: string, key: string, now: Date): Promise<ConversationRow> {
  await db
    .insertInto('broker_conversations')
    .values({ id: uuidv7(), owner_email: owner, client_key: key, created_at: now })
    .onConflict((oc) => oc.columns(['owner_email', 'client_key']).doNothing())
    .execute();
  return db
    .selectFrom('broker_conversations')
    .select(COLUMNS)
    .where('owner_email', '=', owner)
    .where('client_key', '=', key)
    .executeTakeFirstOrThrow();
}

export async function conversationByLink(
  db: Db,
  owner: string,
  kind: LinkKind,
  key: string,
): Promise<ConversationRow | undefined> {
  return db
    .selectFrom('broker_conversation_links as l')
    .innerJoin('broker_conversations as c', 'c.id', 'l.conversation_id')
    .select(['c.id', 'c.owner_email', 'c.workspace_conversation_id'])
    .where('l.owner_email', '=', owner)
    .where('l.kind', '=', kind)
    .where('l.key', '=', key)
    .executeTakeFirst();
}

/**
 * The longest of the given message lists that a previous call of this owner ended with (in one
 * conversation when named): its conversation and how many messages it held.
 */
export async function longestMessagesLink(
  db: Db,
  owner: string,
  keys: readonly string[],
  conversationId?: string,
): Promise<{ conversation: ConversationRow; message_count: number } | undefined> {
  if (keys.length === 0) return undefined;
  let q = db
    .selectFrom('broker_conversation_links as l')
    .innerJoin('broker_conversations as c', 'c.id', 'l.conversation_id')
    .select(['c.id', 'c.owner_email', 'c.workspace_conversation_id', 'l.message_count'])
    .where('l.owner_email', '=', owner)
    .where('l.kind', '=', 'messages')
    .where('l.key', 'in', keys);
  if (conversationId) q = q.where('l.conversation_id', '=', conversationId);
  const row = await q.orderBy('l.message_count', 'desc').limit(1).executeTakeFirst();
  if (!row) return undefined;
  const { message_count, ...conversation } = row;
  return { conversation, message_count };
}

export async function setWorkspaceConversation(db: Db, id: string, workspaceId: string): Promise<void> {
  await db
    .updateTable('broker_conversations')
    .set({ workspace_conversation_id: workspaceId })
    .where('id', '=', id)
    .execute();
}

/** Points each key at this conversation: the latest call that ended with a list (or response) wins. */
export async function linkConversation(
  db: Db,
  owner: string,
  conversationId: string,
  links: readonly Link[],
  now: Date,
): Promise<void> {
  if (links.length === 0) return;
  await db
    .insertInto('broker_conversation_links')
    .values(links.map((l) => ({ ...l, owner_email: owner, conversation_id: conversationId, created_at: now })))
    .onConflict((oc) =>
      oc.columns(['owner_email', 'kind', 'key']).doUpdateSet((eb) => ({
        conversation_id: eb.ref('excluded.conversation_id'),
        message_count: eb.ref('excluded.message_count'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}
