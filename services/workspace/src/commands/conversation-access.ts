import { isAppError, type Principal } from '@platform/kit';
import {
  type ConversationRecord,
  canReadUnfiled,
  conversationNotFound,
  requireConversationWriter,
} from '../domain/conversations.ts';
import { type Role, readRole, requireActiveProject } from '../domain/roles.ts';
import { findConversation } from '../store/conversations.ts';
import type { Db } from '../store/db.ts';
import { type VisibleProject, visibleProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';

/** The conversation's project as the caller sees it, or undefined when they cannot see it. */
async function projectSeenBy(
  db: Db,
  principal: Principal,
  asMember: boolean,
  projectId: string,
): Promise<VisibleProject | undefined> {
  try {
    return await visibleProject(db, principal, asMember, projectId);
  } catch (e) {
    if (isAppError(e) && e.status === 404) return undefined;
    throw e;
  }
}

export interface ConversationAccess {
  conversation: ConversationRecord;
  /** The project it is filed on, as the caller sees it (absent while unfiled). */
  project?: VisibleProject;
}

/**
 * A conversation the caller may read: unfiled, only the person who started it; filed, whoever
 * reads its project. Anyone else gets 404 conversation_not_found (never 403).
 */
export async function readableConversation(
  db: Db,
  principal: Principal,
  asMember: boolean,
  id: string,
): Promise<ConversationAccess> {
  const conversation = await findConversation(db, id);
  if (!conversation) throw conversationNotFound();
  if (conversation.project_id === null) {
    if (!canReadUnfiled(conversation, principal.id)) throw conversationNotFound();
    return { conversation };
  }
  const project = await projectSeenBy(db, principal, asMember, conversation.project_id);
  if (!project || readRole(project.access) === null) throw conversationNotFound();
  return { conversation, project };
}

/**
 * The start of every command on a conversation: the row locked for this write (turn numbers
 * follow commit order), and the caller's right to change it: unfiled, the person who started it;
 * filed, `needed` (editor by default) on its project, which must not be archived (409
 * project_archived). 404 conversation_not_found when the caller cannot read it.
 */
export async function conversationForWrite(
  ctx: CommandCtx,
  id: string,
  needed: Role = 'editor',
): Promise<ConversationAccess> {
  const conversation = await findConversation(ctx.trx, id, { lock: true });
  if (!conversation) throw conversationNotFound();
  if (conversation.project_id === null) {
    if (!canReadUnfiled(conversation, ctx.principal.id)) throw conversationNotFound();
    return { conversation };
  }
  const project = await projectSeenBy(ctx.trx, ctx.principal, ctx.asMember, conversation.project_id);
  if (!project) throw conversationNotFound();
  requireConversationWriter(project.access, needed);
  requireActiveProject(project.project);
  return { conversation, project };
}
