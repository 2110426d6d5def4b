import { Envelope, PageEnvelope, type Principal, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { createProject } from '../commands/projects.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { AsMemberHeaders, Command, CommandHeaders, ProjectParams } from '../schemas/common.ts';
import { Project, ProjectInput } from '../schemas/projects.ts';
import { listProjects } from '../store/project-list.ts';
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
};
