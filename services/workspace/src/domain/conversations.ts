import { conflict, forbidden, notFound, unprocessable } from '@platform/kit';
import { type ProjectAccess, type Role, readRole, requireRole } from './roles.ts';

/**
 * Conversations (spec 2, "Conversation, turn, output"): threads anyone signed in may start,
 * unfiled until filed onto a project. Turns are append-only; turn_count and utterance_count count
 * utterances only; an archived conversation stays readable and refuses new turns.
 */

export const CONVERSATION_STATUSES = ['active', 'archived'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** utterance (speech), lookup (what a read tool looked up), output (saved file marker), system (bookkeeping). */
export const TURN_KINDS = ['utterance', 'lookup', 'output', 'system'] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

export const TITLE_MAX = 200;
export const DEFAULT_TITLE = 'New conversation';
export const TURN_TEXT_MAX = 200_000;
export const AUTHOR_MAX = 200;
/** The JSON of a turn's extra, at most this many characters. */
export const EXTRA_MAX = 32_768;
export const LIST_PAGE = { pageSize: 50, maxPageSize: 200 } as const;
export const TURN_PAGE = { limit: 100, maxLimit: 500 } as const;
export const FILE_PAGE = { pageSize: 50, maxPageSize: 200 } as const;
export const REDACTION_PAGE = { pageSize: 25, maxPageSize: 100 } as const;
export const SESSION_AGENT_MAX = 200;
export const REASON_MAX = 2_000;

/** What the domain needs of a conversation to decide. */
export interface ConversationRecord {
  id: string;
  project_id: string | null;
  title: string;
  status: ConversationStatus;
  contributes_to_knowledge: boolean;
  created_by: string;
  last_seq: number;
  utterance_count: number;
  last_turn_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const conversationNotFound = () => notFound('Conversation', 'conversation_not_found');

/** A conversation's title: trimmed, 1 to 200 characters (422 invalid_conversation_title). */
export function conversationTitle(raw: string): string {
  const t = raw.trim();
  if (t.length < 1 || t.length > TITLE_MAX) {
    throw unprocessable(
      'invalid_conversation_title',
      `A conversation title is 1 to ${TITLE_MAX} characters (trimmed)`,
      'body/data/title',
    );
  }
  return t;
}

/** title and its other spelling name: either, or both when they agree (422 validation_failed otherwise). */
export function titleOf(input: { title?: string; name?: string }): string | undefined {
  if (input.title !== undefined && input.name !== undefined && input.title.trim() !== input.name.trim()) {
    throw unprocessable('validation_failed', 'title and name are one field: send one of them', 'body/data/name');
  }
  const raw = input.title ?? input.name;
  return raw === undefined ? undefined : conversationTitle(raw);
}

/**
 * Who may read a conversation. Unfiled: only the person who started it (anyone else 404, so its
 * existence is not revealed). Filed: whoever may read its project (viewers, platform admins).
 */
export function canReadUnfiled(c: ConversationRecord, principalId: string): boolean {
  return c.project_id === null && c.created_by === principalId;
}

/**
 * The role a filed conversation's write needs: editor on its project ("editors write tasks,
 * views and files"); 404 conversation_not_found when the caller cannot see the project at all.
 */
export function requireConversationWriter(access: ProjectAccess, needed: Role = 'editor'): Role {
  if (readRole(access) === null) throw conversationNotFound();
  return requireRole(access, needed);
}

/** Appending a turn (or starting an agent session) on an archived conversation: 409 conversation_archived. */
export function requireActiveConversation(c: Pick<ConversationRecord, 'status'>): void {
  if (c.status === 'archived') {
    throw conflict(
      'conversation_archived',
      'The conversation is archived: it stays readable but takes no new turns; set status active to continue it',
    );
  }
}

/** A turn's extra: a JSON object of at most 32 KiB (422 extra_too_large). */
export function checkExtra(extra: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(extra).length > EXTRA_MAX) {
    throw unprocessable(
      'extra_too_large',
      `A turn's extra is at most ${EXTRA_MAX} characters of JSON`,
      'body/data/extra',
    );
  }
  return extra;
}

/** What turn_count and utterance_count add for one appended turn: utterances only. */
export const utterancesAdded = (kind: TurnKind) => (kind === 'utterance' ? 1 : 0);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The document an output turn attaches (extra.document_id a UUID), with what extra says of it. */
export interface AttachedDocument {
  document_id: string;
  filename: string;
  content_type: string | null;
  size_bytes: number | null;
}

export function attachedDocument(kind: TurnKind, extra: Record<string, unknown>): AttachedDocument | undefined {
  if (kind !== 'output') return undefined;
  const id = extra.document_id;
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  const size = extra.size_bytes;
  return {
    document_id: id.toLowerCase(),
    filename: typeof extra.filename === 'string' ? extra.filename.slice(0, 500) : '',
    content_type: typeof extra.content_type === 'string' ? extra.content_type.slice(0, 200) : null,
    size_bytes: typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : null,
  };
}

/** Which fields a PATCH changes (values equal to the stored ones are no change). */
export function conversationChanges(
  c: ConversationRecord,
  patch: { title?: string; status?: ConversationStatus; contributes_to_knowledge?: boolean },
): { title?: string; status?: ConversationStatus; contributes_to_knowledge?: boolean } {
  const out: { title?: string; status?: ConversationStatus; contributes_to_knowledge?: boolean } = {};
  if (patch.title !== undefined && patch.title !== c.title) out.title = patch.title;
  if (patch.status !== undefined && patch.status !== c.status) out.status = patch.status;
  if (patch.contributes_to_knowledge !== undefined && patch.contributes_to_knowledge !== c.contributes_to_knowledge) {
    out.contributes_to_knowledge = patch.contributes_to_knowledge;
  }
  return out;
}

/** Agent sessions. */
/** expired: the session went quiet (no heartbeat) and expire-sessions ended it (issue 19). */
export const SESSION_STATUSES = ['active', 'ended', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const sessionNotFound = () => notFound('Agent session', 'session_not_found');

/** A heartbeat on an ended or expired session: 409 session_ended (start a new one). */
export function requireLiveSession(s: { status: SessionStatus }): void {
  if (s.status !== 'active') throw conflict('session_ended', 'The agent session has ended; start a new one');
}

/** Redactions. */
export const REDACTION_STATUSES = ['pending', 'approved'] as const;
export type RedactionStatus = (typeof REDACTION_STATUSES)[number];

export const turnNotFound = () => notFound('Turn', 'turn_not_found');
export const redactionNotFound = () => notFound('Redaction request', 'redaction_not_found');

/** A request on a turn whose text is already destroyed: 409 turn_redacted. */
export function requireUnredacted(t: { redacted_at: Date | null }): void {
  if (t.redacted_at !== null) throw conflict('turn_redacted', "The turn's text is already destroyed");
}

/** Approving a request that was already approved: 409 redaction_decided. */
export function requirePendingRedaction(r: { status: RedactionStatus }): void {
  if (r.status !== 'pending') throw conflict('redaction_decided', 'The redaction request was already approved');
}

/**
 * Who approves a redaction (besides holding the key): an owner of the conversation's project, or,
 * for an unfiled conversation, the person who started it.
 */
export function requireRedactionApprover(
  c: ConversationRecord,
  principalId: string,
  access: ProjectAccess | undefined,
): void {
  if (c.project_id === null) {
    if (c.created_by !== principalId) throw conversationNotFound();
    return;
  }
  if (!access) throw conversationNotFound();
  requireConversationWriter(access, 'owner');
}

/** The approval key as the caller presents it must equal REDACTION_APPROVAL_KEY (403 invalid_approval_key). */
export function requireApprovalKey(
  configured: string,
  presented: string | undefined,
  same: (a: string, b: string) => boolean,
) {
  if (presented === undefined || presented === '' || !same(configured, presented)) {
    throw forbidden(
      'Approving a redaction needs the redaction approval key in data.approval_key',
      'invalid_approval_key',
    );
  }
}

/** Suggestions. */
export const SUGGESTION_DECISIONS = ['accept', 'dismiss'] as const;
export type SuggestionDecision = (typeof SUGGESTION_DECISIONS)[number];
export const SUGGESTIONS_MAX = 10;

/** Usage window: from before to (422 invalid_window); default the 30 days up to now. */
export const USAGE_DEFAULT_DAYS = 30;
export function usageWindow(now: Date, from?: string, to?: string): { from: Date; to: Date } {
  const end = to ? new Date(to) : now;
  const start = from ? new Date(from) : new Date(end.getTime() - USAGE_DEFAULT_DAYS * 86_400_000);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start.getTime() >= end.getTime()) {
    throw unprocessable('invalid_window', 'The usage window needs from before to', 'querystring/from');
  }
  return { from: start, to: end };
}
