import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { actOnUnblockRequest, createUnblockRequest } from '../commands/unblock-requests.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { UNBLOCK_PAGE, unblockRequestNotFound } from '../domain/unblock-requests.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import {
  MyUnblockListQuery,
  UnblockActionInput,
  UnblockInput,
  UnblockListQuery,
  UnblockParams,
  UnblockRequest,
} from '../schemas/unblock-requests.ts';
import { findUnblockRequest, listUnblockRequests, unblockViews } from '../store/unblock-requests.ts';
import { asMember, type Routes, readableProject, route } from './deps.ts';

const tags = ['unblock requests'];

export const unblockRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/unblock-requests',
    action: 'use',
    tags,
    summary: "The project's unblock requests (viewers), newest first; filter status; page mode (50, at most 200)",
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: UnblockListQuery,
    response: PageEnvelope(UnblockRequest),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const req = pageRequest(input.query, UNBLOCK_PAGE.pageSize);
      const scope = { kind: 'project' as const, projectId: project.id };
      const { items, total } = await listUnblockRequests(deps.database.db, scope, input.query, req);
      return input.reply.envelope(items, pageMeta(req, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/unblock-requests/:requestId',
    action: 'use',
    tags,
    summary: 'One unblock request with every answer given, sent-back ones included (viewers)',
    schema: { headers: AsMemberHeaders },
    params: UnblockParams,
    response: Envelope(UnblockRequest),
    errors: ['project_not_found', 'unblock_request_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const r = await findUnblockRequest(db, project.id, input.params.requestId);
      if (!r) throw unblockRequestNotFound();
      const [view] = await unblockViews(db, [r]);
      return input.reply.envelope(view as UnblockRequest);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/unblock-requests',
    action: 'use',
    tags,
    summary: 'Ask one member one question (editors); source agent is refused',
    description:
      'The recipient is another member of any role (422 recipient_not_member, recipient_is_asker). waiting_record ' +
      'is a task, goal or handoff of the project (422 waiting_record_not_found). A choice has 2 to 10 options; ' +
      'the other kinds none (422 invalid_options). source agent is 422 agent_source_refused and nothing is ' +
      'written. ranking_reason defaults to the due date, else the day asked. The recipient is notified.',
    params: ProjectParams,
    body: Command(UnblockInput),
    response: Envelope(UnblockRequest),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'agent_source_refused',
      'invalid_unblock_text',
      'invalid_options',
      'recipient_not_member',
      'recipient_is_asker',
      'waiting_record_not_found',
      'invalid_snooze',
    ],
    run: (ctx, { params, body }) => createUnblockRequest(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/unblock-requests/:requestId',
    action: 'use',
    tags,
    summary: 'Move a request: answer, confirm, send_back, withdraw, or snooze',
    description:
      'answer: the recipient, on an open request (a choice answers one of its options; a document a link or ' +
      'document id; 422 invalid_answer). confirm: the asker, answered to resolved. send_back: the asker, answered ' +
      'to open; the answer is kept with sent_back_at. withdraw: the asker, open or answered. snooze: the asker or ' +
      'the recipient hide the card from GET /v1/me/unblock-requests until a later time (null wakes it); the due ' +
      'date is unchanged and no event is published. A state change wakes a snoozed card. Wrong person: 403 ' +
      'not_recipient or not_asker; wrong state: 409 invalid_unblock_transition.',
    params: UnblockParams,
    body: Command(UnblockActionInput),
    response: Envelope(UnblockRequest),
    errors: [
      'project_not_found',
      'project_archived',
      'unblock_request_not_found',
      'not_recipient',
      'not_asker',
      'invalid_unblock_transition',
      'invalid_answer',
      'invalid_snooze',
    ],
    run: (ctx, { params, body }) => actOnUnblockRequest(ctx, params.id, params.requestId, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/unblock-requests',
    action: 'use',
    tags,
    summary: 'Every unblock request on projects the caller can read (platform admins: all), newest first',
    description: 'X-Platform-As-Member: true limits a platform admin to their memberships.',
    schema: { headers: AsMemberHeaders },
    query: UnblockListQuery,
    response: PageEnvelope(UnblockRequest),
    handler: async (input, deps) => {
      const req = pageRequest(input.query, UNBLOCK_PAGE.pageSize);
      const all = actsAsAdmin(input.principal, asMember(input.req));
      const scope = { kind: 'readable' as const, principalId: input.principal.id, all };
      const { items, total } = await listUnblockRequests(deps.database.db, scope, input.query, req);
      return input.reply.envelope(items, pageMeta(req, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/me/unblock-requests',
    action: 'use',
    tags,
    summary: "The caller's queue: open requests to answer and answered ones to confirm, by rank",
    description:
      'On projects the caller still belongs to. Ranked by due date (soonest first, none last), then oldest first. ' +
      'Snoozed cards are left out until their time unless include_snoozed=true.',
    query: MyUnblockListQuery,
    response: PageEnvelope(UnblockRequest),
    handler: async (input, deps) => {
      const req = pageRequest(input.query, UNBLOCK_PAGE.pageSize);
      const scope = {
        kind: 'queue' as const,
        principalId: input.principal.id,
        includeSnoozed: input.query.include_snoozed === true,
        now: deps.clock(),
      };
      const { items, total } = await listUnblockRequests(deps.database.db, scope, {}, req);
      return input.reply.envelope(items, pageMeta(req, total));
    },
  }),
];
