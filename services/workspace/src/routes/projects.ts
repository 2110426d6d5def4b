import { Envelope, PageEnvelope, type Principal, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeProjectStatus, updateProject } from '../commands/project-settings.ts';
import { createProject } from '../commands/projects.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { AsMemberHeaders, Command, CommandHeaders, ProjectParams } from '../schemas/common.ts';
import { GalleryProject, Project, ProjectInput, ProjectPatch, StatusInput } from '../schemas/projects.ts';
import { galleryProjects, listProjects } from '../store/project-list.ts';
import { asMember, command, commander, type RouteModule, readableProject, reader } from './deps.ts';

const tags = ['projects'];

export const projectRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/projects',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary:
          "List projects: the caller's memberships; a platform admin's list is every project unless X-Platform-As-Member: true",
        headers: AsMemberHeaders,
        querystring: Type.Object(
          {
            ...pageQuery({ pageSize: 50, maxPageSize: 200 }),
            q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Matches name or description' })),
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('archived')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(Project) },
      },
    },
    async (req, reply) => {
      const principal = req.principal as Principal;
      const page = pageRequest(req.query, 50);
      const { items, total } = await listProjects(
        deps.database.db,
        {
          all: actsAsAdmin(principal, asMember(req)),
          principalId: principal.id,
          q: req.query.q,
          status: req.query.status,
        },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/projects',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Create a project: the creator becomes its owner; workflow from template_id, else workflow, else product_development',
        headers: CommandHeaders,
        body: Command(ProjectInput),
        response: { 201: Envelope(Project) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createProject(ctx, req.body.data), 201),
  );

  app.get(
    '/v1/projects/:id',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: 'Read a project (members; platform admins without a membership)',
        headers: AsMemberHeaders,
        params: ProjectParams,
        response: { 200: Envelope(Project) },
      },
    },
    async (req, reply) => {
      const { project, access } = await readableProject(deps, req, req.params.id);
      return reply.envelope({ ...project, role: access.member });
    },
  );

  app.get(
    '/v1/projects/gallery',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary:
          'Discovery: every active project any signed-in person may browse and ask to join, by name, with its member count and whether the caller is a member or has a pending join request',
        querystring: Type.Object(
          {
            ...pageQuery({ pageSize: 50, maxPageSize: 200 }),
            q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Matches name or description' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: PageEnvelope(GalleryProject) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, 50);
      const principal = req.principal as Principal;
      const { items, total } = await galleryProjects(
        deps.database.db,
        { principalId: principal.id, q: req.query.q },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.patch(
    '/v1/projects/:id',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Update a project (owners): name, description, instructions, checkin_weekday (1 to 5), legacy goals. workflow never changes. A no-op changes nothing; an archived project is 409 project_archived',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(ProjectPatch),
        response: { 200: Envelope(Project) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => updateProject(ctx, req.params.id, req.body.data)),
  );

  app.post(
    '/v1/projects/:id/status',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Archive or restore a project, withdraw it from or return it to knowledge, place a legal hold (owners); release a legal hold (platform admins only, with or without a membership). Asking for what already holds changes nothing',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(StatusInput),
        response: { 200: Envelope(Project) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => changeProjectStatus(ctx, req.params.id, req.body.data.action)),
  );
};
