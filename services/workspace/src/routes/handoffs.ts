import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { actOnHandoff, createHandoff, editHandoff } from '../commands/handoffs.ts';
import { nyDate } from '../domain/checkin-schedule.ts';
import { HANDOFF_PAGE, handoffNotFound } from '../domain/handoffs.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import {
  Handoff,
  HandoffActionInput,
  HandoffDetail,
  HandoffInput,
  HandoffListQuery,
  HandoffParams,
  HandoffPatch,
  MyHandoffListQuery,
} from '../schemas/handoffs.ts';
import type { Db } from '../store/db.ts';
import { findHandoff, type HandoffFilter, type HandoffScope, handoffDetail, listHandoffs } from '../store/handoffs.ts';
import { asMember, type Routes, readableProject, route } from './deps.ts';

const tags = ['handoffs'];

const READ =
  'overdue is computed at each read: true while offered or changes_requested and due_on is before today in ' +
  'New York; it is never a status. Lists are newest first, page mode (50 by default, at most 200).';

const page = (db: Db, scope: HandoffScope, filter: HandoffFilter, query: HandoffListQuery, now: Date) => {
  const req = pageRequest(query, HANDOFF_PAGE.pageSize);
  return listHandoffs(db, scope, filter, req, nyDate(now), now).then((r) => ({ ...r, meta: pageMeta(req, r.total) }));
};

export const handoffRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/handoffs',
    action: 'use',
    tags,
    summary: "The project's handoffs (viewers), newest first; filters status and overdue",
    description: READ,
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: HandoffListQuery,
    response: PageEnvelope(Handoff),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const { status, overdue } = input.query;
      const now = deps.clock();
      const r = await page(
        deps.database.db,
        { kind: 'project', projectId: project.id },
        { status, overdue },
        input.query,
        now,
      );
      return input.reply.envelope(r.items, r.meta);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/handoffs/:handoffId',
    action: 'use',
    tags,
    summary: 'One handoff with its receipts, one per accepted revision (viewers)',
    description: `${READ} A receipt keeps the package as it was accepted, whatever later revisions change.`,
    schema: { headers: AsMemberHeaders },
    params: HandoffParams,
    response: Envelope(HandoffDetail),
    errors: ['project_not_found', 'handoff_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const h = await findHandoff(db, project.id, input.params.handoffId);
      if (!h) throw handoffNotFound();
      return input.reply.envelope(await handoffDetail(db, h, deps.clock()));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/handoffs',
    action: 'use',
    tags,
    summary: 'Draft a handoff to another member (editors; the caller is the sender); offer: true offers it at once',
    description:
      'Texts are trimmed (422 invalid_handoff_text naming the field). The receiver must be another member of any ' +
      'role (422 receiver_not_member, receiver_is_sender); case_id a case of the project (422 ' +
      'linked_case_not_found). An offer notifies the receiver.',
    params: ProjectParams,
    body: Command(HandoffInput),
    response: Envelope(HandoffDetail),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'invalid_handoff_text',
      'receiver_not_member',
      'receiver_is_sender',
      'linked_case_not_found',
    ],
    run: (ctx, { params, body }) => createHandoff(ctx, params.id, body.data),
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id/handoffs/:handoffId',
    action: 'use',
    tags,
    summary: 'The sender changes the package: a draft in place; once offered, a draft of a new revision',
    description:
      'Only the fields sent change; a field sent with its current value is no change (no revision, no event). ' +
      'Editing an offered, changes_requested or accepted handoff makes it a draft of revision + 1: earlier ' +
      'receipts stay, and the receiver must accept the new revision after it is offered again. Anyone but the ' +
      'sender is 403 not_sender; a cancelled handoff is 409 invalid_handoff_transition.',
    params: HandoffParams,
    body: Command(HandoffPatch),
    response: Envelope(HandoffDetail),
    errors: [
      'project_not_found',
      'project_archived',
      'handoff_not_found',
      'not_sender',
      'invalid_handoff_transition',
      'invalid_handoff_text',
      'receiver_not_member',
      'receiver_is_sender',
      'linked_case_not_found',
    ],
    run: (ctx, { params, body }) => editHandoff(ctx, params.id, params.handoffId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/handoffs/:handoffId',
    action: 'use',
    tags,
    summary: 'Move a handoff: offer, accept (with revision), request_changes (with revision and missing), cancel',
    description:
      'offer: the sender, from draft or changes_requested; notifies the receiver. accept: only the named receiver, ' +
      'on an offered handoff, naming the current revision (another is 409 stale_revision with the handoff in ' +
      'errors[0].value); stores a receipt for that revision, never changes a linked case, notifies the sender. ' +
      'request_changes: only the named receiver, same revision rule; moves to changes_requested and, in the same ' +
      'transaction, opens an unblock request for the sender (source handoff) and notifies them. cancel: the sender ' +
      'or a project owner, before acceptance (409 invalid_handoff_transition once accepted).',
    params: HandoffParams,
    body: Command(HandoffActionInput),
    response: Envelope(HandoffDetail),
    errors: [
      'project_not_found',
      'project_archived',
      'handoff_not_found',
      'not_sender',
      'not_receiver',
      'stale_revision',
      'invalid_handoff_transition',
      'invalid_handoff_text',
    ],
    run: (ctx, { params, body }) => actOnHandoff(ctx, params.id, params.handoffId, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/handoffs',
    action: 'use',
    tags,
    summary: 'Every handoff on projects the caller can read (platform admins: all, without a membership)',
    description: `${READ} X-Platform-As-Member: true limits a platform admin to their memberships.`,
    schema: { headers: AsMemberHeaders },
    query: HandoffListQuery,
    response: PageEnvelope(Handoff),
    handler: async (input, deps) => {
      const { status, overdue } = input.query;
      const all = actsAsAdmin(input.principal, asMember(input.req));
      const scope: HandoffScope = { kind: 'readable', principalId: input.principal.id, all };
      const r = await page(deps.database.db, scope, { status, overdue }, input.query, deps.clock());
      return input.reply.envelope(r.items, r.meta);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/me/handoffs',
    action: 'use',
    tags,
    summary: 'Packages offered to the caller on projects they still belong to (default status offered)',
    description: `${READ} status picks offered (default), changes_requested, accepted or cancelled; drafts are never listed here.`,
    query: MyHandoffListQuery,
    response: PageEnvelope(Handoff),
    handler: async (input, deps) => {
      const { status, overdue } = input.query;
      const scope: HandoffScope = { kind: 'mine', principalId: input.principal.id };
      const r = await page(
        deps.database.db,
        scope,
        { status: status ?? 'offered', overdue },
        input.query,
        deps.clock(),
      );
      return input.reply.envelope(r.items, r.meta);
    },
  }),
];
