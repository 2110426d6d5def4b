import {
  Command,
  Envelope,
  handleCommand,
  IdParams,
  notFound,
  PageEnvelope,
  pageMeta,
  pageRequest,
  unavailable,
} from '@platform/kit';
import {
  changeDocument,
  endRegistrationInFlight,
  inspectBlob,
  markRegistrationInFlight,
  registerDocument,
} from '../commands/documents.ts';
import { checkRegistration, checkUpdate } from '../domain/documents.ts';
import { Document, DocumentWithSas, ListQuery, PAGE, RegistrationInput, UpdateInput } from '../schemas/documents.ts';
import { findDocument, listDocuments } from '../store/documents.ts';
import { LOCATION_REFUSALS, type Routes, requireStorage, route } from './deps.ts';

const tags = ['documents'];

/** What a registration refuses with, besides the schema (checkRegistration, inspectBlob, storage). */
const REGISTRATION_REFUSALS = [
  ...LOCATION_REFUSALS,
  'blob_not_found',
  'duplicate_reference',
  'duplicate_metadata',
  'upload_too_large',
  'storage_unavailable',
] as const;

export const documentRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/documents',
    action: 'register',
    tags,
    summary: 'Register an uploaded file: the blob is checked in storage (existence, size) first',
    description:
      '422: unsafe_filename, filename_extension_required, unknown_storage_account, visibility_mismatch, ' +
      'unknown_container, blob_not_service_minted, blob_not_found (not in that container), duplicate_reference ' +
      '(same ref_type, ref_id and ref_category), duplicate_metadata (same meta_name), validation_failed. ' +
      '413 upload_too_large (over DOCUMENTS_MAX_UPLOAD_BYTES; the blob stays until the orphan reaper removes it). ' +
      '409 blob_already_registered (a document already records this blob_name, in any container), ' +
      'idempotency_key_reused. 503 ' +
      'storage_not_configured, storage_unavailable. byte_size is read from storage, never accepted.',
    body: Command(RegistrationInput),
    response: Envelope(Document),
    status: 201,
    errors: REGISTRATION_REFUSALS,
    // A command (Idempotency-Key) that answers itself: storage is asked before the transaction.
    command: true,
    handler: async ({ body, req, reply }, deps) => {
      const storage = requireStorage(deps);
      const input = body.data;
      const { account, container } = checkRegistration(input, (n) => storage.account(n));
      let byteSize = 0;
      let inFlight: string | undefined;
      try {
        return await handleCommand(
          deps,
          req,
          reply,
          (ctx) => registerDocument(ctx, { ...input, container }, byteSize),
          201,
          {
            // Storage is asked before the transaction opens, and not at all for a replay. The blob is
            // marked in flight first, so the orphan reaper leaves it alone until this request ends.
            beforeTransaction: async () => {
              inFlight = await markRegistrationInFlight(deps.database.db, input.blob_name, deps.clock());
              const where = { account: account.name, container, blobName: input.blob_name };
              byteSize = await inspectBlob(deps.database.db, storage, where, deps.maxUploadBytes);
            },
          },
        );
      } finally {
        if (inFlight) await endRegistrationInFlight(deps.database.db, inFlight);
      }
    },
  }),

  route({
    method: 'POST',
    url: '/v1/documents/:id',
    action: 'update',
    tags,
    summary: 'Update a document: filename, and references and metadata as full replacement sets',
    description:
      'Omitted references or metadata stay as they are; an empty array clears them. The storage location ' +
      '(storage_account, visibility, container, blob_name) is not accepted. The Idempotency-Key is scoped ' +
      'to the document: the same key on another document is a fresh command. 404 document_not_found; 422 ' +
      'unsafe_filename, filename_extension_required, duplicate_reference, duplicate_metadata, validation_failed ' +
      '(including any storage field); 409 idempotency_key_reused.',
    params: IdParams,
    body: Command(UpdateInput),
    response: Envelope(Document),
    errors: [
      'document_not_found',
      'unsafe_filename',
      'filename_extension_required',
      'duplicate_reference',
      'duplicate_metadata',
    ],
    check: ({ body }) => checkUpdate(body.data),
    // The Idempotency-Key is scoped to the document: the same key on another document is a fresh command.
    options: ({ params }) => ({ keyScope: params.id }),
    run: (ctx, { params, body }) => changeDocument(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/documents/:id',
    action: 'read',
    tags,
    summary: 'One document with a read URL (SAS) signed at this read, valid for the account TTL',
    description:
      'The read URL may read that one blob (sp=r, sr=b) until sas_expires_at; it is never stored. 404 ' +
      'document_not_found; 503 storage_not_configured or storage_unavailable (the account is not configured ' +
      'or does not answer).',
    params: IdParams,
    response: Envelope(DocumentWithSas),
    errors: ['document_not_found', 'storage_not_configured', 'storage_unavailable'],
    handler: async ({ params, reply }, deps) => {
      const document = await findDocument(deps.database.db, params.id);
      if (!document) throw notFound('Document', 'document_not_found');
      const storage = requireStorage(deps);
      if (!storage.account(document.storage_account)) {
        throw unavailable(
          'storage_unavailable',
          `Storage account ${document.storage_account} of this document is not configured`,
        );
      }
      // Only to learn that the account answers (503 otherwise); the bytes are never read.
      await storage.properties(document.storage_account, document.container, document.blob_name);
      const signed = storage.readSas(document.storage_account, document.container, document.blob_name, {
        now: deps.clock(),
      });
      return reply.envelope({ ...document, sas_url: signed.url, sas_expires_at: signed.expiresAt.toISOString() });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/documents',
    action: 'read',
    tags,
    summary: 'List documents, newest first (page mode); all set filters must match one reference',
    query: ListQuery,
    response: PageEnvelope(Document),
    handler: async ({ query: q, reply }, deps) => {
      const p = pageRequest(q, PAGE.pageSize);
      const result = await listDocuments(
        deps.database.db,
        {
          ref_type: q.ref_type,
          ref_id: q.ref_id,
          ref_category: q.ref_category,
          is_external: q.is_external === undefined ? undefined : q.is_external === 'true',
        },
        p,
      );
      return reply.envelope(result.items, pageMeta(p, result.total));
    },
  }),
];
