import { timingSafeEqual } from 'node:crypto';
import {
  CursorEnvelope,
  cursorMeta,
  decodeCursor,
  Envelope,
  PageEnvelope,
  pageMeta,
  pageRequest,
  unavailable,
  unprocessable,
} from '@platform/kit';
import { readableConversation } from '../commands/conversation-access.ts';
import { finishSession, heartbeat, startSession } from '../commands/sessions.ts';
import { addTurn, approveRedactionRequest, requestRedaction } from '../commands/turns.ts';
import { FILE_PAGE, REDACTION_PAGE, requireApprovalKey, TURN_PAGE } from '../domain/conversations.ts';
import { requireRole } from '../domain/roles.ts';
import { AsMemberHeaders, Command, OptionalDataCommand, ProjectParams } from '../schemas/common.ts';
import {
  ApprovalInput,
  ConversationFile,
  ConversationParams,
  FileListQuery,
  Redaction,
  RedactionInput,
  RedactionListQuery,
  Session,
  SessionInput,
  Turn,
  TurnInput,
  TurnListQuery,
  TurnParams,
} from '../schemas/conversations.ts';
import { listFiles } from '../store/conversations.ts';
import { listRedactions } from '../store/redactions.ts';
import { listTurns, turnView } from '../store/turns.ts';
import './conversation-deps.ts';
import { asMember, type Routes, readableProject, route } from './deps.ts';

const tags = ['conversations'];

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The seq a cursor of GET .../turns carries (422 invalid_cursor for anything else). */
function afterSeq(after: string | undefined): number {
  if (after === undefined) return 0;
  const key = decodeCursor(after);
  const seq = key?.[0];
  if (key?.length !== 1 || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
    throw unprocessable('invalid_cursor', 'The after cursor is not one this service issued', 'querystring/after');
  }
  return seq;
}

export const turnRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/conversations/:id/turns',
    action: 'use',
    tags,
    summary: 'Append a turn after the last one (turns are append-only)',
    description:
      'turn_kind: utterance (default), lookup, output or system; only utterances count in turn_count and ' +
      'utterance_count. author defaults to the caller. extra is a JSON object of at most 32 KiB (422 ' +
      'extra_too_large); on an output turn, extra.document_id (UUID) attaches that document (GET .../files). ' +
      'Unfiled: its starter; filed: editors of its project. An archived conversation is 409 conversation_archived, ' +
      'nothing written.',
    params: ConversationParams,
    body: Command(TurnInput),
    response: Envelope(Turn),
    status: 201,
    errors: ['conversation_not_found', 'conversation_archived', 'project_archived', 'extra_too_large'],
    run: (ctx, { body, params }) => addTurn(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/:id/turns',
    action: 'use',
    tags,
    summary: 'The turns in seq order, cursor paged: pass meta.pagination.nextCursor back as after (100, at most 500)',
    description: 'A redacted turn reads text null and redacted true. nextCursor is null on the last page.',
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    query: TurnListQuery,
    response: CursorEnvelope(Turn),
    errors: ['conversation_not_found', 'invalid_cursor'],
    handler: async ({ params, query, principal, req, reply }, deps) => {
      const after = afterSeq(query.after);
      const db = deps.database.db;
      const { conversation } = await readableConversation(db, principal, asMember(req), params.id);
      const limit = query.limit ?? TURN_PAGE.limit;
      const page = await listTurns(db, conversation.id, after, limit);
      return reply.envelope(page.items.map(turnView), cursorMeta(limit, page.nextSeq === null ? null : [page.nextSeq]));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/:id/files',
    action: 'use',
    tags,
    summary: 'Documents attached to the conversation, including those saved while it was unfiled; oldest first',
    description: 'Each reads the project the conversation is on (absent while unfiled). Page mode, 50, at most 200.',
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    query: FileListQuery,
    response: PageEnvelope(ConversationFile),
    errors: ['conversation_not_found'],
    handler: async ({ params, query, principal, req, reply }, deps) => {
      const db = deps.database.db;
      const { conversation } = await readableConversation(db, principal, asMember(req), params.id);
      const page = pageRequest(query, FILE_PAGE.pageSize);
      const { items, total } = await listFiles(db, conversation.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/sessions',
    action: 'use',
    tags,
    summary: 'Start an agent session on the conversation (who may append turns; not on an archived conversation)',
    params: ConversationParams,
    body: OptionalDataCommand(SessionInput),
    emptyBody: true,
    response: Envelope(Session),
    status: 201,
    errors: ['conversation_not_found', 'conversation_archived', 'project_archived'],
    run: (ctx, { body, params }) => startSession(ctx, params.id, body.data?.agent),
  }),

  route({
    method: 'POST',
    url: '/v1/sessions/:id/heartbeat',
    action: 'use',
    tags,
    summary: 'Record a heartbeat of an agent session: it stays active (an ended one is 409 session_ended)',
    params: ConversationParams,
    body: OptionalDataCommand(SessionInput),
    emptyBody: true,
    response: Envelope(Session),
    errors: ['session_not_found', 'session_ended', 'project_archived'],
    run: (ctx, { params }) => heartbeat(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/sessions/:id/end',
    action: 'use',
    tags,
    summary: 'End an agent session (ending an ended one changes nothing)',
    params: ConversationParams,
    body: OptionalDataCommand(SessionInput),
    emptyBody: true,
    response: Envelope(Session),
    errors: ['session_not_found', 'project_archived'],
    run: (ctx, { params }) => finishSession(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/turns/:seq/redaction',
    action: 'use',
    tags,
    summary: "Request destruction of a turn's text (anyone who may read the conversation)",
    description:
      'A second request while one is pending answers the pending one. A turn already redacted is 409 ' +
      'turn_redacted. Requests are reviewed at GET /v1/projects/{id}/redactions and approved at POST ' +
      '/v1/redactions/{id}/approve.',
    params: TurnParams,
    body: OptionalDataCommand(RedactionInput),
    emptyBody: true,
    response: Envelope(Redaction),
    status: 201,
    errors: ['conversation_not_found', 'turn_not_found', 'turn_redacted'],
    run: (ctx, { body, params }) => requestRedaction(ctx, params.id, params.seq, body.data?.reason ?? ''),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/redactions',
    action: 'use',
    tags,
    summary: "Redaction requests on the project's conversations, newest first (owners; platform admins)",
    description: 'status filters pending or approved. Page mode, 25 by default, at most 100.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: RedactionListQuery,
    response: PageEnvelope(Redaction),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project, access } = await readableProject(deps, input, input.params.id);
      requireRole(access, 'owner', 'read');
      const page = pageRequest(input.query, REDACTION_PAGE.pageSize);
      const { items, total } = await listRedactions(deps.database.db, project.id, input.query.status, page);
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/redactions/:id/approve',
    action: 'use',
    tags,
    summary: "Approve a redaction request: the turn's text is destroyed",
    description:
      'data.approval_key must be the redaction approval key (REDACTION_APPROVAL_KEY; 403 invalid_approval_key ' +
      'otherwise); with the setting unset every approval is 503 redaction_approval_unconfigured and nothing is ' +
      "destroyed. Approvers: owners of the conversation's project (not through the service token), or the " +
      'starter of an unfiled conversation. Already approved is 409 redaction_decided.',
    params: ConversationParams,
    body: Command(ApprovalInput),
    response: Envelope(Redaction),
    errors: ['redaction_not_found', 'invalid_approval_key', 'redaction_decided', 'redaction_approval_unconfigured'],
    check: ({ body }, deps) => {
      if (!deps.redactionApprovalKey) {
        throw unavailable(
          'redaction_approval_unconfigured',
          'Redaction approval is not configured (REDACTION_APPROVAL_KEY); nothing was destroyed',
        );
      }
      requireApprovalKey(deps.redactionApprovalKey, body.data.approval_key, sameKey);
    },
    run: (ctx, { params }) => approveRedactionRequest(ctx, params.id),
  }),
];
