import { randomUUID } from 'node:crypto';
import { createClient } from '@platform/kit';
import type { FastifyBaseLogger } from 'fastify';
import {
  conversationOwner,
  earlierLists,
  endedWith,
  listKey,
  requestMessages,
  responsesRefs,
  type TurnInput,
  turnsFor,
  usableConversationKey,
} from '../domain/conversations.ts';
import {
  type ConversationRow,
  conversationByClientKey,
  conversationByLink,
  type Link,
  linkConversation,
  longestMessagesLink,
  newConversation,
  setWorkspaceConversation,
} from '../store/conversations.ts';
import type { Db } from '../store/db.ts';
import type { ConversationSaver, ReplyToSave } from './ports.ts';

export interface WorkspaceConversationsOptions {
  db: Db;
  /** Unset: saving is skipped. */
  workspaceUrl?: string;
  serviceToken?: string;
  log: FastifyBaseLogger;
  clock?: () => Date;
  /** Retries of one workspace request (same Idempotency-Key); default 1. */
  retries?: number;
}

/** Idempotency-Keys of workspace commands: stable strings built from a UUID (the kit's client types keys as UUIDs). */
type Key = ReturnType<typeof randomUUID>;
const key = (s: string) => s as Key;

/** Which conversation a call goes to, and how many of its messages that conversation already holds. */
interface Pick {
  conversation: ConversationRow;
  saved: number;
  /** A responses-API conversation id to link on first use (pick order 3). */
  linkConversation?: string;
}

/**
 * Saves API-credential relay calls as workspace conversations (spec 3, Saved conversations).
 * Best effort and after the reply: save() never throws and never waits; a failure is logged. The
 * workspace is called with the service token on behalf of the conversation's owner. Saves of one
 * owner run one after another, so a conversation's turns keep their order.
 */
export class WorkspaceConversations implements ConversationSaver {
  private readonly pending = new Set<Promise<void>>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly clock: () => Date;

  constructor(readonly o: WorkspaceConversationsOptions) {
    this.clock = o.clock ?? (() => new Date());
  }

  save(reply: ReplyToSave): void {
    if (!this.o.workspaceUrl || reply.api === 'speech') return;
    const owner = conversationOwner(reply.principal);
    if (!owner) return;
    const before = this.queues.get(owner) ?? Promise.resolve();
    const run: Promise<void> = before
      .then(() => this.saveNow(reply, owner))
      .catch((e: Error) => {
        this.o.log.warn(
          { client_id: reply.principal.credential?.client_id, err: e.message },
          'relay call not saved as a workspace conversation',
        );
      })
      .finally(() => {
        this.pending.delete(run);
        if (this.queues.get(owner) === run) this.queues.delete(owner);
      });
    this.queues.set(owner, run);
    this.pending.add(run);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private workspace(owner: string) {
    return createClient({
      baseUrl: this.o.workspaceUrl as string,
      retries: this.o.retries ?? 1,
      headers: {
        ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
        'x-platform-on-behalf-of': owner,
      },
    });
  }

  private async saveNow(reply: ReplyToSave, owner: string): Promise<void> {
    const db = this.o.db;
    const now = this.clock();
    const messages = requestMessages(reply.api, reply.request);
    const pick = await this.pick(reply, owner, messages, now);
    const ws = this.workspace(owner);
    const workspaceId = pick.conversation.workspace_conversation_id ?? (await this.open(ws, pick.conversation, reply));
    const turns: TurnInput[] = turnsFor(
      messages,
      pick.saved,
      { text: reply.replyText, model: reply.model, provider: reply.provider },
      owner,
    );
    // One key per turn of this call: a retry of a request appends the turn once.
    const call = randomUUID();
    for (const [i, turn] of turns.entries()) {
      const r = await ws.command(
        'POST',
        `/v1/conversations/${encodeURIComponent(workspaceId)}/turns`,
        { data: turn },
        key(`broker-turn-${call}-${i}`),
      );
      if (!r.ok) throw r.error;
    }
    const ended = endedWith(messages, reply.replyText);
    const links: Link[] = [];
    const endedKey = listKey(ended);
    if (endedKey) links.push({ kind: 'messages', key: endedKey, message_count: ended.length });
    if (reply.responseId) links.push({ kind: 'response', key: reply.responseId, message_count: ended.length });
    if (pick.linkConversation) links.push({ kind: 'conversation', key: pick.linkConversation, message_count: 0 });
    await linkConversation(db, owner, pick.conversation.id, links, now);
  }

  /** Pick order (spec 3): the header, previous_response_id, the responses conversation, the longest earlier list, else new. */
  private async pick(
    reply: ReplyToSave,
    owner: string,
    messages: ReturnType<typeof requestMessages>,
    now: Date,
  ): Promise<Pick> {
    const db = this.o.db;
    const earlier = earlierLists(messages);
    const inConversation = async (conversation: ConversationRow): Promise<Pick> => {
      const match = await longestMessagesLink(
        db,
        owner,
        earlier.map((e) => e.key),
        conversation.id,
      );
      return { conversation, saved: match?.message_count ?? 0 };
    };
    if (reply.conversationId !== undefined && usableConversationKey(reply.conversationId) === undefined) {
      this.o.log.warn({ length: reply.conversationId.length }, 'X-Platform-Conversation-Id ignored: empty or too long');
    }
    const clientKey = usableConversationKey(reply.conversationId);
    if (clientKey) return inConversation(await conversationByClientKey(db, owner, clientKey, now));
    const refs = responsesRefs(reply.api, reply.request);
    if (refs.previousResponseId) {
      const found = await conversationByLink(db, owner, 'response', refs.previousResponseId);
      if (found) return inConversation(found);
    }
    if (refs.conversation) {
      const found = await conversationByLink(db, owner, 'conversation', refs.conversation);
      if (found) return inConversation(found);
      return { conversation: await newConversation(db, owner, now), saved: 0, linkConversation: refs.conversation };
    }
    const longest = await longestMessagesLink(
      db,
      owner,
      earlier.map((e) => e.key),
    );
    if (longest) return { conversation: longest.conversation, saved: longest.message_count };
    return { conversation: await newConversation(db, owner, now), saved: 0 };
  }

  /** Opens the workspace conversation: unfiled, feeding knowledge unless the call said off. */
  private async open(
    ws: ReturnType<WorkspaceConversations['workspace']>,
    conversation: ConversationRow,
    reply: ReplyToSave,
  ): Promise<string> {
    // Keyed by the broker's conversation: a retry after a failure reopens the same one.
    const r = await ws.command<{ id: string }>(
      'POST',
      '/v1/conversations',
      { data: { title: `${reply.model} via the model broker`, contributes_to_knowledge: reply.knowledge } },
      key(`broker-conversation-${conversation.id}`),
    );
    if (!r.ok) throw r.error;
    if (typeof r.data?.id !== 'string') throw new Error('the workspace answered a conversation without an id');
    await setWorkspaceConversation(this.o.db, conversation.id, r.data.id);
    return r.data.id;
  }
}
