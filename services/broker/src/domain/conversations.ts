import { createHash } from 'node:crypto';
import type { Principal } from '@platform/kit';
import { serviceIdentityEmail } from '../tokens.ts';
import type { Api } from './catalog.ts';

/**
 * The rules of saved conversations (spec 3, Saved conversations): whose conversation a call is,
 * which of its messages are saved, and the keys that lead later calls back to it.
 */

/** X-Platform-Conversation-Id: up to 200 characters (spec 3, Limits). */
export const CONVERSATION_ID_MAX = 200;

/** A message that is saved: user or assistant text. System, tool and non-text content never are. */
export interface SavedMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** One turn as the workspace takes it (spec 2, Conversation, turn). */
export interface TurnInput {
  author: string;
  text: string;
  turn_kind: 'utterance';
  extra: Record<string, unknown>;
}

/** The conversation's owner: the credential's identity, never the caller's claim. */
export function conversationOwner(p: Principal): string | null {
  if (p.via !== 'credential' || !p.credential) return null;
  return p.credential.kind === 'service' ? serviceIdentityEmail(p.credential.client_id) : p.credential.owner_email;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text parts of a message's content: a string, or the text blocks of a list (images, tool blocks left out). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .filter((part) => ['text', 'input_text', 'output_text'].includes(part.type as string))
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** Items of a responses-API input: a string is one user message; function calls and their outputs are not messages. */
function responsesItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  return input.filter((item) => isObject(item) && (item.type === undefined || item.type === 'message'));
}

/**
 * The request's saveable messages in order. Chat completions and messages carry `messages`
 * (a system prompt in `system` or a system/developer role is not saved); responses carry `input`
 * (its `instructions` are not saved). A message with no text (an image, a tool call or result) is
 * left out.
 */
export function requestMessages(api: Api, request: Json): SavedMessage[] {
  const raw =
    api === 'responses' ? responsesItems(request.input) : Array.isArray(request.messages) ? request.messages : [];
  const out: SavedMessage[] = [];
  for (const m of raw) {
    if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant')) continue;
    const text = textOf(m.content);
    if (text.trim() !== '') out.push({ role: m.role, text });
  }
  return out;
}

/** The list a call ended with: its saveable messages and, when it has text, the reply. */
export const endedWith = (messages: SavedMessage[], replyText: string): SavedMessage[] =>
  replyText.trim() === '' ? messages : [...messages, { role: 'assistant', text: replyText }];

/**
 * Keys of every prefix of a message list: keys[i] names the first i + 1 messages. Chained
 * hashes of role and text, so a key says nothing about the text and equal prefixes give equal keys.
 */
export function prefixKeys(messages: SavedMessage[]): string[] {
  const keys: string[] = [];
  let chain = '';
  for (const m of messages) {
    chain = createHash('sha256').update(`${chain}\n${m.role}\n${m.text}`).digest('hex');
    keys.push(chain);
  }
  return keys;
}

/**
 * The request's earlier-message lists a previous call may have ended with: every prefix that
 * leaves out at least the last message, longest first, with its length.
 */
export function earlierLists(messages: SavedMessage[]): { key: string; count: number }[] {
  const keys = prefixKeys(messages);
  return keys
    .slice(0, Math.max(0, messages.length - 1))
    .map((key, i) => ({ key, count: i + 1 }))
    .reverse();
}

/** The key of a whole list (what a later call's earlier messages are matched against). */
export const listKey = (messages: SavedMessage[]) => prefixKeys(messages).at(-1) ?? null;

/** What the request names for pick orders 2 and 3 (responses API only). */
export function responsesRefs(api: Api, request: Json): { previousResponseId?: string; conversation?: string } {
  if (api !== 'responses') return {};
  const prev = request.previous_response_id;
  const conv = request.conversation;
  const convId = typeof conv === 'string' ? conv : isObject(conv) && typeof conv.id === 'string' ? conv.id : undefined;
  return {
    ...(typeof prev === 'string' && prev !== '' ? { previousResponseId: prev } : {}),
    ...(convId ? { conversation: convId } : {}),
  };
}

/** X-Platform-Conversation-Id as used: absent when empty or longer than the limit. */
export const usableConversationKey = (raw: string | undefined): string | undefined =>
  raw !== undefined && raw.trim() !== '' && raw.length <= CONVERSATION_ID_MAX ? raw : undefined;

/**
 * The turns to append: the messages beyond those already saved, one turn each, user turns by the
 * owner and assistant turns by the model, then the reply authored agent:<model> with the model
 * and provider in extra.
 */
export function turnsFor(
  messages: SavedMessage[],
  alreadySaved: number,
  reply: { text: string; model: string; provider: string },
  owner: string,
): TurnInput[] {
  const agent = `agent:${reply.model}`;
  const turns: TurnInput[] = messages.slice(alreadySaved).map((m) =>
    m.role === 'user'
      ? { author: owner, text: m.text, turn_kind: 'utterance', extra: {} }
      : {
          author: agent,
          text: m.text,
          turn_kind: 'utterance',
          extra: { model: reply.model, provider: reply.provider, from_request: true },
        },
  );
  if (reply.text.trim() !== '') {
    turns.push({
      author: agent,
      text: reply.text,
      turn_kind: 'utterance',
      extra: { model: reply.model, provider: reply.provider },
    });
  }
  return turns;
}
