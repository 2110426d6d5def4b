import { type Principal, unprocessable, uuidv7 } from '@platform/kit';
import type { Documents } from '../clients/documents.ts';
import { attachedDocument, requireConversationWriter } from '../domain/conversations.ts';
import { requireClean } from '../domain/output-scan.ts';
import {
  contentType,
  documentsNotConfigured,
  documentsUnavailable,
  inlineBytes,
  outputProject,
  outputSlug,
  outputTitle,
  planSave,
  requireFreshUpload,
  requirePendingUpload,
  requireSameSha256,
  sha256Hex,
  UPLOAD_MAX_BYTES,
  UPLOAD_TTL_SECONDS,
  uploadNotFound,
  uploadTooLarge,
} from '../domain/outputs.ts';
import type { FinalizeInput, Output, UploadInput, UploadTicket } from '../schemas/outputs.ts';
import { attachFile } from '../store/conversations.ts';
import type { Db } from '../store/db.ts';
import {
  findUpload,
  finishUpload,
  insertOutput,
  insertUpload,
  lockSlug,
  slugState,
  supersedeOutput,
} from '../store/outputs.ts';
import type { CommandCtx } from './context.ts';
import { conversationForWrite, readableConversation } from './conversation-access.ts';
import { projectForWrite } from './project-access.ts';

/** What a save writes: the artifact's bytes described, inline or as a registered document. */
export interface OutputContent {
  slug: string;
  title: string;
  content_type: string;
  sha256: string;
  size_bytes: number;
  body: string | null;
  document_id: string | null;
  filename: string | null;
}

export interface SaveResult {
  output: Output;
  /** false when the slug's active row already had this sha256 (nothing written). */
  created: boolean;
}

/**
 * Checks an inline save before its transaction opens: slug, title, media type, at most 256 KiB of
 * UTF-8, and the scan for credentials and tool logs. Nothing is written by a refusal.
 */
export function inlineContent(input: {
  slug: string;
  body: string;
  title?: string;
  content_type?: string;
}): OutputContent {
  const slug = outputSlug(input.slug);
  const title = outputTitle(input.title);
  const type = contentType(input.content_type);
  const bytes = inlineBytes(input.body);
  requireClean(input.body, 'body/data/body');
  return {
    slug,
    title,
    content_type: type,
    sha256: sha256Hex(bytes),
    size_bytes: bytes.length,
    body: input.body,
    document_id: null,
    filename: null,
  };
}

/**
 * Saves a version of `content.slug` on the project (editors; 409 project_archived). The slug is
 * locked for the rest of the transaction, so concurrent saves number their versions 1, 2, 3…
 * and leave one active row. The same sha256 as the active row writes nothing; another one marks
 * it superseded and writes version N + 1, then emits project.output_saved.
 */
export async function saveOutput(
  ctx: CommandCtx,
  projectId: string,
  conversation: { id: string; project_id: string | null } | null,
  content: OutputContent,
): Promise<SaveResult> {
  const { trx, principal, now } = ctx;
  await projectForWrite(ctx, projectId, 'editor');
  await lockSlug(trx, projectId, content.slug);
  const { active, latest } = await slugState(trx, projectId, content.slug);
  const plan = planSave(active, latest, content.sha256);
  if (plan.kind === 'unchanged' && active) return { output: active, created: false };
  if (plan.kind !== 'new_version') throw new Error('unreachable');
  if (plan.supersedes) await supersedeOutput(trx, plan.supersedes, now);
  const output = await insertOutput(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      conversation_id: conversation?.id ?? null,
      version: plan.version,
      saved_by: principal.id,
      ...content,
    },
    now,
  );
  // An uploaded output is a document: it is listed with the conversation's files.
  const doc = content.document_id
    ? attachedDocument('output', {
        document_id: content.document_id,
        filename: content.filename ?? '',
        content_type: content.content_type,
        size_bytes: content.size_bytes,
      })
    : undefined;
  if (doc && conversation) {
    await attachFile(
      trx,
      { conversation_id: conversation.id, project_id: conversation.project_id, turn_seq: null, saved_by: principal.id },
      doc,
      now,
    );
  }
  await ctx.emit({
    type: 'project.output_saved',
    data: {
      projectId,
      outputId: output.id,
      conversationId: conversation?.id ?? null,
      version: output.version,
      sha256: output.sha256,
      supersededOutputId: plan.supersedes,
      actor: principal.id,
    },
  });
  return { output, created: true };
}

/**
 * POST /v1/conversations/{id}/outputs: on the conversation's project, or, while it is unfiled, on
 * data.project_id (422 project_id_required without it). The caller changes the conversation
 * (unfiled: its starter; filed: an editor) and is an editor on the project.
 */
export async function saveConversationOutput(
  ctx: CommandCtx,
  conversationId: string,
  projectIdSent: string | undefined,
  content: OutputContent,
): Promise<SaveResult> {
  const { conversation } = await conversationForWrite(ctx, conversationId);
  const projectId = outputProject(conversation.project_id, projectIdSent);
  return saveOutput(ctx, projectId, conversation, content);
}

/**
 * POST .../outputs/upload: records an upload for a slug and asks the documents service for a
 * write URL for a new blob. 503 documents_not_configured without DOCUMENTS_URL.
 */
export async function startUpload(
  ctx: CommandCtx,
  documents: Documents | undefined,
  conversationId: string,
  input: UploadInput,
): Promise<UploadTicket> {
  const { trx, principal, now } = ctx;
  if (!documents) throw documentsNotConfigured();
  const slug = outputSlug(input.slug);
  const title = outputTitle(input.title);
  const type = contentType(input.content_type, 'application/octet-stream');
  const { conversation } = await conversationForWrite(ctx, conversationId);
  const projectId = outputProject(conversation.project_id, input.project_id);
  await projectForWrite(ctx, projectId, 'editor');
  const url = await documents.uploadUrl(input.filename);
  if (!url.ok) {
    if (url.status === 422) throw unprocessable('invalid_filename', url.message, 'body/data/filename');
    throw documentsUnavailable(`${url.code}: ${url.message}`);
  }
  const upload = await insertUpload(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      conversation_id: conversation.id,
      slug,
      title,
      filename: input.filename,
      content_type: type,
      storage_account: url.data.storage_account,
      container: url.data.container,
      blob_name: url.data.blob_name,
      created_by: principal.id,
      expires_at: new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000),
    },
    now,
  );
  return {
    ...uploadView(upload),
    upload_url: url.data.sas_url,
    upload_url_expires_at: url.data.sas_expires_at,
    upload_method: 'PUT',
    upload_headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': type },
  };
}

const uploadView = (u: NonNullable<Awaited<ReturnType<typeof findUpload>>>) => ({
  id: u.id,
  project_id: u.project_id,
  conversation_id: u.conversation_id,
  slug: u.slug,
  title: u.title,
  filename: u.filename,
  content_type: u.content_type,
  blob_name: u.blob_name,
  created_by: u.created_by,
  created_at: u.created_at.toISOString(),
  expires_at: u.expires_at.toISOString(),
  output_id: u.output_id,
  finalized_at: u.finalized_at?.toISOString() ?? null,
});

/** What finalize learned from the documents service before its transaction. */
export interface VerifiedUpload {
  documentId: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Finalize's work before the transaction (not run for a replay): the upload must be the caller's
 * on this conversation and still pending; the blob is registered with the documents service (a
 * key derived from the upload, so a retry is one document), read back, hashed and scanned. A
 * sha256 other than the one sent is 422 sha256_mismatch and nothing is committed here.
 */
export async function verifyUpload(
  db: Db,
  documents: Documents | undefined,
  principal: Principal,
  asMember: boolean,
  conversationId: string,
  input: FinalizeInput,
  now: Date,
): Promise<VerifiedUpload> {
  if (!documents) throw documentsNotConfigured();
  const { conversation, project } = await readableConversation(db, principal, asMember, conversationId);
  // A reader below editor is refused before the documents service is asked anything.
  if (project) requireConversationWriter(project.access);
  const upload = await findUpload(db, input.upload_id);
  if (!upload || upload.conversation_id !== conversation.id || upload.created_by !== principal.id) {
    throw uploadNotFound();
  }
  requirePendingUpload(upload);
  requireFreshUpload(upload, now);
  const registered = await documents.register(
    {
      filename: upload.filename,
      storage_account: upload.storage_account,
      container: upload.container,
      blob_name: upload.blob_name,
      content_type: upload.content_type,
      references: [{ ref_type: 'project', ref_id: upload.project_id, ref_category: 'output', is_external: false }],
      metadata: [
        { meta_name: 'uploaded_by', meta_value: principal.id },
        { meta_name: 'output_slug', meta_value: upload.slug },
        { meta_name: 'conversation_id', meta_value: upload.conversation_id },
      ],
    },
    `workspace-output-upload-${upload.id}`,
  );
  if (!registered.ok) {
    if (registered.code === 'blob_not_found') {
      throw unprocessable('upload_not_received', 'No bytes were uploaded to the upload URL yet', 'body/data/upload_id');
    }
    if (registered.status === 413) throw uploadTooLarge(Number.NaN);
    throw documentsUnavailable(`${registered.code}: ${registered.message}`);
  }
  const read = await documents.readBack(registered.data.id, UPLOAD_MAX_BYTES);
  if (!read.ok) {
    if (read.status === 413) throw uploadTooLarge(registered.data.byte_size);
    throw documentsUnavailable(`${read.code}: ${read.message}`);
  }
  requireSameSha256(input.sha256, read.sha256);
  // Bytes are scanned as Latin-1 so every byte is one character and the patterns (ASCII) match in any encoding.
  requireClean(read.bytes.toString('latin1'), 'body/data/upload_id');
  return { documentId: registered.data.id, sizeBytes: read.bytes.length, sha256: read.sha256 };
}

/** Finalize's transaction: the output saved from the verified upload, and the upload closed. */
export async function finalizeUpload(
  ctx: CommandCtx,
  conversationId: string,
  uploadId: string,
  verified: VerifiedUpload,
): Promise<SaveResult> {
  const { trx, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, conversationId);
  const upload = await findUpload(trx, uploadId, { lock: true });
  if (!upload || upload.conversation_id !== conversation.id) throw uploadNotFound();
  requirePendingUpload(upload);
  const saved = await saveOutput(ctx, upload.project_id, conversation, {
    slug: upload.slug,
    title: upload.title,
    content_type: upload.content_type,
    sha256: verified.sha256,
    size_bytes: verified.sizeBytes,
    body: null,
    document_id: verified.documentId,
    filename: upload.filename,
  });
  await finishUpload(trx, upload.id, saved.output.id, now);
  return saved;
}
