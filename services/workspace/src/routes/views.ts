import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeView, createView, projectViews, removeView, reorderViews } from '../commands/views.ts';
import { AsMemberHeaders, Command, CommandHeaders, ProjectParams } from '../schemas/common.ts';
import { View, ViewInput, ViewOrder, ViewParams, ViewPatch } from '../schemas/views.ts';
import { command, commander, type RouteModule, readableProject, reader } from './deps.ts';

const tags = ['views'];

const FILTERS =
  'Filters are strict on save: an unknown key, a value the project cannot use (an unoffered type or status, a goal not ' +
  'on the project, assignees me) or a list of more than 50 values is 422; repeated values are dropped. Reads are ' +
  'lenient: values no longer usable are left out.';

export const viewRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/projects/:id/views',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: "The project's saved views in tab order (viewers)",
        description: 'A project created by an old server may have none: the answer is then an empty list.',
        headers: AsMemberHeaders,
        params: ProjectParams,
        response: { 200: Envelope(Type.Array(View)) },
      },
    },
    async (req, reply) => {
      const { project } = await readableProject(deps, req, req.params.id);
      return reply.envelope(await projectViews(deps.database.db, project));
    },
  );

  app.post(
    '/v1/projects/:id/views',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Save a view after the last tab (editors)',
        description:
          'At most 20 views (422 too_many_views). The name is trimmed, 1 to 60 characters (422 invalid_view_name) and ' +
          `unique ignoring case (422 view_name_taken). group_by defaults to status, sort to position. ${FILTERS} ` +
          'An archived project is 409 project_archived.',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(ViewInput),
        response: { 201: Envelope(View) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createView(ctx, req.params.id, req.body.data), 201),
  );

  app.patch(
    '/v1/projects/:id/views/:viewId',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Change a view (editors), against the version that was read',
        description:
          'Changes only the fields sent; sent filters replace all filters and {} removes them. An older version is 409 ' +
          'stale_version with the current view in errors[0].value. A PATCH that changes nothing answers the view ' +
          `without a new version, event or change number. ${FILTERS}`,
        headers: CommandHeaders,
        params: ViewParams,
        body: Command(ViewPatch),
        response: { 200: Envelope(View) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => changeView(ctx, req.params.id, req.params.viewId, req.body.data)),
  );

  app.delete(
    '/v1/projects/:id/views/:viewId',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Delete a view, starting views included (owners); no body; 204',
        headers: CommandHeaders,
        params: ViewParams,
        response: { 204: Type.Null({ description: 'No content' }) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => removeView(ctx, req.params.id, req.params.viewId), 204),
  );

  app.put(
    '/v1/projects/:id/views/order',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Reorder the tabs (owners): view_ids names every view once; answers the views in that order',
        description:
          'A view missing, named twice or unknown is 422 invalid_view_order and the order is unchanged. No version ' +
          'changes; the order the views already have answers them without an event or change number.',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(ViewOrder),
        response: { 200: Envelope(Type.Array(View)) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => reorderViews(ctx, req.params.id, req.body.data.view_ids)),
  );
};
