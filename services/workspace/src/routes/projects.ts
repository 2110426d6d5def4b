import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeProjectStatus, updateProject } from '../commands/project-settings.ts';
import { createProject } from '../commands/projects.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { GalleryProject, Project, ProjectInput, ProjectPatch, StatusInput } from '../schemas/projects.ts';
import { galleryProjects, listProjects } from '../store/project-list.ts';
import { asMember, type Routes, readableProject, route } from './deps.ts';

const tags = ['projects'];

export const projectRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects',
    action: 'use',
    tags,
    summary:
      "List projects: the caller's memberships; a platform admin's list is every project unless X-Platform-As-Member: true",
    schema: { headers: AsMemberHeaders },
    query: Type.Object(
      {
        ...pageQuery({ pageSize: 50, maxPageSize: 200 }),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Matches name or description' })),
        status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('archived')])),
      },
      { additionalProperties: false },
    ),
    response: PageEnvelope(Project),
    handler: async ({ query, principal, req, reply }, deps) => {
      const page = pageRequest(query, 50);
      const { items, total } = await listProjects(
        deps.database.db,
        {
          all: actsAsAdmin(principal, asMember(req)),
          principalId: principal.id,
          q: query.q,
          status: query.status,
        },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects',
    action: 'use',
    tags,
    summary:
      'Create a project: the creator becomes its owner; workflow from template_id, else workflow, else product_development',
    body: Command(ProjectInput),
    response: Envelope(Project),
    status: 201,
    errors: ['invalid_name', 'template_not_found'],
    run: (ctx, { body }) => createProject(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id',
    action: 'use',
    tags,
    summary: 'Read a project (members; platform admins without a membership)',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Project),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project, access } = await readableProject(deps, input, input.params.id);
      return input.reply.envelope({ ...project, role: access.member });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/gallery',
    action: 'use',
    tags,
    summary:
      'Discovery: every active project any signed-in person may browse and ask to join, by name, with its member count and whether the caller is a member or has a pending join request',
    query: Type.Object(
      {
        ...pageQuery({ pageSize: 50, maxPageSize: 200 }),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Matches name or description' })),
      },
      { additionalProperties: false },
    ),
    response: PageEnvelope(GalleryProject),
    handler: async ({ query, principal, reply }, deps) => {
      const page = pageRequest(query, 50);
      const { items, total } = await galleryProjects(deps.database.db, { principalId: principal.id, q: query.q }, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id',
    action: 'use',
    tags,
    summary:
      'Update a project (owners): name, description, instructions, checkin_weekday (1 to 5), legacy goals. workflow never changes. A no-op changes nothing; an archived project is 409 project_archived',
    params: ProjectParams,
    body: Command(ProjectPatch),
    response: Envelope(Project),
    errors: ['project_not_found', 'project_archived', 'invalid_name'],
    run: (ctx, { params, body }) => updateProject(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/status',
    action: 'use',
    tags,
    summary:
      'Archive or restore a project, withdraw it from or return it to knowledge, place a legal hold (owners); release a legal hold (platform admins only, with or without a membership). Asking for what already holds changes nothing',
    params: ProjectParams,
    body: Command(StatusInput),
    response: Envelope(Project),
    errors: ['project_not_found'],
    run: (ctx, { params, body }) => changeProjectStatus(ctx, params.id, body.data.action),
  }),
];
