import { notFound, uuidv7 } from '@platform/kit';
import { requireRevisionOpenForFiles, revisionNotFound } from '../domain/documents.ts';
import type { Attachment, AttachmentInput } from '../schemas/attachments.ts';
import type { AttachmentRow } from '../store/attachments.ts';
import { insertAttachment } from '../store/attachments.ts';
import type { Db } from '../store/db.ts';
import { findRevision, lockDocument, taskProject } from '../store/documents.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Attachments (spec 3, "Vendors and files"): the file is registered in the documents service
 * before the transaction (routes/attachments.ts); the command then stores the link. A revision
 * takes files only while draft or internal_review (409 revision_locked); a task's project must be
 * open (409 project_closed).
 */

export const attachmentView = (a: AttachmentRow): Attachment => ({
  ...a,
  record_type: a.record_type as Attachment['record_type'],
  created_at: (a.created_at instanceof Date ? a.created_at : new Date(a.created_at)).toISOString(),
});

/**
 * The record a file goes on, checked (404 task_not_found or revision_not_found, 409
 * revision_locked, 409 project_closed). With `ctx` the rows are locked for the write; without, a
 * read before the documents service is asked.
 */
export async function checkRecord(
  db: Db,
  input: Pick<AttachmentInput, 'record_type' | 'record_id'>,
  ctx?: CommandCtx,
): Promise<void> {
  if (input.record_type === 'task') {
    const projectId = await taskProject(db, input.record_id);
    if (projectId === undefined) throw notFound('Task', 'task_not_found');
    if (ctx) await projectForWrite(ctx, projectId);
    return;
  }
  const revision = await findRevision(db, input.record_id);
  if (!revision) throw revisionNotFound();
  if (ctx) {
    await lockDocument(db, revision.document_id);
    const locked = await findRevision(db, input.record_id, { lock: true });
    requireRevisionOpenForFiles(locked?.state ?? revision.state);
    return;
  }
  requireRevisionOpenForFiles(revision.state);
}

/** Stores the link to the file the documents service registered as `documentId`. */
export async function attachFile(ctx: CommandCtx, input: AttachmentInput, documentId: string): Promise<Attachment> {
  const { trx, principal, now } = ctx;
  await checkRecord(trx, input, ctx);
  const row = await insertAttachment(
    trx,
    {
      id: uuidv7(now.getTime()),
      record_type: input.record_type,
      record_id: input.record_id,
      document_id: documentId,
      blob_name: input.blob_name,
      filename: input.filename,
      content_type: input.content_type ?? 'application/octet-stream',
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'attachment.added',
    data: {
      attachment_id: row.id,
      record_type: row.record_type,
      record_id: row.record_id,
      document_id: documentId,
      actor_fid: principal.id,
    },
  });
  return attachmentView(row);
}
