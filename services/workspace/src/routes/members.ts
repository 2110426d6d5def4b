import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { addMember, changeMember, decideJoin, requestToJoin } from '../commands/members.ts';
import { requireRole } from '../domain/roles.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import {
  DecisionInput,
  JoinRequest,
  JoinRequestInput,
  JoinRequestStatus,
  Member,
  MemberChangeInput,
  MemberChangeResult,
  MemberInput,
  MemberParams,
} from '../schemas/members.ts';
import { listJoinRequests, listMembers } from '../store/members.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['members'];

export const memberRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/members',
    action: 'use',
    tags,
    summary: 'List the members in the order they joined (any member; platform admins)',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: Type.Object({ ...pageQuery({ pageSize: 100, maxPageSize: 500 }) }, { additionalProperties: false }),
    response: PageEnvelope(Member),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, query, reply } = input;
      await readableProject(deps, input, params.id);
      const page = pageRequest(query, 100);
      const { items, total } = await listMembers(deps.database.db, params.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/members',
    action: 'use',
    tags,
    summary:
      'Add (invite) a member with a role (owners). Someone already a member is 409 already_member; change roles with POST .../members/{principal_id}',
    params: ProjectParams,
    body: Command(MemberInput),
    response: Envelope(Member),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'already_member'],
    run: (ctx, { params, body }) => addMember(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/members/:principal_id',
    action: 'use',
    tags,
    summary:
      "Change a member's role ({role}) or remove them ({remove: true}); owners, or any member removing themselves. The only owner cannot be demoted or removed (422 last_owner)",
    params: MemberParams,
    body: Command(MemberChangeInput),
    response: Envelope(MemberChangeResult),
    errors: ['project_not_found', 'project_archived', 'member_not_found', 'role_or_remove', 'last_owner'],
    run: (ctx, { params, body }) => changeMember(ctx, params.id, params.principal_id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/join-requests',
    action: 'use',
    tags,
    summary:
      'Ask to join a project named by its id from the gallery (any signed-in person who is not a member; a member is 409 already_member). A pending request is answered as it is',
    params: ProjectParams,
    body: Command(JoinRequestInput),
    response: Envelope(JoinRequest),
    status: 201,
    errors: ['project_not_found', 'already_member'],
    run: (ctx, { params, body }) => requestToJoin(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/join-requests',
    action: 'use',
    tags,
    summary: 'Join requests (owners; platform admins): pending first, oldest first; then decided, latest first',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: Type.Object(
      { ...pageQuery({ pageSize: 50, maxPageSize: 200 }), status: Type.Optional(JoinRequestStatus) },
      { additionalProperties: false },
    ),
    response: PageEnvelope(JoinRequest),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, query, reply } = input;
      const { access } = await readableProject(deps, input, params.id);
      requireRole(access, 'owner', 'read');
      const page = pageRequest(query, 50);
      const { items, total } = await listJoinRequests(deps.database.db, params.id, { status: query.status }, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/join-requests/:principal_id/decision',
    action: 'use',
    tags,
    summary:
      'Approve (with a role, viewer by default) or decline a pending join request (owners); approval makes the requester a member',
    params: MemberParams,
    body: Command(DecisionInput),
    response: Envelope(JoinRequest),
    errors: ['project_not_found', 'project_archived', 'join_request_not_found', 'join_request_decided'],
    run: (ctx, { params, body }) => decideJoin(ctx, params.id, params.principal_id, body.data),
  }),
];
