import {
  type CommandOptions,
  commandScope,
  Envelope,
  PageEnvelope,
  type Principal,
  pageMeta,
  pageRequest,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { readableConversation } from '../commands/conversation-access.ts';
import {
  finalizeUpload,
  inlineContent,
  type SaveResult,
  saveConversationOutput,
  saveOutput,
  startUpload,
  type VerifiedUpload,
  verifyUpload,
} from '../commands/outputs.ts';
import { claimedSha256, OUTPUT_PAGE, outputNotFound } from '../domain/outputs.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { ConversationParams } from '../schemas/conversations.ts';
import {
  ConversationOutputInput,
  FinalizeInput,
  Output,
  OutputListQuery,
  OutputParams,
  OutputReadQuery,
  OutputWithBody,
  ProjectOutputInput,
  UploadInput,
  UploadTicket,
} from '../schemas/outputs.ts';
import { findOutput, findOutputVersion, listOutputs } from '../store/outputs.ts';
import { visibleProject } from '../store/projects.ts';
import './output-deps.ts';
import { asMember, type RouteDeps, type Routes, readableProject, route } from './deps.ts';

const tags = ['outputs'];

/**
 * Runs a save as one command whose status says what happened: 201 with the new version, or 200
 * with the active row when the slug already had this sha256 (nothing written).
 */
async function runSave(
  deps: RouteDeps,
  input: { req: FastifyRequest; reply: FastifyReply; principal: Principal },
  work: (ctx: CommandCtx) => Promise<SaveResult>,
  opts: CommandOptions = {},
) {
  const { req, reply, principal } = input;
  const now = deps.clock();
  const result = await runCommand(
    { db: deps.database.db, req, principal },
    async (trx) => {
      // The kit's scope of this service's source: emit takes the declared events (events.ts).
      const scope = commandScope(deps, trx, principal, now) as unknown as Omit<CommandCtx, 'asMember'>;
      const { output, created } = await work({ ...scope, asMember: asMember(req) });
      return { status: created ? 201 : 200, data: output };
    },
    opts,
  );
  return sendCommandResult(reply, result);
}

const STATUS_DEFAULT =
  'status defaults to active (the current version of each slug); status=superseded lists older versions and ' +
  'status=all both; slug narrows to one. Newest first; page mode, 50 by default, at most 200.';

const SAVE =
  'data.body is the artifact as UTF-8 text, at most 256 KiB (413 inline_body_too_large; larger files use ' +
  '.../outputs/upload and .../outputs/finalize). Before anything is written the body is scanned for credentials ' +
  '(private keys, AWS keys, bearer tokens, sk- keys, JWTs, GitHub and Slack tokens, Google API keys, storage ' +
  'account keys, passwords in URLs) and tool-call logs: a hit is 422 credential_in_output or tool_log_in_output, ' +
  'errors[0].value naming what and on which line, nothing written. The same slug with the same sha256 as its ' +
  'active row is a no-op: 200 with that row. Another sha256 marks it superseded and writes version N + 1: 201.';

const SAVE_ERRORS = [
  'project_not_found',
  'project_archived',
  'inline_body_too_large',
  'invalid_slug',
  'invalid_output_title',
  'invalid_content_type',
  'credential_in_output',
  'tool_log_in_output',
] as const;

export const outputRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/conversations/:id/outputs',
    action: 'use',
    tags,
    summary: "Save a versioned artifact on the conversation's project (unfiled: on data.project_id)",
    description:
      `${SAVE} The caller changes the conversation (unfiled: its starter; filed: an editor) and is an editor on ` +
      'the project. An unfiled conversation needs data.project_id (422 project_id_required); a filed one saves on ' +
      'its own project (another project_id is 422 project_mismatch).',
    params: ConversationParams,
    body: Command(ConversationOutputInput),
    response: Envelope(Output),
    status: 201,
    otherStatuses: [200],
    errors: [...SAVE_ERRORS, 'conversation_not_found', 'project_id_required', 'project_mismatch'],
    command: true,
    handler: async (input, deps) => {
      const content = inlineContent(input.body.data);
      return runSave(deps, input, (ctx) =>
        saveConversationOutput(ctx, input.params.id, input.body.data.project_id, content),
      );
    },
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/:id/outputs',
    action: 'use',
    tags,
    summary: 'Outputs saved from this conversation (readers of the conversation)',
    description: STATUS_DEFAULT,
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    query: OutputListQuery,
    response: PageEnvelope(Output),
    errors: ['conversation_not_found'],
    handler: async ({ params, query, principal, req, reply }, deps) => {
      const { conversation } = await readableConversation(deps.database.db, principal, asMember(req), params.id);
      const page = pageRequest(query, OUTPUT_PAGE.pageSize);
      const status = query.status === 'all' ? undefined : (query.status ?? 'active');
      const { items, total } = await listOutputs(
        deps.database.db,
        { conversationId: conversation.id, status, slug: query.slug },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/outputs',
    action: 'use',
    tags,
    summary: 'Save a versioned artifact on the project itself (editors)',
    description: SAVE,
    params: ProjectParams,
    body: Command(ProjectOutputInput),
    response: Envelope(Output),
    status: 201,
    otherStatuses: [200],
    errors: [...SAVE_ERRORS],
    command: true,
    handler: async (input, deps) => {
      const content = inlineContent(input.body.data);
      return runSave(deps, input, (ctx) => saveOutput(ctx, input.params.id, null, content));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/outputs',
    action: 'use',
    tags,
    summary: "The project's saved outputs (viewers), from its conversations and saved on it directly",
    description: STATUS_DEFAULT,
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: OutputListQuery,
    response: PageEnvelope(Output),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const page = pageRequest(input.query, OUTPUT_PAGE.pageSize);
      const status = input.query.status === 'all' ? undefined : (input.query.status ?? 'active');
      const { items, total } = await listOutputs(
        deps.database.db,
        { projectId: project.id, status, slug: input.query.slug },
        page,
      );
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/outputs/:id',
    action: 'use',
    tags,
    summary:
      'One saved output with its inline body (readers of its project); version selects another version of its slug',
    description:
      'An uploaded output has body null and names its document_id (read the bytes from the documents service). ' +
      'version=N answers version N of the same slug on the same project, superseded or active (404 ' +
      'output_not_found when there is none).',
    schema: { headers: AsMemberHeaders },
    params: OutputParams,
    query: OutputReadQuery,
    response: Envelope(OutputWithBody),
    errors: ['output_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const found = await findOutput(db, input.params.id);
      if (!found) throw outputNotFound();
      try {
        await visibleProject(db, input.principal, asMember(input.req), found.project_id);
      } catch {
        throw outputNotFound();
      }
      const v = input.query.version;
      const chosen =
        v === undefined || v === found.version ? found : await findOutputVersion(db, found.project_id, found.slug, v);
      if (!chosen) throw outputNotFound();
      return input.reply.envelope(chosen);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/outputs/upload',
    action: 'use',
    tags,
    summary: 'Start the two-step path for a larger file: a write URL for its bytes, then finalize',
    description:
      'Records the upload (slug, filename, title, content_type; unfiled conversations name data.project_id) and ' +
      'asks the documents service for a write-only URL for a new blob: PUT the bytes there with the headers given, ' +
      'then POST .../outputs/finalize with the upload id and the bytes’ sha256 within an hour. The caller needs ' +
      'what an inline save needs. 503 documents_not_configured when DOCUMENTS_URL is unset; 422 invalid_filename ' +
      'when the documents service refuses the filename.',
    params: ConversationParams,
    body: Command(UploadInput),
    response: Envelope(UploadTicket),
    status: 201,
    errors: [
      'conversation_not_found',
      'project_not_found',
      'project_archived',
      'project_id_required',
      'project_mismatch',
      'invalid_slug',
      'invalid_output_title',
      'invalid_content_type',
      'invalid_filename',
      'documents_not_configured',
      'documents_unavailable',
    ],
    run: (ctx, { params, body }, deps) => startUpload(ctx, deps.documents, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/outputs/finalize',
    action: 'use',
    tags,
    summary: 'Finish the two-step path: register the uploaded file, check its sha256 and scan it, save the output',
    description:
      'Before the transaction the blob is registered with the documents service, read back, hashed and scanned ' +
      '(as an inline body is). A sha256 other than data.sha256 is 422 sha256_mismatch and nothing is committed ' +
      '(the registered document stays in the documents service, referenced by no output). Then, as an inline ' +
      'save: 201 with version N + 1, or 200 when the slug’s active row has this sha256. The output is listed with ' +
      'the conversation’s files. 404 upload_not_found (not the caller’s upload on this conversation), 409 ' +
      'upload_finalized or upload_expired, 422 upload_not_received (no bytes at the URL yet), 413 upload_too_large ' +
      '(over 32 MiB), 503 documents_not_configured or documents_unavailable.',
    params: ConversationParams,
    body: Command(FinalizeInput),
    response: Envelope(Output),
    status: 201,
    otherStatuses: [200],
    errors: [
      'conversation_not_found',
      'project_not_found',
      'project_archived',
      'upload_not_found',
      'upload_finalized',
      'upload_expired',
      'upload_not_received',
      'upload_too_large',
      'invalid_sha256',
      'sha256_mismatch',
      'credential_in_output',
      'tool_log_in_output',
      'documents_not_configured',
      'documents_unavailable',
    ],
    command: true,
    handler: async (input, deps) => {
      const { params, body, principal, req } = input;
      claimedSha256(body.data.sha256);
      let verified: VerifiedUpload | undefined;
      return runSave(
        deps,
        input,
        (ctx) => finalizeUpload(ctx, params.id, body.data.upload_id, verified as VerifiedUpload),
        {
          beforeTransaction: async () => {
            verified = await verifyUpload(
              deps.database.db,
              deps.documents,
              principal,
              asMember(req),
              params.id,
              body.data,
              deps.clock(),
            );
          },
        },
      );
    },
  }),
];
