import { uuidv7 } from '@platform/kit';
import {
  type ConversationRecord,
  conversationChanges,
  DEFAULT_TITLE,
  type SuggestionDecision,
  titleOf,
} from '../domain/conversations.ts';
import type { Conversation, ConversationInput, ConversationPatch, Resolution } from '../schemas/conversations.ts';
import {
  conversationView,
  insertConversation,
  moveFiles,
  resolveSuggestion,
  updateConversation,
} from '../store/conversations.ts';
import type { CommandCtx } from './context.ts';
import { conversationForWrite } from './conversation-access.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Starts a conversation. Anyone signed in may start one unfiled (project_id absent); filing it
 * on create needs editor on that project (403, nothing written; 404 project_not_found when the
 * caller cannot see it; 409 project_archived). Emits conversation.started (ids only).
 */
export async function startConversation(
  ctx: CommandCtx,
  input: ConversationInput & { project_id?: string | null },
): Promise<Conversation> {
  const { trx, principal, now } = ctx;
  const title = titleOf(input) ?? DEFAULT_TITLE;
  const projectId = input.project_id ?? null;
  if (projectId !== null) await projectForWrite(ctx, projectId, 'editor');
  const conversation = await insertConversation(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      title,
      contributes_to_knowledge: input.contributes_to_knowledge ?? true,
      created_by: principal.id,
    },
    now,
  );
  await ctx.emit({
    type: 'conversation.started',
    data: {
      conversationId: conversation.id,
      projectId,
      contributesToKnowledge: conversation.contributes_to_knowledge,
      actor: principal.id,
    },
  });
  return conversationView(conversation);
}

/**
 * Renames, archives or restores, and sets contributes_to_knowledge. Fields sent with their
 * current values are no change: nothing is written and no event emitted. Archiving keeps the
 * conversation readable; only new turns are refused.
 */
export async function editConversation(ctx: CommandCtx, id: string, patch: ConversationPatch): Promise<Conversation> {
  const { trx, principal, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, id);
  const changes = conversationChanges(conversation, {
    title: titleOf(patch),
    status: patch.status,
    contributes_to_knowledge: patch.contributes_to_knowledge,
  });
  const fields = Object.keys(changes);
  if (fields.length === 0) return conversationView(conversation);
  const updated = await updateConversation(trx, id, changes, now);
  await ctx.emit({
    type: 'conversation.updated',
    data: {
      conversationId: id,
      projectId: updated.project_id,
      changedFields: fields,
      status: updated.status,
      contributesToKnowledge: updated.contributes_to_knowledge,
      actor: principal.id,
    },
  });
  return conversationView(updated);
}

/** Files the conversation (and its files) onto `projectId`; the caller needs editor there. */
async function fileOnto(ctx: CommandCtx, conversation: ConversationRecord, projectId: string) {
  const { trx, principal, now } = ctx;
  await projectForWrite(ctx, projectId, 'editor');
  if (conversation.project_id === projectId) return conversation;
  const moved = await updateConversation(trx, conversation.id, { project_id: projectId }, now);
  const files = await moveFiles(trx, conversation.id, projectId);
  await ctx.emit({
    type: 'conversation.moved',
    data: {
      conversationId: conversation.id,
      fromProjectId: conversation.project_id,
      projectId,
      files,
      actor: principal.id,
    },
  });
  return moved;
}

/**
 * Reparents a conversation with its files: the caller must be able to change it where it is
 * (unfiled: its starter; filed: editor there) and be an editor on the target project. Moving it
 * to the project it is on changes nothing.
 */
export async function moveConversation(ctx: CommandCtx, id: string, projectId: string): Promise<Conversation> {
  const { conversation } = await conversationForWrite(ctx, id);
  return conversationView(await fileOnto(ctx, conversation, projectId));
}

/**
 * Settles the suggestion naming `projectId`: accept files the conversation there (a move, with
 * the move's checks); dismiss records that the project is not where it belongs. Either way the
 * project is not suggested again.
 */
export async function settleSuggestion(
  ctx: CommandCtx,
  id: string,
  projectId: string,
  decision: SuggestionDecision,
): Promise<Resolution> {
  const { trx, principal, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, id);
  const after =
    decision === 'accept'
      ? await fileOnto(ctx, conversation, projectId)
      : await dismissable(ctx, conversation, projectId);
  await resolveSuggestion(
    trx,
    { conversation_id: id, project_id: projectId, decision, resolved_by: principal.id },
    now,
  );
  await ctx.emit({
    type: 'conversation.suggestion_resolved',
    data: { conversationId: id, projectId, decision, actor: principal.id },
  });
  return {
    conversation_id: id,
    project_id: projectId,
    decision,
    resolved_by: principal.id,
    resolved_at: now.toISOString(),
    conversation: conversationView(after),
  };
}

/** Dismissing names a project the caller can see (404 project_not_found otherwise). */
async function dismissable(ctx: CommandCtx, conversation: ConversationRecord, projectId: string) {
  await projectForWrite(ctx, projectId, 'viewer', { allowArchived: true });
  return conversation;
}
