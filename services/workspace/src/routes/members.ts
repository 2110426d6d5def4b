import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { addMember, changeMember, decideJoin, requestToJoin } from '../commands/members.ts';
import { requireRole } from '../domain/roles.ts';
import { AsMemberHeaders, Command, CommandHeaders, ProjectParams } from '../schemas/common.ts';
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
import { command, commander, type RouteModule, readableProject, reader } from './deps.ts';

const tags = ['members'];

export const memberRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/projects/:id/members',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: 'List the members in the order they joined (any member; platform admins)',
        headers: AsMemberHeaders,
        params: ProjectParams,
        querystring: Type.Object(
          { ...pageQuery({ pageSize: 100, maxPageSize: 500 }) },
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(Member) },
      },
    },
    async (req, reply) => {
      await readableProject(deps, req, req.params.id);
      const page = pageRequest(req.query, 100);
      const { items, total } = await listMembers(deps.database.db, req.params.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/projects/:id/members',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Add (invite) a member with a role (owners). Someone already a member is 409 already_member; change roles with POST .../members/{principal_id}',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(MemberInput),
        response: { 201: Envelope(Member) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => addMember(ctx, req.params.id, req.body.data), 201),
  );

  app.post(
    '/v1/projects/:id/members/:principal_id',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          "Change a member's role ({role}) or remove them ({remove: true}); owners, or any member removing themselves. The only owner cannot be demoted or removed (422 last_owner)",
        headers: CommandHeaders,
        params: MemberParams,
        body: Command(MemberChangeInput),
        response: { 200: Envelope(MemberChangeResult) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => changeMember(ctx, req.params.id, req.params.principal_id, req.body.data)),
  );

  app.post(
    '/v1/projects/:id/join-requests',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Ask to join a project named by its id from the gallery (any signed-in person who is not a member; a member is 409 already_member). A pending request is answered as it is',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(JoinRequestInput),
        response: { 201: Envelope(JoinRequest) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => requestToJoin(ctx, req.params.id, req.body.data), 201),
  );

  app.get(
    '/v1/projects/:id/join-requests',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: 'Join requests (owners; platform admins): pending first, oldest first; then decided, latest first',
        headers: AsMemberHeaders,
        params: ProjectParams,
        querystring: Type.Object(
          { ...pageQuery({ pageSize: 50, maxPageSize: 200 }), status: Type.Optional(JoinRequestStatus) },
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(JoinRequest) },
      },
    },
    async (req, reply) => {
      const { access } = await readableProject(deps, req, req.params.id);
      requireRole(access, 'owner', 'read');
      const page = pageRequest(req.query, 50);
      const { items, total } = await listJoinRequests(
        deps.database.db,
        req.params.id,
        { status: req.query.status },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/projects/:id/join-requests/:principal_id/decision',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Approve (with a role, viewer by default) or decline a pending join request (owners); approval makes the requester a member',
        headers: CommandHeaders,
        params: MemberParams,
        body: Command(DecisionInput),
        response: { 200: Envelope(JoinRequest) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => decideJoin(ctx, req.params.id, req.params.principal_id, req.body.data)),
  );
};
