import { AppError, Command, Envelope, IdParams, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import type { Documents } from '../clients/documents.ts';
import { attachFile, attachmentView, checkRecord } from '../commands/attachments.ts';
import { attachmentNotFound, DOCUMENT_PAGE } from '../domain/documents.ts';
import {
  Attachment,
  AttachmentInput,
  AttachmentListQuery,
  DownloadUrl,
  UploadUrl,
  UploadUrlInput,
} from '../schemas/attachments.ts';
import { findAttachment, listAttachments } from '../store/attachments.ts';
import { type RouteDeps, type Routes, route } from './deps.ts';

const tags = ['attachments'];

/** 503 attachments_unavailable when CONSTRUCTION_DOCUMENTS_URL is unset, before anything else. */
function documentsOf(deps: RouteDeps): Documents {
  if (!deps.documents) {
    throw new AppError(503, 'attachments_unavailable', 'CONSTRUCTION_DOCUMENTS_URL is not set: files cannot be kept');
  }
  return deps.documents;
}

/** The documents service's id of the file registered before the transaction, by request (a replay runs neither). */
const registered = new WeakMap<FastifyRequest, string>();

const idempotencyKey = (req: FastifyRequest) => {
  const v = req.headers['idempotency-key'];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

const OUTSIDE = ['attachments_unavailable', 'documents_unavailable'] as const;

export const attachmentRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/attachments/upload-url',
    action: 'AttachDocument',
    command: false,
    tags,
    summary: 'A short-lived write link for a file, from the documents service (not a command: nothing is written)',
    description:
      'PUT the bytes to upload_url with header x-ms-blob-type: BlockBlob, then register the file with POST ' +
      '/v1/attachments and the blob_name. 503 attachments_unavailable (CONSTRUCTION_DOCUMENTS_URL unset); 502 ' +
      'documents_unavailable (the documents service failed or did not answer in time); 422 validation_failed ' +
      '(the documents service refused the filename).',
    body: Command(UploadUrlInput),
    response: Envelope(UploadUrl),
    status: 201,
    errors: [...OUTSIDE],
    handler: async ({ body, reply }, deps) => {
      const link = await documentsOf(deps).uploadLink(body.data.filename);
      return reply.code(201).send(reply.envelope({ ...link, upload_headers: { 'x-ms-blob-type': 'BlockBlob' } }));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/attachments',
    action: 'AttachDocument',
    tags,
    summary: 'Register an uploaded file on a task or a document revision, by its blob name',
    description:
      'record_type task or document_revision. The file is registered in the documents service before the ' +
      'transaction, then the link is stored. 404 task_not_found or revision_not_found; 409 revision_locked (the ' +
      'revision is not draft or internal_review), project_closed; 503 attachments_unavailable; 502 ' +
      'documents_unavailable; 422 validation_failed (the documents service refused it, e.g. no such blob). Nothing ' +
      'is written on any refusal. Publishes attachment.added.',
    body: Command(AttachmentInput),
    response: Envelope(Attachment),
    status: 201,
    errors: [
      ...OUTSIDE,
      'task_not_found',
      'revision_not_found',
      'revision_locked',
      'project_closed',
      'project_not_found',
    ],
    check: (_input, deps) => {
      documentsOf(deps);
    },
    options: ({ body, req }, deps) => ({
      // Runs for a new request only (a replay answers the stored result): the record is checked
      // before the documents service is asked, and again under lock in the transaction.
      beforeTransaction: async () => {
        const d = body.data;
        await checkRecord(deps.database.db, d);
        const file = await documentsOf(deps).register(
          {
            blob_name: d.blob_name,
            filename: d.filename,
            content_type: d.content_type ?? 'application/octet-stream',
            record_type: d.record_type,
            record_id: d.record_id,
          },
          idempotencyKey(req),
        );
        registered.set(req, file.document_id);
      },
    }),
    run: (ctx, { body, req }) => {
      const documentId = registered.get(req);
      if (documentId === undefined) throw new Error('The file was not registered before the transaction');
      return attachFile(ctx, body.data, documentId);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/attachments',
    action: 'ReadAttachments',
    tags,
    summary: "A record's files (record_type and record_id), oldest first; page mode, 50 by default, at most 200",
    description: '503 attachments_unavailable when CONSTRUCTION_DOCUMENTS_URL is unset.',
    query: AttachmentListQuery,
    response: PageEnvelope(Attachment),
    errors: ['attachments_unavailable'],
    handler: async ({ query, reply }, deps) => {
      documentsOf(deps);
      const page = pageRequest(query, DOCUMENT_PAGE.pageSize);
      const { items, total } = await listAttachments(deps.database.db, query.record_type, query.record_id, page);
      return reply.envelope(items.map(attachmentView), pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/attachments/:id/url',
    action: 'ReadAttachments',
    tags,
    summary: 'A fresh download link for the file, from the documents service',
    description: '404 attachment_not_found; 503 attachments_unavailable; 502 documents_unavailable.',
    params: IdParams,
    response: Envelope(DownloadUrl),
    errors: ['attachment_not_found', ...OUTSIDE],
    handler: async ({ params, reply }, deps) => {
      const documents = documentsOf(deps);
      const found = await findAttachment(deps.database.db, params.id);
      if (!found) throw attachmentNotFound();
      return reply.envelope(await documents.downloadLink(found.document_id));
    },
  }),
];
