import { isAppError, uuidv7 } from '@platform/kit';
import {
  attachedDocument,
  checkExtra,
  conversationNotFound,
  redactionNotFound,
  requireActiveConversation,
  requirePendingRedaction,
  requireRedactionApprover,
  requireUnredacted,
  turnNotFound,
  utterancesAdded,
} from '../domain/conversations.ts';
import type { Redaction, Turn, TurnInput } from '../schemas/conversations.ts';
import { attachFile, findConversation } from '../store/conversations.ts';
import { visibleProject } from '../store/projects.ts';
import { approveRedaction, findRedaction, insertRedaction, pendingRedaction } from '../store/redactions.ts';
import { appendTurn, destroyTurnText, findTurn, turnView } from '../store/turns.ts';
import type { CommandCtx } from './context.ts';
import { conversationForWrite, readableConversation } from './conversation-access.ts';

/**
 * Appends a turn after the last one (turns are append-only). An archived conversation refuses it
 * (409 conversation_archived). Only utterances move turn_count and utterance_count. An output
 * turn whose extra names a document_id attaches that document to the conversation (listed by
 * GET .../files, filed or not). Emits conversation.turn_appended (ids and kind, never the text).
 */
export async function addTurn(ctx: CommandCtx, conversationId: string, input: TurnInput): Promise<Turn> {
  const { trx, principal, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, conversationId);
  requireActiveConversation(conversation);
  const kind = input.turn_kind ?? 'utterance';
  const extra = checkExtra(input.extra ?? {});
  const turn = await appendTurn(
    trx,
    {
      conversation_id: conversation.id,
      turn_kind: kind,
      author: input.author ?? principal.id,
      text: input.text,
      extra,
      written_by: principal.id,
    },
    utterancesAdded(kind),
    now,
  );
  const doc = attachedDocument(kind, extra);
  if (doc) {
    await attachFile(
      trx,
      {
        conversation_id: conversation.id,
        project_id: conversation.project_id,
        turn_seq: turn.seq,
        saved_by: principal.id,
      },
      doc,
      now,
    );
  }
  await ctx.emit({
    type: 'conversation.turn_appended',
    data: {
      conversationId: conversation.id,
      projectId: conversation.project_id,
      seq: turn.seq,
      turnKind: kind,
      actor: principal.id,
    },
  });
  return turnView(turn);
}

/**
 * Asks for a turn's text to be destroyed. Whoever may read the conversation may ask (the person
 * quoted may be a viewer); a turn already redacted is 409 turn_redacted; a second request while
 * one is pending answers the pending one. Emits conversation.redaction_requested.
 */
export async function requestRedaction(
  ctx: CommandCtx,
  conversationId: string,
  seq: number,
  reason: string,
): Promise<Redaction> {
  const { trx, principal, now } = ctx;
  const { conversation } = await readableConversation(trx, principal, ctx.asMember, conversationId);
  // The row lock orders this request after any append or approval in flight.
  await findConversation(trx, conversation.id, { lock: true });
  const turn = await findTurn(trx, conversation.id, seq);
  if (!turn) throw turnNotFound();
  requireUnredacted(turn);
  const pending = await pendingRedaction(trx, conversation.id, seq);
  if (pending) return pending;
  const request = await insertRedaction(
    trx,
    {
      id: uuidv7(now.getTime()),
      conversation_id: conversation.id,
      seq,
      reason: reason.trim(),
      requested_by: principal.id,
    },
    now,
  );
  await ctx.emit({
    type: 'conversation.redaction_requested',
    data: {
      redactionId: request.id,
      conversationId: conversation.id,
      projectId: conversation.project_id,
      seq,
      actor: principal.id,
    },
  });
  return request;
}

/**
 * Approves a pending request and destroys the turn's text (the key was checked before the
 * transaction opened). Approvers: an owner of the conversation's project, or the person who
 * started an unfiled one. Emits conversation.turn_redacted.
 */
export async function approveRedactionRequest(ctx: CommandCtx, redactionId: string): Promise<Redaction> {
  const { trx, principal, now } = ctx;
  const request = await findRedaction(trx, redactionId, { lock: true });
  if (!request) throw redactionNotFound();
  const conversation = await findConversation(trx, request.conversation_id, { lock: true });
  if (!conversation) throw conversationNotFound();
  const access = conversation.project_id
    ? await visibleProject(trx, principal, ctx.asMember, conversation.project_id).then(
        (v) => v.access,
        (e: unknown) => {
          // A project the caller cannot see: so is the request (below).
          if (isAppError(e) && e.status === 404) return undefined;
          throw e;
        },
      )
    : undefined;
  try {
    requireRedactionApprover(conversation, principal.id, access);
  } catch (e) {
    // Someone who cannot see the conversation cannot see its requests either.
    if (isAppError(e) && e.status === 404) throw redactionNotFound();
    throw e;
  }
  requirePendingRedaction(request);
  await destroyTurnText(trx, conversation.id, request.seq, now);
  const approved = await approveRedaction(trx, request.id, principal.id, now);
  await ctx.emit({
    type: 'conversation.turn_redacted',
    data: {
      redactionId: request.id,
      conversationId: conversation.id,
      projectId: conversation.project_id,
      seq: request.seq,
      actor: principal.id,
    },
  });
  return approved;
}
