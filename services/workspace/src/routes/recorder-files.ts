import {
  commandScope,
  Envelope,
  PageEnvelope,
  type Principal,
  pageMeta,
  pageRequest,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UploadUrl as SignedUrl } from '../clients/documents.ts';
import type { Recorder } from '../clients/recorder.ts';
import type { CommandCtx } from '../commands/context.ts';
import {
  type Caller,
  mintRecorderToken,
  recordFile,
  registerDevice,
  registerDocument,
  renewUpload,
  signNewUpload,
  signRenewal,
  startFileUpload,
} from '../commands/recorder-files.ts';
import { ADOPTION_PAGE, adoptionWindow } from '../domain/recorder-files.ts';
import { Command, OptionalDataCommand } from '../schemas/common.ts';
import {
  Adoption,
  AdoptionQuery,
  Device,
  DeviceInput,
  FileUpload,
  RecorderToken,
  UploadRef,
  UploadUrl,
  UploadUrlInput,
} from '../schemas/recorder-files.ts';
import { adoption } from '../store/recorder-files.ts';
import './output-deps.ts';
import { asMember, type RouteDeps, type Routes, route } from './deps.ts';

declare module './deps.ts' {
  interface RouteDeps {
    /** The recorder partner (RECORDER_URL and RECORDER_PARTNER_SECRET); unset: recorder routes answer 503. */
    recorder?: Recorder;
  }
}

/**
 * Runs a command whose answer says whether it wrote: `created` 201, else 200; `once` fields are
 * added to the first answer only (the stored response, which a replay answers, never holds them).
 */
async function runShown<T extends object>(
  deps: RouteDeps,
  input: { req: FastifyRequest; reply: FastifyReply; principal: Principal },
  work: (ctx: CommandCtx) => Promise<{ data: T; created: boolean; once?: object }>,
  before?: (caller: Caller) => Promise<void>,
) {
  const { req, reply, principal } = input;
  let once: object | undefined;
  const caller = { db: deps.database.db, principal, asMember: asMember(req), now: deps.clock() };
  const result = await runCommand(
    { db: deps.database.db, req, principal },
    async (trx) => {
      const scope = commandScope(deps, trx, principal, caller.now) as unknown as Omit<CommandCtx, 'asMember'>;
      const done = await work({ ...scope, asMember: caller.asMember });
      once = done.once;
      return { status: done.created ? 201 : 200, data: done.data };
    },
    before ? { beforeTransaction: () => before(caller) } : {},
  );
  return sendCommandResult(reply, result.replayed || !once ? result : { ...result, data: { ...result.data, ...once } });
}

const recorderTags = ['recorder'];
const fileTags = ['files'];
const UNSET_RECORDER = '503 recorder_not_configured when RECORDER_URL or RECORDER_PARTNER_SECRET is unset';
const UNSET_DOCUMENTS = '503 documents_not_configured when DOCUMENTS_URL is unset; nothing is written';

export const recorderFileRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/recorder/user-token',
    action: 'use',
    tags: recorderTags,
    summary: 'Mint an hour-long recorder-service token for the signed-in person',
    description:
      'Asks the recorder partner, with the partner credential (which stays in the service and is never in an ' +
      'answer), for a user token for the caller, valid one hour (expires_at). The token is in this response only: ' +
      'a replay of the same Idempotency-Key answers without it. A successful mint counts as a recorder sign-in on ' +
      'its UTC day, once per person per day (first_sign_in_today false on a later mint that day). ' +
      `${UNSET_RECORDER}; 502 recorder_unavailable when the partner fails (no sign-in recorded).`,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    response: Envelope(RecorderToken),
    status: 201,
    otherStatuses: [200],
    errors: ['recorder_not_configured', 'recorder_unavailable'],
    command: true,
    handler: async (input, deps) =>
      runShown(deps, input, async (ctx) => {
        const { data, once } = await mintRecorderToken(ctx, deps.recorder);
        return { data, once, created: true };
      }),
  }),

  route({
    method: 'POST',
    url: '/v1/recorder/devices',
    action: 'use',
    tags: recorderTags,
    summary: 'Register a recorder serial to the signed-in person',
    description:
      "Binds the serial to the caller at the recorder partner and records it as theirs: 201. Already the caller's: " +
      "200 with the registration. Another person's: 409 device_taken. 422 invalid_serial (1 to 64 letters, digits, " +
      `- or _). ${UNSET_RECORDER}; 502 recorder_unavailable when the partner fails.`,
    body: Command(DeviceInput),
    response: Envelope(Device),
    status: 201,
    otherStatuses: [200],
    errors: ['recorder_not_configured', 'recorder_unavailable', 'device_taken', 'invalid_serial'],
    command: true,
    handler: async (input, deps) =>
      runShown(deps, input, async (ctx) => {
        const { device, created } = await registerDevice(ctx, deps.recorder, input.body.data.serial);
        return { data: device, created };
      }),
  }),

  route({
    method: 'GET',
    url: '/v1/recorder/adoption',
    action: 'use',
    tags: recorderTags,
    summary: 'Recorder adoption per person: sign-in days and uploaded recordings over a window',
    description:
      'Any signed-in caller. Counts only, never a recording, title or transcript. The window is half-open: since ' +
      'included, until excluded (dates or ISO 8601 instants); until defaults to now and since to thirty days ' +
      'before until. A sign-in day counts when its first mint falls in the window; an uploaded recording is a ' +
      'record of source recorder or phone the person opened in it. People with neither are not listed; ordered by ' +
      'person id; page mode, 50 by default, at most 200. 422 invalid_adoption_window (since not before until, ' +
      'more than 366 days, or not a date).',
    query: AdoptionQuery,
    response: PageEnvelope(Adoption),
    errors: ['invalid_adoption_window'],
    handler: async ({ query, reply }, deps) => {
      const window = adoptionWindow(query, deps.clock());
      const page = pageRequest(query, ADOPTION_PAGE.pageSize);
      const { items, total } = await adoption(deps.database.db, window, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/files/upload-url',
    action: 'use',
    tags: fileTags,
    summary: 'A write URL for a new file; purpose=live_recording makes it valid six hours',
    description:
      'Asks the documents service for a write-only URL for a new blob and records the upload (who asked, blob ' +
      'name, purpose, expiry). purpose live_recording: valid six hours; file (default) and recording: the ' +
      "documents service's default. PUT the bytes (or Put Block / Put Block List for a long recording) with the " +
      'headers given, renew the URL at renew_at (half an hour before expires_at) with .../renew, then POST ' +
      '/v1/files. With project_id the file is the project’s: editors only (403 for viewers, 404 when the project ' +
      `is not visible). ${UNSET_DOCUMENTS}; 422 invalid_filename when the documents service refuses the name.`,
    body: Command(UploadUrlInput),
    response: Envelope(UploadUrl),
    status: 201,
    errors: [
      'documents_not_configured',
      'documents_unavailable',
      'invalid_filename',
      'project_not_found',
      'project_archived',
    ],
    command: true,
    handler: async (input, deps) => {
      let signed: SignedUrl | undefined;
      return runShown(
        deps,
        input,
        async (ctx) => ({ data: await startFileUpload(ctx, input.body.data, signed as SignedUrl), created: true }),
        async (caller) => {
          signed = await signNewUpload(caller, deps.documents, input.body.data);
        },
      );
    },
  }),

  route({
    method: 'POST',
    url: '/v1/files/upload-url/renew',
    action: 'use',
    tags: fileTags,
    summary: 'A new write URL for the same blob name, with a later expiry',
    description:
      'Signs the upload’s blob again (same blob_name; expires_at moves later, the same lifetime as its purpose ' +
      'gives). Blocks already written stay and can still be committed. Only the principal who asked for the upload ' +
      '(403 not_uploader); 409 upload_registered once a document is recorded against it; 409 ' +
      'upload_blocks_expired seven days after the upload began (storage has dropped its uncommitted blocks). ' +
      `404 file_upload_not_found. ${UNSET_DOCUMENTS}.`,
    body: Command(UploadRef),
    response: Envelope(UploadUrl),
    errors: [
      'documents_not_configured',
      'documents_unavailable',
      'file_upload_not_found',
      'not_uploader',
      'upload_registered',
      'upload_blocks_expired',
      'project_not_found',
      'project_archived',
    ],
    command: true,
    handler: async (input, deps) => {
      let signed: SignedUrl | undefined;
      return runShown(
        deps,
        input,
        async (ctx) => ({
          data: await renewUpload(ctx, input.body.data.upload_id, signed as SignedUrl),
          created: false,
        }),
        async (caller) => {
          signed = await signRenewal(caller, deps.documents, input.body.data.upload_id);
        },
      );
    },
  }),

  route({
    method: 'POST',
    url: '/v1/files',
    action: 'use',
    tags: fileTags,
    summary: 'Register an uploaded file with the documents service',
    description:
      'Registers the upload’s blob as a document (one per upload, however often retried) and records its ' +
      'document_id on the upload: 201. Already registered: 200 with the upload. Only its uploader (403 ' +
      'not_uploader); a project’s file needs an editor then too (403 for viewers; nothing written). 422 ' +
      'upload_not_received when no bytes reached the URL. Open the meeting with the document_id afterwards. ' +
      `Publishes file.registered. 404 file_upload_not_found. ${UNSET_DOCUMENTS}.`,
    body: Command(UploadRef),
    response: Envelope(FileUpload),
    status: 201,
    otherStatuses: [200],
    errors: [
      'documents_not_configured',
      'documents_unavailable',
      'file_upload_not_found',
      'not_uploader',
      'upload_not_received',
      'upload_too_large',
      'project_not_found',
      'project_archived',
    ],
    command: true,
    handler: async (input, deps) => {
      let documentId: string | undefined;
      return runShown(
        deps,
        input,
        async (ctx) => {
          const { file, created } = await recordFile(ctx, input.body.data.upload_id, documentId);
          return { data: file, created };
        },
        async (caller) => {
          documentId = await registerDocument(caller, deps.documents, input.body.data.upload_id);
        },
      );
    },
  }),
];
