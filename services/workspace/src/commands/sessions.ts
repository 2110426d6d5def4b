import { isAppError, uuidv7 } from '@platform/kit';
import { requireActiveConversation, requireLiveSession, sessionNotFound } from '../domain/conversations.ts';
import type { Session } from '../schemas/conversations.ts';
import { endSession, insertSession, lockSession, recordHeartbeat } from '../store/sessions.ts';
import type { CommandCtx } from './context.ts';
import { conversationForWrite } from './conversation-access.ts';

/**
 * Starts an agent session on a conversation the caller may change (an archived conversation:
 * 409 conversation_archived, as for turns). Emits conversation.session_started.
 */
export async function startSession(
  ctx: CommandCtx,
  conversationId: string,
  agent: string | undefined,
): Promise<Session> {
  const { trx, principal, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, conversationId);
  requireActiveConversation(conversation);
  const session = await insertSession(
    trx,
    {
      id: uuidv7(now.getTime()),
      conversation_id: conversation.id,
      agent: agent?.trim() || principal.id,
      started_by: principal.id,
    },
    now,
  );
  await ctx.emit({
    type: 'conversation.session_started',
    data: {
      conversationId: conversation.id,
      projectId: conversation.project_id,
      sessionId: session.id,
      actor: principal.id,
    },
  });
  return session;
}

/** The session, locked, if the caller may change its conversation (else 404 session_not_found). */
async function sessionForWrite(ctx: CommandCtx, id: string) {
  const session = await lockSession(ctx.trx, id);
  if (!session) throw sessionNotFound();
  try {
    const { conversation } = await conversationForWrite(ctx, session.conversation_id);
    return { session, conversation };
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw sessionNotFound();
    throw e;
  }
}

/** Records a heartbeat: the session stays active. An ended session is 409 session_ended. No event. */
export async function heartbeat(ctx: CommandCtx, id: string): Promise<Session> {
  const { session } = await sessionForWrite(ctx, id);
  requireLiveSession(session);
  return recordHeartbeat(ctx.trx, session.id, ctx.now);
}

/** Ends a session; ending an ended (or expired) one changes nothing. Emits conversation.session_ended. */
export async function finishSession(ctx: CommandCtx, id: string): Promise<Session> {
  const { trx, principal, now } = ctx;
  const { session, conversation } = await sessionForWrite(ctx, id);
  if (session.status !== 'active') return session;
  const ended = await endSession(trx, session.id, principal.id, now);
  await ctx.emit({
    type: 'conversation.session_ended',
    data: {
      conversationId: conversation.id,
      projectId: conversation.project_id,
      sessionId: session.id,
      actor: principal.id,
    },
  });
  return ended;
}
